// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch %t
// A lane that reaches a warp intrinsic with a mask that leaves it out: the
// Programming Guide's "each calling thread must have its own bit set in the
// mask"; on an H200 `if (lane < 16) __shfl_xor_sync(0xff, v, 1)` is an
// illegal instruction (../shared/reference/h200-observations-rules2.md).
#include <cassert>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define HALF_MASK 0x0000ffffu

__global__ void seventeenLanes(int *out) {
  int lane = threadIdx.x % 32;
  if (lane < 17)
    __syncwarp(0xffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x0000ffff by lanes 0–16: lane 16 calls with a mask that leaves it out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = lane;
}

__global__ void eightOfSixteen(int *out) {
  int lane = threadIdx.x % 32;
  int v = threadIdx.x;
  if (lane < 16)
    v += __shfl_xor_sync(0xff, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_xor_sync' is called with mask 0x000000ff by lanes 0–15: lanes 8–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void afterAnExit(int *out) {
  unsigned lane = threadIdx.x & 31;
  if (lane >= 24)
    return;
  out[threadIdx.x] = __reduce_add_sync(0xffff, lane);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__reduce_add_sync' is called with mask 0x0000ffff by lanes 0–23: lanes 16–23 call with a mask that leaves them out [cuda-warp-mask-mismatch]
}

__global__ void splitByTheIndex(int *out) {
  if (threadIdx.x < 48)
    __syncwarp(0xffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x0000ffff by every lane of warp 0 (threadIdx.x 0–31): lanes 16–31 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = 0;
}

template <unsigned Mask> __global__ void templateMask(int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.thread_rank() < 8)
    __syncwarp(Mask);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x0000000f by lanes 0–7: lanes 4–7 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = 1;
}
template __global__ void templateMask<0xffu>(int *);
template __global__ void templateMask<0x0fu>(int *);

__global__ void upperHalfWithLowerMask(const int *in, int *out) {
  int lane = threadIdx.x % 32;
  if (lane >= 16)
    out[threadIdx.x] = __ballot_sync(HALF_MASK, in[threadIdx.x] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '__ballot_sync' is called with mask 0x0000ffff by lanes 16–31: lanes 16–31 call with a mask that leaves them out, and lanes 0–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
}

__global__ void groupsShiftedWrong(int *out) {
  int lane = threadIdx.x % 32;
  unsigned group = 0xffu << (lane / 8 * 4);
  __syncwarp(group);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__syncwarp' is called with a mask that depends on the lane by the whole warp: lanes 12–31 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = lane;
}

// The whole warp calls with half a mask: the lanes above exist when the
// block's rows are whole warps, which the launch shows.
__global__ void wholeWarpHalfMask(int *out) {
  out[threadIdx.x] = __shfl_sync(0x0000ffff, (int)threadIdx.x, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: '__shfl_sync' is called with mask 0x0000ffff by the whole warp: lanes 16–31 call with a mask that leaves them out [cuda-warp-mask-mismatch]
}

void launch(int *out) { wholeWarpHalfMask<<<4, 64>>>(out); }

// An assertion stops the lanes that fail it: lanes 0-15 go on.
__global__ void afterAnAssertion(int *out) {
  int lane = threadIdx.x % 32;
  assert(lane < 16);
  __syncwarp(0xff);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__syncwarp' is called with mask 0x000000ff by lanes 0–15: lanes 8–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = lane;
}
