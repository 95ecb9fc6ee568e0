// RUN: %check_cuda_tidy %s cuda-divergent-group-creation %t
// Partitioning is a collective operation of the parent group: every thread of
// the parent must reach it. Each creation API under a branch that diverges
// within its parent, and under branches uniform within it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// The reference kernel's shape: 5 of 8 warps take the branch, and the block
// is partitioned inside it.
__global__ void activeWarpSums(const float *in, float *out, int activeWarps) {
  auto block = cg::this_thread_block();
  const int warp = threadIdx.x / 32;
  if (warp < activeWarps) {
    auto tile = cg::tiled_partition<32>(block);
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: 'tiled_partition<32>' partitions thread_block 'block' under control flow that diverges within the block (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-5]]:16: note: 'block' is made here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:13: note: 'warp' depends on 'threadIdx.x'
    out[warp] = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());
  }
}

// The dynamic form, measured on an H200 under `if (threadIdx.x < 48)`.
__global__ void dynamicTile(int *out) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 48) {
    cg::thread_group t = cg::tiled_partition(block, 32);
    // CHECK-NOTES: :[[@LINE-1]]:26: warning: 'tiled_partition' partitions thread_block 'block' under control flow that diverges within the block (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-4]]:28: note: 'block' is made here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    t.sync();
    out[threadIdx.x] = t.thread_rank();
  }
}

// Splitting a warp tile: labeled_partition (measured under `if (lane < 20)`),
// binary_partition, and a static sub-tile, each under a lane branch.
__global__ void splitWarp(const int *keys, int *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = warp.thread_rank();
  const int key = keys[threadIdx.x];
  if (lane < 20) {
    auto byKey = cg::labeled_partition(warp, key);
    // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'labeled_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-6]]:15: note: 'warp' is made here
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-7]]:13: note: 'lane' depends on 'warp.thread_rank()'
    auto bySign = cg::binary_partition(warp, key > 0);
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-11]]:15: note: 'warp' is made here
    // CHECK-NOTES: :[[@LINE-9]]:7: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-12]]:13: note: 'lane' depends on 'warp.thread_rank()'
    auto quarter = cg::tiled_partition<8>(warp);
    // CHECK-NOTES: :[[@LINE-1]]:20: warning: 'tiled_partition<8>' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-16]]:15: note: 'warp' is made here
    // CHECK-NOTES: :[[@LINE-14]]:7: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-17]]:13: note: 'lane' depends on 'warp.thread_rank()'
    out[threadIdx.x] = byKey.thread_rank() + bySign.thread_rank() +
                       quarter.thread_rank();
  }
}

// The parent made in the same expression: one finding, at the partition.
__global__ void inlineParent(int *out, int n) {
  if (threadIdx.x < n) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    // CHECK-NOTES: :[[@LINE-1]]:17: warning: 'tiled_partition<16>' partitions the thread_block from 'cg::this_thread_block()' under control flow that diverges within the block (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    out[threadIdx.x] = tile.thread_rank();
  }
}

// A parent that comes from the caller.
__device__ int rankInQuarter(const cg::thread_block_tile<32> &warp) {
  int r = 0;
  if (warp.thread_rank() % 2 == 0)
    r = cg::tiled_partition<4>(warp).thread_rank();
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'tiled_partition<4>' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
  // CHECK-NOTES: :[[@LINE-5]]:63: note: 'warp' is made by the caller
  // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the warp
  return r;
}

// Quiet: partitions made before the branch; branches uniform within the
// parent (a tile's rank in its parent, a warp index for a warp tile, the
// block index, a kernel parameter); loops with uniform trip counts.
__global__ void uniformParents(const int *keys, int *out, int n, bool flag) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  auto half = cg::tiled_partition<16>(warp);
  const int lane = warp.thread_rank();
  if (lane < 16)
    out[threadIdx.x] = half.thread_rank();
  if (warp.meta_group_rank() == 0) {
    auto pairs = cg::tiled_partition<2>(warp);
    auto byKey = cg::labeled_partition(warp, keys[threadIdx.x]);
    out[threadIdx.x] = pairs.thread_rank() + byKey.thread_rank();
  }
  if (half.meta_group_rank() == 1) {
    auto eighths = cg::tiled_partition<8>(half);
    out[threadIdx.x] += eighths.thread_rank();
  }
  if (threadIdx.x / 32 == 2)
    out[threadIdx.x] += cg::binary_partition(warp, lane > 3).thread_rank();
  if (blockIdx.x == 0 || flag)
    out[threadIdx.x] += cg::tiled_partition<32>(block).thread_rank();
  for (int i = 0; i < n; ++i)
    out[threadIdx.x] += cg::tiled_partition(block, 64).thread_rank();
}
