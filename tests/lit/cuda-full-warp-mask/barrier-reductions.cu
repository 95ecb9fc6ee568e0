// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// A barrier reduction in inline PTX (`bar.red.or.pred`, `bar.red.popc`)
// hands every thread taking part the same result: a branch on it keeps the
// warps of the group together. The threads taking part are whole warps
// (a named barrier's thread count is a multiple of the warp size).

__device__ bool anyInGroup(bool vote, int barrier, int nthreads) {
  int out;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0;"
               " bar.red.or.pred q, %2, %3, p; selp.s32 %0, 1, 0, q; }"
               : "=r"(out) : "r"((int)vote), "r"(barrier), "r"(nthreads));
  return out != 0;
}

__device__ int countInGroup(bool vote, int nthreads) {
  int out;
  asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0;"
               " bar.red.popc.u32 %0, 2, %2, p; }"
               : "=r"(out) : "r"((int)vote), "r"(nthreads));
  return out;
}

__global__ void groupVotes(const int *flags, int *out, int nthreads) {
  bool mine = flags[threadIdx.x] != 0;
  if (anyInGroup(mine, 1, nthreads))
    out[threadIdx.x] = __ballot_sync(0xffffffffu, mine);
  if (countInGroup(mine, nthreads) > 3)
    out[threadIdx.x] += __shfl_sync(0xffffffffu, flags[threadIdx.x], 0);
  // (A later synchronization: lanes that skipped a branch do not just
  // leave, so a divergent branch above would be a definite finding.)
  __syncwarp();
}

// A per-thread value read back through inline PTX is not a reduction.
__global__ void loadedFlag(const int *flags, int *out) {
  int mine;
  asm volatile("ld.volatile.global.u32 %0, [%1];"
               : "=r"(mine) : "l"(flags + threadIdx.x));
  if (mine)
    out[threadIdx.x] = __ballot_sync(0xffffffffu, mine > 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  __syncwarp();
}
