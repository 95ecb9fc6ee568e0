// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// %laneid read in inline PTX (faiss's and CUTLASS's getLaneId()) is the
// linear thread index modulo 32, as threadIdx.x % 32 is: a loop from the lane
// id in steps of 32 up to a multiple of 32 runs one trip count per warp.
__device__ __forceinline__ int laneId() {
  int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__device__ __forceinline__ unsigned lanesBelow() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
// One trip count per warp: no finding.
__global__ void stepsOfAWarp(const float *in, float *out, int n) {
  int limit = n / 32 * 32;
  float sum = 0;
  for (int i = laneId(); i < limit; i += 32)
    sum += __shfl_xor_sync(0xffffffff, in[i], 1);
  out[laneId()] = sum;
}
// Steps of 16: lanes 0-15 run one trip more than lanes 16-31.
__global__ void stepsOfHalfAWarp(const float *in, float *out, int n) {
  int limit = n / 32 * 32;
  float sum = 0;
  for (int i = laneId(); i < limit; i += 16)
    sum += __shfl_xor_sync(0xffffffff, in[i], 1);
    // CHECK-NOTES: :[[@LINE-1]]:28: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES: :[[@LINE-3]]:26: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-4]]:12: note: 'i' depends on the result of 'laneId'
  out[laneId()] = sum;
}
// %lanemask_lt is no lane index: a thread-dependent start, nothing more.
__global__ void maskNotLane(const float *in, float *out, int n) {
  int limit = n / 32 * 32;
  float sum = 0;
  for (unsigned i = lanesBelow(); i < limit; i += 32)
    sum += __shfl_xor_sync(0xffffffff, in[i], 1);
    // CHECK-NOTES: :[[@LINE-1]]:28: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES: :[[@LINE-3]]:35: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-4]]:17: note: 'i' depends on the result of 'lanesBelow'
  out[0] = sum;
}
// Half a warp by lane id.
__global__ void laneBelowSixteen(float *out) {
  if (laneId() < 16)
    out[0] = __shfl_xor_sync(0xffffffff, out[1], 1);
    // CHECK-NOTES: :[[@LINE-1]]:30: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
}
