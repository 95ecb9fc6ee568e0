// The leading lines of many cuda-samples files: includes with a
// Windows-only block among them, then a #define. The preamble takes the
// block whole.
#include <stdio.h>
#ifdef _WIN32
#define WINDOWS_LEAN_AND_MEAN
#define LAUNCH_ALL cudaLaunchCooperativeKernelMultiDevice
#include <windows.h>
#endif
#ifndef _WIN32
#define OLD_PARAMS cudaLaunchParams
#endif
#define BLOCK 64
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void kernel(float *out) {
  if (threadIdx.x < BLOCK / 2)
    __syncthreads();
  out[threadIdx.x] = 1.0f;
  __syncthreads();
}
