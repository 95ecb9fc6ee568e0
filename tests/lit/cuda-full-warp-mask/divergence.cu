// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// The divergent case, with its notes, for each shape of divergence within the
// warp; convergent findings are switched off so that only definite bugs show.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define FULL_MASK 0xffffffff

// The shape measured on an H200: lane 15 reads lane 16, which is not in the
// branch; synccheck reports nothing.
__global__ void halfWarpShuffle(const int *in, int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  int v = in[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-6]]:13: note: 'lane' depends on 'tile.thread_rank()'
  out[threadIdx.x] = v;
}

// The textbook shuffle reduction inside a bounds check: the last warp is
// partial when n is not a multiple of 32.
__global__ void boundedReduction(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(FULL_MASK, v, offset);
    // CHECK-NOTES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-7]]:7: note: 'i' depends on 'threadIdx.x'
    if (threadIdx.x % 32 == 0)
      out[i / 32] = v;
  }
}

// An early return in a __device__ function: the lanes that returned are
// waiting in the caller, not exited.
__device__ void syncTail(int *flags, int n) {
  if (threadIdx.x >= n)
    return;
  flags[threadIdx.x] = 1;
  __syncwarp(0xffffffff);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: '__syncwarp' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the call
}

// An early return from the kernel: the lanes that took it have exited, and
// the Guide's contract covers only the non-exited lanes named in the mask.
// A vote or __syncwarp is well defined there; a shuffle still reads the value
// of an exited lane.
__global__ void exitedLanes(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned voters = __ballot_sync(0xffffffff, in[i] > 0);
  __syncwarp();
  int first = __shfl_sync(0xffffffff, in[i], 0);
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-6]]:5: note: threads that take this 'return' skip the call
  // CHECK-NOTES: :[[@LINE-9]]:7: note: 'i' depends on 'threadIdx.x'
  out[i] = first + voters;
}

// A grid-stride loop: lanes leave after different numbers of iterations.
__global__ void gridStride(int *data, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    data[i] = __any_sync(0xffffffff, data[i] > 0);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: '__any_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-4]]:55: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'i' depends on 'threadIdx.x'
  // Every thread meets this barrier: the lanes that skipped the branch do
  // not leave the kernel (divergence/ExitedThreads.h), so the finding is
  // definite.
  __syncthreads();
}

// A switch on the lane.
__global__ void laneSwitch(unsigned *out) {
  unsigned v = out[threadIdx.x];
  switch (threadIdx.x % 4) {
  case 0:
    v = __reduce_add_sync(0xffffffff, v);
    // CHECK-NOTES: :[[@LINE-1]]:27: warning: '__reduce_add_sync' is called with a full warp mask under control flow that diverges within the warp (switch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES: :[[@LINE-4]]:11: note: this condition is not uniform across the warp
    break;
  default:
    break;
  }
  out[threadIdx.x] = v;
}

// A value loaded per thread.
__global__ void dataDependent(const int *keys, unsigned *out) {
  int key = keys[threadIdx.x];
  if (key > 0)
    out[threadIdx.x] = __match_any_sync(0xffffffff, key);
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: '__match_any_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'key' depends on 'threadIdx.x'
  // Every thread meets this barrier: the lanes that skipped the branch do
  // not leave the kernel (divergence/ExitedThreads.h), so the finding is
  // definite.
  __syncthreads();
}

// A device function with a full mask, called under a lane-divergent branch:
// reported at the call, with a note at the mask inside.
__device__ float warpReduceSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void reduceSomeLanes(float *data) {
  int lane = threadIdx.x & 31;
  float v = data[threadIdx.x];
  if (lane < 16)
    v = warpReduceSum(v);
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: call to 'warpReduceSum' reaches '__shfl_down_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-6]]:7: note: 'lane' depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-12]]:27: note: '__shfl_down_sync' is called here with a full warp mask
  data[threadIdx.x] = v;
}

// Through two calls.
__device__ float twiceReduced(float v) { return warpReduceSum(warpReduceSum(v)); }

__global__ void reduceThroughHelper(float *data, int n) {
  if (threadIdx.x < n)
    data[threadIdx.x] = twiceReduced(data[threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-1]]:25: warning: call to 'twiceReduced' reaches '__shfl_down_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-24]]:27: note: '__shfl_down_sync' is called here with a full warp mask
}

// The branch is inside the callee, on a parameter: divergent only when the
// caller passes a thread-dependent value.
__device__ float pairUp(float v, int lane) {
  if (lane < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  return v;
}

__global__ void pairUpCallers(float *data) {
  data[threadIdx.x] = pairUp(data[threadIdx.x], threadIdx.x % 32);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: call to 'pairUp' reaches '__shfl_xor_sync' with a full warp mask under control flow that diverges within the warp (via call): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-2]]:49: note: this argument is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-9]]:7: note: this condition in 'pairUp' depends on it
  // CHECK-NOTES: :[[@LINE-9]]:26: note: '__shfl_xor_sync' is called here with a full warp mask
  data[threadIdx.x] += pairUp(data[threadIdx.x], threadIdx.x / 32);
  data[threadIdx.x] += pairUp(data[threadIdx.x], blockIdx.x);
}

// A lambda holding the intrinsic, called under a branch.
__global__ void lambdaCall(unsigned *out) {
  auto total = [](unsigned v) { return __reduce_add_sync(FULL_MASK, v); };
  if (threadIdx.x % 32 < 4)
    out[0] = total(out[threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: call to 'total' reaches '__reduce_add_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-5]]:58: note: '__reduce_add_sync' is called here with a full warp mask
  // Every thread meets this barrier: the lanes that skipped the branch do
  // not leave the kernel (divergence/ExitedThreads.h), so the finding is
  // definite.
  __syncthreads();
}

// A template: reported once, at the pattern, for the instantiation that
// diverges (Width == 16 splits the warp; Width == 32 does not).
template <int Width> __device__ unsigned prefixVote(bool b) {
  unsigned r = 0;
  if (threadIdx.x % 32 < Width)
    r = __ballot_sync(0xffffffff, b);
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  return r;
}

__global__ void instantiate(unsigned *out) {
  out[0] = prefixVote<32>(out[threadIdx.x] != 0);
  out[1] = prefixVote<16>(out[threadIdx.x] != 0);
}
