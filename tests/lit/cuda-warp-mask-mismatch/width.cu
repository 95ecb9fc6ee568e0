// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch,cuda-full-warp-mask %t
// A shuffle's width must be a power of two from 1 to 32.

__global__ void widthTwentyFour(const float *in, float *out) {
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 1, 24);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: '__shfl_xor_sync' is called with width 24, which is not a power of two from 1 to 32: the shuffle's result is undefined [cuda-warp-mask-mismatch]
  v += __shfl_down_sync(0xffffffff, v, 1, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: '__shfl_down_sync' is called with width 64, which is not a power of two from 1 to 32: the shuffle's result is undefined [cuda-warp-mask-mismatch]
  v += __shfl_down_sync(0xffffffff, v, 1, 16);
  out[threadIdx.x] = v;
}

template <int Width> __global__ void templateWidth(const float *in, float *out) {
  float v = in[threadIdx.x];
  for (int o = Width / 2; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, Width);
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: '__shfl_xor_sync' is called with width 12, which is not a power of two from 1 to 32: the shuffle's result is undefined [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}
template __global__ void templateWidth<16>(const float *, float *);
template __global__ void templateWidth<12>(const float *, float *);

// Under a lane branch the full mask is the finding (cuda-full-warp-mask's);
// the site gets only that one.
__global__ void fullMaskUnderBranch(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1, 24);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  out[threadIdx.x] = v;
}
