// cuda-tidy real-code shim for cuCollections (bench/real-code/corpora/cucollections.py),
// force-included before each file.  Written from scratch.
//
// 1. What nvcc predefines and cuco/detail/__config requires: the compiler version
//    (__CUDACC_VER_MAJOR/MINOR__, here the toolkit's 13.0), __CUDACC_EXTENDED_LAMBDA__
//    (nvcc --expt-extended-lambda, which the project's CMakeLists pass) and
//    __CUDA_ARCH_LIST__ (the architectures of the build; cuda-tidy analyzes sm_90).
// 2. thrust::identity, which the CCCL the project builds against (2.x, fetched by
//    rapids-cmake) has and the toolkit's CCCL 3 removed: a function object returning
//    its argument, for a given type or (void) for any.
#pragma once
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 13
#endif
#ifndef __CUDACC_VER_MINOR__
#define __CUDACC_VER_MINOR__ 0
#endif
#ifndef __CUDACC_EXTENDED_LAMBDA__
#define __CUDACC_EXTENDED_LAMBDA__ 1
#endif
#ifndef __CUDA_ARCH_LIST__
#define __CUDA_ARCH_LIST__ 900
#endif

#include <thrust/version.h>
#if THRUST_VERSION >= 300000
namespace thrust {
template <typename T = void>
struct identity {
  __host__ __device__ constexpr const T& operator()(const T& x) const { return x; }
};
template <>
struct identity<void> {
  template <typename U>
  __host__ __device__ constexpr U&& operator()(U&& x) const noexcept
  {
    return static_cast<U&&>(x);
  }
};
}  // namespace thrust
#endif
