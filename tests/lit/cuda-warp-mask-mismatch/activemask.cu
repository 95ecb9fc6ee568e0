// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch %t
// RUN: %check_cuda_tidy -check-suffix=OFF %s cuda-warp-mask-mismatch %t -- -config="{CheckOptions: {cuda-warp-mask-mismatch.ReportActiveMask: false}}"
// __activemask() names the lanes that happen to be converged at that
// instant. A shuffle reduction, scan or broadcast needs a fixed set of
// lanes; leader election (the mask feeds __ffs/__popc) means "whoever is
// here", and votes with it are left alone.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void blogExample(const float *in, float *out, int n) {
  float v = in[threadIdx.x];
  if (threadIdx.x < n) {
    unsigned mask = __activemask();
    v += __shfl_down_sync(mask, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with '__activemask()' as its mask: it names whichever lanes happen to be converged here, not the lanes this reduction needs; compute the mask with '__ballot_sync(0xffffffff, <condition>)' before the branch, or use 'cg::coalesced_threads()' if whoever arrives is meant [cuda-warp-mask-mismatch]
  }
  out[threadIdx.x] = v;
}

__global__ void directInALoop(const float *in, const int *keep, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (keep[i]) {
    float v = in[i];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(__activemask(), v, o);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '__shfl_xor_sync' is called with '__activemask()' as its mask: it names whichever lanes happen to be converged here, not the lanes this reduction needs; compute the mask with '__ballot_sync(0xffffffff, <condition>)' before the branch, or use 'cg::coalesced_threads()' if whoever arrives is meant [cuda-warp-mask-mismatch]
    out[i] = v;
  }
}

__global__ void scanUp(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (v > 0) {
    unsigned active = __activemask();
    for (int o = 1; o < 32; o *= 2) {
      int up = __shfl_up_sync(active, v, o);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '__shfl_up_sync' is called with '__activemask()' as its mask: it names whichever lanes happen to be converged here, not the lanes this scan needs; compute the mask with '__ballot_sync(0xffffffff, <condition>)' before the branch, or use 'cg::coalesced_threads()' if whoever arrives is meant [cuda-warp-mask-mismatch]
      if ((threadIdx.x & 31) >= o)
        v += up;
    }
  }
  out[threadIdx.x] = v;
}

__device__ int aggregatedIncrement(int *counter) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x % 32;
  int total = __popc(active);
  int base = 0;
  if (lane == leader)
    base = atomicAdd(counter, total);
  base = __shfl_sync(active, base, leader);
  return base + __popc(active & ((1u << lane) - 1));
}

__global__ void leaderElection(const int *in, int *counter, int *out) {
  if (in[threadIdx.x] > 0)
    out[threadIdx.x] = aggregatedIncrement(counter);
}

__global__ void votesAndBallotMasks(const int *in, const int *keep, int *out) {
  int i = threadIdx.x;
  unsigned kept = __ballot_sync(0xffffffff, keep[i] != 0);
  if (keep[i]) {
    out[i] = __ballot_sync(__activemask(), in[i] > 0);
    float v = in[i];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_xor_sync(kept, v, o);
    out[i] += (int)v;
  }
}
