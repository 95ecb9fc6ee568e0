// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch %t
// The mask forms the rule evaluates, each at every thread: (1u << k) - 1
// with k a template argument or a constexpr, a ballot of the guard taken
// before the branch (also passed through a wrapper), a shift of the lane.

template <int K> __global__ void lowLanes(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < K)
    v += __shfl_down_sync((1u << K) - 1, v, 1, K);
  if (lane <= K)
    __syncwarp((1u << K) - 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x000000ff by lanes 0–8: lane 8 calls with a mask that leaves it out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}
template __global__ void lowLanes<8>(const float *, float *);

constexpr int kLanes = 4;

__global__ void constexprCount(int *out) {
  unsigned lane = threadIdx.x & 31;
  if (lane < 2 * kLanes)
    out[threadIdx.x] = __all_sync((1u << kLanes) - 1, lane > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: '__all_sync' is called with mask 0x0000000f by lanes 0–7: lanes 4–7 call with a mask that leaves them out [cuda-warp-mask-mismatch]
}

__device__ void syncWith(unsigned mask) { __syncwarp(mask); }

__global__ void ballotThroughAWrapper(int *out) {
  int lane = threadIdx.x % 32;
  unsigned twelve = __ballot_sync(0xffffffff, lane < 12);
  if (lane < 12)
    syncWith(twelve);
  if (lane < 16)
    syncWith(twelve);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'syncWith' reaches '__syncwarp' with mask 0x00000fff by lanes 0–15: lanes 12–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = lane;
}

__global__ void shiftsOfTheLane(int *out) {
  int lane = threadIdx.x % 32;
  __syncwarp(1u << lane);
  unsigned pair = 3u << (lane & ~1);
  __syncwarp(pair);
  if (lane < 16)
    __syncwarp(0xffu << (lane & 8));
  out[threadIdx.x] = lane;
}

// Alone in its kernel: lanes 0-7 reach no other __syncwarp.
__global__ void groupsOfSixteen(int *out) {
  int lane = threadIdx.x % 32;
  if (lane >= 8)
    __syncwarp(0xffffu << (lane & ~15));
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with a mask that depends on the lane by lanes 8–31: lanes 0–7, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = lane;
}
