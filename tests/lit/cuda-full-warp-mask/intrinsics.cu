// RUN: %check_cuda_tidy %s cuda-full-warp-mask,cuda-prefer-tile-collectives %t -- -config="{CheckOptions: {cuda-full-warp-mask.GroupByCause: false}}"
// (Each intrinsic under one branch is its own case here: GroupByCause would
// make them one finding; one-finding-per-cause.cu tests that.)
// Every warp-synchronous intrinsic that takes a lane mask, as CUDA 13 and
// clang 22's CUDA wrappers declare them (overloads for each value type), with
// a hardcoded full mask: under a branch that diverges within the warp (a
// definite bug: the lanes that skipped the branch are named in the mask),
// in convergent code (the mask assumes the whole warp is there), and with a
// mask that is not full (not this rule's business).

__global__ void underLaneBranch(double *out, float f, double d, long long ll) {
  int lane = threadIdx.x % 32;
  int v = static_cast<int>(out[threadIdx.x]);
  unsigned u = v;
  int p = 0;
  double x = 0;
  if (lane < 16) {
    x = __shfl_sync(0xffffffff, v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __shfl_up_sync(0xffffffff, f, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__shfl_up_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __shfl_down_sync(0xffffffff, d, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __shfl_xor_sync(0xffffffff, ll, 1, 16);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __ballot_sync(0xffffffff, v > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __any_sync(0xffffffff, v > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__any_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __all_sync(0xffffffff, v > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__all_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __uni_sync(0xffffffff, v > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__uni_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __match_any_sync(0xffffffff, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__match_any_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __match_all_sync(0xffffffff, u, &p);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__match_all_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __reduce_add_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__reduce_add_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __reduce_min_sync(0xffffffff, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__reduce_min_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __reduce_max_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__reduce_max_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __reduce_and_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__reduce_and_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __reduce_or_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__reduce_or_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    x = __reduce_xor_sync(0xffffffff, u);
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__reduce_xor_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    __syncwarp(0xffffffff);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  }
  out[threadIdx.x] = x + p;
  // Every thread meets this barrier: the lanes that skipped the branch do
  // not leave the kernel (divergence/ExitedThreads.h), so the finding is
  // definite.
  __syncthreads();
}

__global__ void convergent(double *out, float f, double d, long long ll) {
  int v = static_cast<int>(out[threadIdx.x]);
  unsigned u = v;
  int p = 0;
  double x = 0;
  x = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '__shfl_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __shfl_up_sync(0xffffffff, f, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '__shfl_up_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __shfl_down_sync(0xffffffff, d, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__shfl_down_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __shfl_xor_sync(0xffffffff, ll, 1, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '__shfl_xor_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __ballot_sync(0xffffffff, v > 0);
  // (no advisory: __ballot_sync in converged code computes a mask)
  x = __any_sync(0xffffffff, v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__any_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __all_sync(0xffffffff, v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__all_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __uni_sync(0xffffffff, v > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '__uni_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __match_any_sync(0xffffffff, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__match_any_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __match_all_sync(0xffffffff, u, &p);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__match_all_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __reduce_add_sync(0xffffffff, u);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__reduce_add_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __reduce_min_sync(0xffffffff, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__reduce_min_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __reduce_max_sync(0xffffffff, u);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__reduce_max_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __reduce_and_sync(0xffffffff, u);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__reduce_and_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __reduce_or_sync(0xffffffff, u);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__reduce_or_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  x = __reduce_xor_sync(0xffffffff, u);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '__reduce_xor_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  __syncwarp(0xffffffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '__syncwarp' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  out[threadIdx.x] = x + p;
}

// Masks that are not all 32 lanes, under the same branch: quiet.
__global__ void partialMasks(double *out, float f, double d, long long ll) {
  int lane = threadIdx.x % 32;
  int v = static_cast<int>(out[threadIdx.x]);
  unsigned u = v;
  int p = 0;
  double x = 0;
  if (lane < 16) {
    x = __shfl_sync(0x0000ffff, v, 0);
    x = __shfl_up_sync(0x0000ffff, f, 1);
    x = __shfl_down_sync(0x0000ffff, d, 1);
    x = __shfl_xor_sync(0x0000ffff, ll, 1, 16);
    x = __ballot_sync(0x0000ffff, v > 0);
    x = __any_sync(0x0000ffff, v > 0);
    x = __all_sync(0x0000ffff, v > 0);
    x = __uni_sync(0x0000ffff, v > 0);
    x = __match_any_sync(0x0000ffff, v);
    x = __match_all_sync(0x0000ffff, u, &p);
    x = __reduce_add_sync(0x0000ffff, u);
    x = __reduce_min_sync(0x0000ffff, v);
    x = __reduce_max_sync(0x0000ffff, u);
    x = __reduce_and_sync(0x0000ffff, u);
    x = __reduce_or_sync(0x0000ffff, u);
    x = __reduce_xor_sync(0x0000ffff, u);
    __syncwarp(0x0000ffff);
  }
  out[threadIdx.x] = x + p;
}

// The deprecated mask-less forms and the helpers that compute masks are not
// warp-synchronous intrinsics with a mask argument.
__global__ void notMasked(unsigned *out) {
  out[0] = __activemask();
  out[1] = __popc(out[2]);
  out[3] = __fns(0xffffffff, 0, 1);
}
