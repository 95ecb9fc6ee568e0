// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch,cuda-full-warp-mask %t
// A mask that names lanes which cannot reach the call: "all non-exited
// threads named in mask must execute the same intrinsic with the same mask".
// Lanes a kernel-level return took have exited (fine for votes, matches and
// __syncwarp, not for a shuffle, which reads them). Full masks are
// cuda-full-warp-mask's: one site, one finding.

__global__ void eightLanesNameSixteen(int *out) {
  int lane = threadIdx.x % 32;
  if (lane < 8) {
    __syncwarp(0xffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x0000ffff by lanes 0–7: lanes 8–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
    out[threadIdx.x] = 1;
  }
}

__global__ void lowMaskTooWide(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 4)
    v += __shfl_down_sync((1u << 8) - 1, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with mask 0x000000ff by lanes 0–3: lanes 4–7, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void ballotOfTheSameGuard(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  unsigned eight = __ballot_sync(0xffffffff, lane < 8);
  if (lane < 8)
    v = __shfl_sync(eight, v, 0);
  unsigned sixteen = __ballot_sync(0xffffffff, lane < 16);
  if (lane < 8)
    v += __shfl_sync(sixteen, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__shfl_sync' is called with mask 0x0000ffff by lanes 0–7: lanes 8–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void twoPlacesOneMask(int *out) {
  int lane = threadIdx.x % 32;
  if (lane < 8)
    __syncwarp(0xffff);
  else if (lane < 16)
    __syncwarp(0xffff);
  out[threadIdx.x] = lane;
}

__global__ void exitedLanes(const int *in, int *out) {
  int lane = threadIdx.x % 32;
  if (lane >= 16)
    return;
  int v = in[threadIdx.x];
  out[threadIdx.x] = __any_sync(0x00ffffff, v > 0);
  out[threadIdx.x] += __shfl_down_sync(0x00ffffff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__shfl_down_sync' is called with mask 0x00ffffff by lanes 0–15: lanes 16–23, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
}

__global__ void defaultMaskIsFull(int *out) {
  int lane = threadIdx.x % 32;
  if (lane < 16)
    __syncwarp();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncwarp' is called with its default full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  out[threadIdx.x] = lane;
  // Every thread meets this barrier: the lanes that skipped the branch do
  // not leave the kernel (divergence/ExitedThreads.h), so the finding is
  // definite.
  __syncthreads();
}

__global__ void groupsOfEight(int *out) {
  int lane = threadIdx.x % 32;
  unsigned group = 0xffu << (lane & ~7);
  if (lane < 16)
    __syncwarp(group);
  out[threadIdx.x] = lane;
}

__global__ void dataInsideLanes(const int *in, int *out) {
  int lane = threadIdx.x % 32;
  if (lane < 8) {
    if (in[threadIdx.x])
      __syncwarp(0xff);
  }
  if (lane < 4) {
    if (in[threadIdx.x])
      __syncwarp(0xff);
  }
  out[threadIdx.x] = lane;
}
