// cuda-tidy real-code stand-in, written from scratch.  lr-cuda tests
// __NVCC__ (which clang does not define): with it, linear.h includes
// <cuda.h> and kernel.h defines += for float2 and float4; without it, it
// includes this header and relies on HIP's vector operators.  This header
// stands for both: the CUDA headers and those two operators.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>
inline __host__ __device__ void operator+=(float2 &a, const float2 &b) {
  a.x += b.x; a.y += b.y;
}
inline __host__ __device__ void operator+=(float4 &a, const float4 &b) {
  a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
