// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch %t
// RUN: %check_cuda_tidy -check-suffix=ASSUME %s cuda-warp-mask-mismatch %t -- -config="{CheckOptions: {AssumeBlockDimXMultipleOf32: true}}"
// A lane computed from a global (or block-linear) index is the lane when
// the part above threadIdx.x is a multiple of 32: blockDim.x a known
// multiple of 32 (the launches, the option) or a constant stride. Without
// that the lane sets stay unknown and nothing is reported.

__global__ void launchedWarpAligned(const float *in, float *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = gid % 32;
  float v = in[gid];
  if (lane < 16)
    v += __shfl_xor_sync(0xff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_xor_sync' is called with mask 0x000000ff by lanes 0–15: lanes 8–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  // CHECK-MESSAGES-ASSUME: :[[@LINE-2]]:26: warning: '__shfl_xor_sync' is called with mask 0x000000ff by lanes 0–15: lanes 8–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[gid] = v;
}

__global__ void constantStride(int *out) {
  unsigned gid = blockIdx.x * 256 + threadIdx.x;
  if ((gid & 31) >= 24)
    return;
  __syncwarp(0xffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__syncwarp' is called with mask 0x0000ffff by lanes 0–23: lanes 16–23 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  // CHECK-MESSAGES-ASSUME: :[[@LINE-2]]:14: warning: '__syncwarp' is called with mask 0x0000ffff by lanes 0–23: lanes 16–23 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[gid] = 1;
}

__global__ void rowsOfABlock(int *out) {
  unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid % 32 < 8)
    __syncwarp(0xffff);
  // CHECK-MESSAGES-ASSUME: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x0000ffff by lanes 0–7: lanes 8–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[tid] = 1;
}

// blockDim.x unknown: gid % 32 need not be the lane. Quiet without the
// option.
__global__ void widthUnknown(const float *in, float *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  if (gid % 32 < 16)
    v += __shfl_down_sync(0xff, v, 1);
  // CHECK-MESSAGES-ASSUME: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with mask 0x000000ff by lanes 0–15: lanes 8–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[gid] = v;
}

// Quiet: a bound on the global index depends on the block; a stride that
// is not a multiple of 32; masks that match.
__global__ void quiet(const float *in, float *out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int odd = blockIdx.x * 48 + threadIdx.x;
  float v = in[gid];
  if (gid < 48)
    v += __shfl_down_sync(0xffff, v, 1);
  if (odd % 32 < 16)
    v += __shfl_down_sync(0xff, v, 1);
  if (gid % 32 < 16)
    v += __shfl_down_sync(0xffff, v, 1);
  out[gid] = v;
}

void launch(const float *in, float *out) {
  launchedWarpAligned<<<8, 128>>>(in, out);
  quiet<<<8, 128>>>(in, out, 0);
}
