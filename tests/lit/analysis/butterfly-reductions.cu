// RUN: %check_cuda_tidy %s cuda-full-warp-mask,cuda-divergent-barrier %t
// After a butterfly reduction every lane of the reduced segment holds the
// same value, so a branch on the result does not split the segment.

template <int width = 32>
__device__ float warpSum(float x) {
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, width);
  return x;
}

__device__ float warpMax(float x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, offset));
  return x;
}

__global__ void branchesOnReductions(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  float sum = warpSum(v);
  if (sum > 0.0f)
    v = __shfl_sync(0xffffffff, v, 0);
  if (warpMax(v) > 1.0f)
    v = __shfl_sync(0xffffffff, v, 1);
  // Ascending offsets, written inline.
  for (int o = 1; o < 32; o <<= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  if (v > 2.0f)
    out[blockIdx.x] = __shfl_sync(0xffffffff, v, 0);
}

// A 16-lane butterfly is uniform within half warps only.
__global__ void halfWarpSum(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (warpSum<16>(v) > 1.0f)
    v = __shfl_sync(0xffffffff, v, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  out[threadIdx.x] = v;
}

// A butterfly that stops early leaves pairs of lanes disagreeing.
__global__ void incompleteButterfly(const float *in, float *out) {
  float w = in[threadIdx.x];
  for (int o = 16; o > 1; o >>= 1)
    w += __shfl_xor_sync(0xffffffff, w, o);
  if (w > 2.0f)
    out[1] = __shfl_sync(0xffffffff, w, 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
}

// A warp-uniform result is still not block-uniform.
__global__ void barrierOnWarpSum(const float *in) {
  if (warpSum(in[threadIdx.x]) > 0.0f)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}
