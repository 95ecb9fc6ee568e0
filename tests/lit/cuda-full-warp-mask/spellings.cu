// RUN: %check_cuda_tidy %s cuda-full-warp-mask,cuda-prefer-tile-collectives %t
// Every way of spelling "all 32 lanes" that the rule recognises, each in
// convergent code (so each gets the convergent message), and the masks it
// leaves alone: computed at run time, partial, or a local that changes.
#include <climits>

#define FULL_MASK 0xffffffff
#define ALL_LANES (~0u)
#define WARP_VOTE(pred) __any_sync(FULL_MASK, pred)
constexpr unsigned kFullMask = 0xffffffffu;
const unsigned kAllLanes = UINT_MAX;
static constexpr int kMinusOne = -1;

__device__ void literals(unsigned *o) {
  bool b = o[threadIdx.x] != 0;
  o[0] = __any_sync(0xffffffff, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  o[1] = __any_sync(0xFFFFFFFFu, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[2] = __any_sync(~0u, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[3] = __any_sync(~0, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[4] = __any_sync(-1, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[5] = __any_sync(UINT_MAX, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[6] = __any_sync((unsigned)-1, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[7] = __any_sync(static_cast<unsigned>(-1), b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[8] = __any_sync(0xffffffffull, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[9] = __any_sync(~0ull, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[10] = __any_sync((1ull << 32) - 1, b);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: '__any_sync' is called with a full warp mask, which assumes
}

// A macro is reported where it is expanded, under its own name.
__device__ void macros(unsigned *o) {
  bool b = o[threadIdx.x] != 0;
  o[0] = __any_sync(FULL_MASK, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[1] = __any_sync(ALL_LANES, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  o[2] = WARP_VOTE(b);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: '__any_sync' is called with a full warp mask, which assumes
}

// Constants and never-changed locals: the note says which variable holds it.
__device__ void variables(unsigned *o, bool b) {
  o[0] = __any_sync(kFullMask, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :10:20: note: 'kFullMask' holds a full warp mask
  o[1] = __any_sync(kAllLanes, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :11:16: note: 'kAllLanes' holds a full warp mask
  o[2] = __any_sync(kMinusOne, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :12:22: note: 'kMinusOne' holds a full warp mask
  int mask = 0xffffffff;
  o[3] = __any_sync(mask, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :[[@LINE-3]]:7: note: 'mask' holds a full warp mask
  const unsigned localConst = ~0u;
  o[4] = __any_sync(localConst, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :[[@LINE-3]]:18: note: 'localConst' holds a full warp mask
  unsigned copy = mask;
  o[5] = __any_sync(copy, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :[[@LINE-3]]:12: note: 'copy' holds a full warp mask
  unsigned long long wide = 0xffffffffull;
  o[6] = __any_sync(wide, b);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: '__any_sync' is called with a full warp mask, which assumes
  // CHECK-NOTES: :[[@LINE-3]]:22: note: 'wide' holds a full warp mask
  // __syncwarp() without an argument uses clang's default argument,
  // 0xffffffff; in converged code that is the documented idiom, never
  // reported (under divergence cuda-full-warp-mask still reports it).
  __syncwarp();
}

// Not this rule's business: masks computed at run time, partial masks, and
// locals that change (or whose address escapes) before the call.
__device__ void notFull(unsigned *o, unsigned param, bool b) {
  o[0] = __any_sync(__activemask(), b);
  o[1] = __any_sync(param, b);
  unsigned voted = __any_sync(param, b);
  o[2] = __any_sync(voted, b);
  o[3] = __any_sync(0x0000ffff, b);
  o[4] = __any_sync(0x7fffffff, b);
  o[5] = __any_sync(0xfffffffe, b);
  unsigned narrowed = 0xffffffff;
  narrowed &= param;
  o[6] = __any_sync(narrowed, b);
  unsigned escaped = 0xffffffff;
  unsigned *alias = &escaped;
  *alias = param;
  o[7] = __any_sync(escaped, b);
  unsigned maybe = 0xffffffff;
  if (param > 3)
    maybe = 0xffff;
  o[8] = __any_sync(maybe, b);
  unsigned short shortMask = 0xffff;
  o[9] = __any_sync(shortMask, b);
  __syncwarp(0x0000ffff);
}
