// RUN: %check_cuda_tidy %s cuda-divergent-group-creation %t
// The Guide: create implicit group handles as early as possible, before any
// branching. this_thread_block(), this_grid() and this_cluster() made inside
// a branch that diverges within the group they name. (nvcc enables
// cg::cluster_group on sm_90; clang needs the header told that the cluster
// intrinsics exist.)
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void blockHandleInBranch(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cg::thread_block block = cg::this_thread_block();
    // CHECK-NOTES: :[[@LINE-1]]:30: warning: 'this_thread_block()' is made under control flow that diverges within the block (branch); create implicit group handles before any branching [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' depends on 'threadIdx.x'
    out[i] = block.thread_rank();
  }
}

// After an early exit.
__device__ unsigned rankOrZero(int n) {
  if (threadIdx.x >= n)
    return 0;
  return cg::this_thread_block().thread_rank();
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'this_thread_block()' is made under control flow that diverges within the block (early exit); create implicit group handles before any branching [cuda-divergent-group-creation]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-4]]:5: note: threads that take this 'return' skip it
}

// A grid handle under a branch on the block index: uniform within each
// block, not across the grid. The block handle there is fine.
__global__ void gridHandleInBranch(int *out) {
  if (blockIdx.x % 2 == 0) {
    auto block = cg::this_thread_block();
    auto grid = cg::this_grid();
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: 'this_grid()' is made under control flow that diverges within the grid (branch); create implicit group handles before any branching [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the grid
    out[grid.thread_rank()] = block.thread_rank();
  }
}

// A cluster handle under a per-thread branch.
__global__ void __cluster_dims__(2, 1, 1) clusterHandleInBranch(int *out) {
  if (threadIdx.x == 0) {
    auto cluster = cg::this_cluster();
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'this_cluster()' is made under control flow that diverges within the cluster (branch); create implicit group handles before any branching [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the cluster
    out[blockIdx.x] = cluster.block_rank();
  }
}

// Quiet: handles made up front, and handles made under branches uniform
// across the group they name.
__global__ void upFront(int *out, int n, bool flag) {
  auto block = cg::this_thread_block();
  auto grid = cg::this_grid();
  if (threadIdx.x < n)
    out[grid.thread_rank()] = block.thread_rank();
  if (blockIdx.x == 0) {
    auto again = cg::this_thread_block();
    out[0] = again.size();
  }
  if (flag || n > 4) {
    auto whole = cg::this_grid();
    out[1] = whole.num_blocks();
  }
}

// coalesced_threads() is meant for divergent code: exempt where it is made.
__global__ void coalescedInBranch(int *out) {
  if (threadIdx.x % 3 == 0) {
    auto active = cg::coalesced_threads();
    out[threadIdx.x] = active.thread_rank();
    active.sync();
  }
}
