//===--- cuda_tidy_nvcc_compat.h - what nvcc's headers give and clang's lack ===//
//
// cuda-tidy parses CUDA with clang, whose CUDA wrapper headers declare less
// than nvcc's. Code that builds with nvcc then fails to parse, and a file
// that does not parse is not analyzed (issue 15). The standalone includes
// this header first in every CUDA translation unit (turn it off with
// --no-nvcc-compat); plugin users add
//   -include <prefix>/share/cuda-tidy/cuda_tidy_nvcc_compat.h
// to their flags (docs/nvcc-compat.md).
//
// Each shim names the nvcc behaviour it mirrors. Nothing here is meant to be
// code generation quality: cuda-tidy only parses, so a cache-hinted store is
// a plain store and a load is a plain load.
//
// Projects that build with clang often carry shims of their own for the
// same names (host min/max, __stcs, the CUDA 12 cudaMemAdvise), and one
// included first must not make theirs a redefinition (issue 37). So every
// function here is a template whose only template parameter is defaulted
// and unused: its parameters are not deduced, so it converts arguments
// exactly as nvcc's function does, it is a different entity from any
// non-template of the same signature, and on a tie overload resolution
// prefers the non-template, the project's own.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_NVCC_COMPAT_H
#define CUDA_TIDY_NVCC_COMPAT_H

#if defined(__CUDA__) && defined(__clang__) && !defined(__NVCC__)

// nvcc defines its own version for every file it compiles; clang does not.
// Code that picks the *_sync warp intrinsics by it (`#if
// __CUDACC_VER_MAJOR__ >= 9`, moderngpu, cub's old paths) otherwise parses
// its pre-Volta branch (`__ballot(p)`, no mask), and a full-mask bug in the
// branch nvcc builds is never seen. The toolkit's runtime version stands in
// for nvcc's: they ship together.
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDART_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

// nvcc's cuda_runtime.h includes crt/math_functions.h, which includes
// <math.h>, <stdlib.h>, <cmath> and <cstdlib>: host code then calls
// isfinite, isnan, fabsf, ... unqualified without including them. clang's
// wrapper declares only the __device__ overloads, so a host call finds no
// candidate.
#include <math.h>
#include <stdlib.h>
#include <cmath>
#include <cstdlib>
// nvcc's crt/common_functions.h includes <string.h>, <time.h>, <stdio.h>,
// <new> and <assert.h> (the last not under NVRTC): clock(), memset, printf
// and assert work with no include of their own.
#include <string.h>
#include <time.h>
#include <stdio.h>
#include <new>
#include <assert.h>

// nvcc's crt/math_functions.hpp defines min and max as __host__ __device__
// for every pairing of integer and floating types; clang's wrapper includes
// the same file with __host__ taken out, so `min(a, b)` in host code does not
// resolve. These are the host halves, same signatures and result types.
#define CUDA_TIDY_HOST_MINMAX(R, A, B)                                         \
  template <int = 0>                                                           \
  static inline __host__ R min(const A a, const B b) {                         \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }                                                                            \
  template <int = 0>                                                           \
  static inline __host__ R max(const A a, const B b) {                         \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a)           \
                                                 : static_cast<R>(b);          \
  }
CUDA_TIDY_HOST_MINMAX(int, int, int)
CUDA_TIDY_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
CUDA_TIDY_HOST_MINMAX(unsigned int, int, unsigned int)
CUDA_TIDY_HOST_MINMAX(unsigned int, unsigned int, int)
CUDA_TIDY_HOST_MINMAX(long int, long int, long int)
CUDA_TIDY_HOST_MINMAX(unsigned long int, unsigned long int, unsigned long int)
CUDA_TIDY_HOST_MINMAX(unsigned long int, long int, unsigned long int)
CUDA_TIDY_HOST_MINMAX(unsigned long int, unsigned long int, long int)
CUDA_TIDY_HOST_MINMAX(long long int, long long int, long long int)
CUDA_TIDY_HOST_MINMAX(unsigned long long int, unsigned long long int,
                      unsigned long long int)
CUDA_TIDY_HOST_MINMAX(unsigned long long int, long long int,
                      unsigned long long int)
CUDA_TIDY_HOST_MINMAX(unsigned long long int, unsigned long long int,
                      long long int)
CUDA_TIDY_HOST_MINMAX(float, float, float)
CUDA_TIDY_HOST_MINMAX(double, double, double)
CUDA_TIDY_HOST_MINMAX(double, float, double)
CUDA_TIDY_HOST_MINMAX(double, double, float)
#undef CUDA_TIDY_HOST_MINMAX

// Cache-hinted loads and stores of sm_32_intrinsics.h that clang 22 does not
// define (it has __ldg, __ldcg, __ldcs, __ldcv and __stwt): __ldca, __ldlu,
// __stwb, __stcg and __stcs, for the same element and vector types.
#define CUDA_TIDY_CACHE_HINTS(T)                                               \
  template <int = 0>                                                           \
  static __device__ __inline__ T __ldca(const T *ptr) { return *ptr; }         \
  template <int = 0>                                                           \
  static __device__ __inline__ T __ldlu(const T *ptr) { return *ptr; }         \
  template <int = 0>                                                           \
  static __device__ __inline__ void __stwb(T *ptr, T value) { *ptr = value; }  \
  template <int = 0>                                                           \
  static __device__ __inline__ void __stcg(T *ptr, T value) { *ptr = value; }  \
  template <int = 0>                                                           \
  static __device__ __inline__ void __stcs(T *ptr, T value) { *ptr = value; }
CUDA_TIDY_CACHE_HINTS(char)
CUDA_TIDY_CACHE_HINTS(signed char)
CUDA_TIDY_CACHE_HINTS(short)
CUDA_TIDY_CACHE_HINTS(int)
CUDA_TIDY_CACHE_HINTS(long)
CUDA_TIDY_CACHE_HINTS(long long)
CUDA_TIDY_CACHE_HINTS(unsigned char)
CUDA_TIDY_CACHE_HINTS(unsigned short)
CUDA_TIDY_CACHE_HINTS(unsigned int)
CUDA_TIDY_CACHE_HINTS(unsigned long)
CUDA_TIDY_CACHE_HINTS(unsigned long long)
CUDA_TIDY_CACHE_HINTS(char2)
CUDA_TIDY_CACHE_HINTS(char4)
CUDA_TIDY_CACHE_HINTS(short2)
CUDA_TIDY_CACHE_HINTS(short4)
CUDA_TIDY_CACHE_HINTS(int2)
CUDA_TIDY_CACHE_HINTS(int4)
CUDA_TIDY_CACHE_HINTS(longlong2)
CUDA_TIDY_CACHE_HINTS(uchar2)
CUDA_TIDY_CACHE_HINTS(uchar4)
CUDA_TIDY_CACHE_HINTS(ushort2)
CUDA_TIDY_CACHE_HINTS(ushort4)
CUDA_TIDY_CACHE_HINTS(uint2)
CUDA_TIDY_CACHE_HINTS(uint4)
CUDA_TIDY_CACHE_HINTS(ulonglong2)
CUDA_TIDY_CACHE_HINTS(float)
CUDA_TIDY_CACHE_HINTS(float2)
CUDA_TIDY_CACHE_HINTS(float4)
CUDA_TIDY_CACHE_HINTS(double)
CUDA_TIDY_CACHE_HINTS(double2)
#undef CUDA_TIDY_CACHE_HINTS

// cooperative_groups/details/info.h offers cluster groups (this_cluster,
// cluster_group::sync, map_shared_rank) on sm_90 and newer only under
// __NVCC__, NVRTC or this macro. clang's device pass for sm_90+ has the
// intrinsics the group uses, so the same code parses as it does with nvcc.
#ifndef _CG_CLUSTER_INTRINSICS_AVAILABLE
#define _CG_CLUSTER_INTRINSICS_AVAILABLE 1
#endif

// CUDA 12's unified-memory hints named the processor by a device ordinal
// (cudaCpuDeviceId for the host); CUDA 13 replaced those two signatures by
// ones that take a cudaMemLocation. nvcc 12 builds code written for them
// (llm.c); against a CUDA 13 toolkit it would not parse at all. These
// overloads give the CUDA 12 calls their CUDA 13 meaning.
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000 && defined(__cplusplus)
template <int = 0>
inline __host__ cudaError_t cudaMemAdvise(const void *DevPtr, size_t Count,
                                          enum cudaMemoryAdvise Advice,
                                          int Device) {
  struct cudaMemLocation Location = {};
  Location.type = Device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                            : cudaMemLocationTypeDevice;
  Location.id = Device == cudaCpuDeviceId ? 0 : Device;
  return cudaMemAdvise(DevPtr, Count, Advice, Location);
}
template <int = 0>
inline __host__ cudaError_t cudaMemPrefetchAsync(const void *DevPtr,
                                                 size_t Count, int DstDevice,
                                                 cudaStream_t Stream = 0) {
  struct cudaMemLocation Location = {};
  Location.type = DstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                               : cudaMemLocationTypeDevice;
  Location.id = DstDevice == cudaCpuDeviceId ? 0 : DstDevice;
  return cudaMemPrefetchAsync(DevPtr, Count, Location, 0, Stream);
}
#endif

#endif // __CUDA__ && __clang__ && !__NVCC__
#endif // CUDA_TIDY_NVCC_COMPAT_H
