// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// The cooperative-groups spellings of block-, cluster- and grid-wide
// barriers, and the cooperative-groups idioms that must stay quiet.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void blockSyncUnderBranch(float *data, int n) {
  cg::thread_block block = cg::this_thread_block();
  unsigned rank = block.thread_rank();
  if (rank < n) {
    data[rank] *= 2.0f;
    block.sync();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'thread_block::sync()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:12: note: 'rank' depends on 'block.thread_rank()'
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void freeSyncUnderBranch(float *data) {
  auto block = cg::this_thread_block();
  if (threadIdx.x % 3 == 0)
    cg::sync(block);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(thread_block)' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
  data[threadIdx.x] = 0;
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void temporaryHandleSync(float *data) {
  if (data[threadIdx.x] > 0.0f)
    cg::this_thread_block().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'thread_block::sync()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// grid.sync() needs every thread of the grid: a branch on blockIdx splits
// the grid even though it is uniform within each block.
__global__ void gridSyncOnBlockParity(int *out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x % 2 == 0)
    grid.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'grid_group::sync()' is reached under control flow that diverges within the grid (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the grid
  out[blockIdx.x] = 1;
}

__global__ void freeGridSyncAfterEarlyReturn(int *out, int n) {
  auto grid = cg::this_grid();
  if (grid.thread_rank() >= n)
    return;
  out[grid.thread_rank()] = 1;
  cg::sync(grid);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 'cooperative_groups::sync(grid_group)' is reached under control flow that diverges within the grid (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the grid
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
}

// A grid-wide barrier outside any branch: this check has nothing to say
// (whether the launch is cooperative is cuda-grid-sync-launch's business).
__global__ void gridSyncConverged(int *out, int *flag) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    atomicAdd(flag, 1);
  grid.sync();
  if (threadIdx.x == 0 && blockIdx.x == 0)
    out[0] = *flag;
}

// The cooperative-groups block reduction: tile-level work under tile-level
// conditions, block.sync() outside them. No warning.
__device__ float blockSum(const cg::thread_block &block, float v) {
  __shared__ float partial[32];
  auto tile = cg::tiled_partition<32>(block);
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0)
    partial[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    v = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()]
                                                     : 0.0f;
    v = cg::reduce(tile, v, cg::plus<float>());
  }
  return v;
}

__global__ void cgBlockReduce(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  float sum = blockSum(block, in[block.group_index().x * block.size() +
                                 block.thread_rank()]);
  if (block.thread_rank() == 0)
    out[block.group_index().x] = sum;
}

// Tile barriers are warp-level: a lane condition around tile.sync() is not
// this check's business.
__global__ void tileSyncUnderLaneBranch(int *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (tile.meta_group_rank() == 1)
    tile.sync();
  out[threadIdx.x] = tile.thread_rank();
}
