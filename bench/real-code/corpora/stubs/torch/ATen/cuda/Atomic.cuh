// cuda-tidy real-code stand-in (bench/real-code/corpora/stubs/torch):
// PyTorch's gpuAtomic* helpers and the atomicAdd overloads ATen adds for
// types CUDA lacks, declared.
#pragma once
#include <_cuda_tidy_torch.h>
template <class T> __device__ T gpuAtomicAdd(T* address, T val);
template <class T> __device__ void gpuAtomicAddNoReturn(T* address, T val);
template <class T> __device__ T gpuAtomicMax(T* address, T val);
template <class T> __device__ T gpuAtomicMin(T* address, T val);
template <class T> __device__ T gpuAtomicMul(T* address, T val);
template <class T> __device__ void fastAtomicAdd(T* tensor, int64_t index, int64_t numel, T value, bool fast_atomics);
__device__ void atomicAdd(uint8_t* address, uint8_t val);
__device__ void atomicAdd(int8_t* address, int8_t val);
__device__ void atomicAdd(int16_t* address, int16_t val);
__device__ void atomicAdd(int64_t* address, int64_t val);
__device__ void atomicAdd(bool* address, bool val);
__device__ c10::Half atomicAdd(c10::Half* address, c10::Half val);
__device__ c10::BFloat16 atomicAdd(c10::BFloat16* address, c10::BFloat16 val);
