// A CUDA-less stand-in for the toolkit headers, just enough for the checks'
// API recognition: builtin index variables, block and warp intrinsics, and a
// cooperative_groups namespace with the group types and collectives. It lets
// the fuzzer parse a mutated kernel in milliseconds instead of the 1.5 s the
// real headers take. Tests of behaviour use the real headers.
#pragma once
#include <__clang_cuda_builtin_vars.h>

#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))

extern "C" __device__ void __syncthreads(void);
extern "C" __device__ int __syncthreads_count(int);
extern "C" __device__ int __syncthreads_and(int);
extern "C" __device__ int __syncthreads_or(int);
extern "C" __device__ void __syncwarp(unsigned mask);
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ int __any_sync(unsigned mask, int pred);
__device__ int __all_sync(unsigned mask, int pred);
__device__ int __shfl_sync(unsigned mask, int v, int lane, int width = 32);
__device__ int __shfl_down_sync(unsigned mask, int v, unsigned d, int width = 32);
__device__ int __shfl_up_sync(unsigned mask, int v, unsigned d, int width = 32);
__device__ int __shfl_xor_sync(unsigned mask, int v, int m, int width = 32);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned v);
__device__ int atomicAdd(int *p, int v);

namespace cooperative_groups {
namespace __v1 {
class thread_group {
public:
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ void sync() const;
};
class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
};
class grid_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
};
class coalesced_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ int shfl_down(int v, unsigned d) const;
};
template <unsigned N, class Parent = void> class thread_block_tile : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned meta_group_rank() const;
  __device__ int shfl_down(int v, unsigned d) const;
  __device__ unsigned ballot(int p) const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned N, class P> __device__ thread_block_tile<N, P> tiled_partition(const P &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned n);
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class G, class T, class Op> __device__ T reduce(const G &g, T v, Op op);
__device__ void sync(const thread_group &g);
} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups
