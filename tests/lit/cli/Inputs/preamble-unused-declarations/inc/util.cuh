// A user header: one static helper the main file uses, one nobody uses
// (-Wunused-function reports it), and a kernel whose barrier diverges.
#pragma once
#include <vendor.h>

static __device__ int usedHelper(int x) { return x + 1; }

static __device__ int unusedHelper(int x) { return x * 2; }

__global__ void headerKernel(float *out) {
  if (threadIdx.x < 16)
    __syncthreads();
  out[threadIdx.x] = 0.0f;
  __syncthreads();
}
