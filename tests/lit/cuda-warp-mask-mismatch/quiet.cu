// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch %t
// Masks that name exactly the lanes that arrive: no finding.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void halfWarpHalfMask(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0x0000ffff, v, o, 16);
  else
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0xffff0000, v, o, 16);
  out[threadIdx.x] = warpSum(v);
}

__global__ void firstSixteenThreads(int *out) {
  if (threadIdx.x < 16)
    __syncwarp(0x0000ffff);
  if (threadIdx.x < 32)
    __syncwarp(0xffffffff);
  out[threadIdx.x] = 0;
}

// No launch in the file: a block of 16 threads may be what 0xffff means.
__global__ void sixteenThreadBlocks(int *out) {
  out[threadIdx.x] = __shfl_sync(0x0000ffff, (int)threadIdx.x, 0);
}

__global__ void computedFromTheGuard(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned mask = __ballot_sync(0xffffffff, i < n);
  if (i < n)
    out[i] = __shfl_down_sync(mask, in[i], 1);
}

__global__ void oddAndEven(int *out) {
  int lane = threadIdx.x % 32;
  int v = lane;
  if (lane & 1)
    v = __shfl_xor_sync(0xaaaaaaaa, v, 2);
  else
    v = __shfl_xor_sync(0x55555555, v, 2);
  out[threadIdx.x] = v;
}
