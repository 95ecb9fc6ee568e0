// cuda-tidy bench stand-in for the cutlass corpus (our own, not NVIDIA's).
// nvcc (CUDA >= 12.8) has the __nv_atomic_* builtins and declares their
// memory-order constants in crt/device_functions.h, which clang's CUDA
// wrapper replaces with its own header; CUTLASS's subbyte_reference.h uses
// __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED) when __CUDACC_VER_MAJOR__ >= 13.
// Declared here so that the function parses; a relaxed load has the same
// meaning.
#pragma once
#if defined(__CUDA__)
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
template <class T>
__device__ inline T __nv_atomic_load_n(T* p, int) {
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}
#endif
