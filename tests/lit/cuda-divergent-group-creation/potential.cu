// RUN: %check_cuda_tidy %s cuda-divergent-group-creation %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-divergent-group-creation %t -- -config="{CheckOptions: {cuda-divergent-group-creation.ReportPotential: true}}"
// The potential tier of group creation, as for the other warp-scope checks:
// a partition that diverges only because threadIdx.y might split a warp (no
// launch in the file shows the block's width), or only after threads that
// return on `threadIdx.x >= bound` with a block-uniform bound left, depends
// on the launch. It is reported only with ReportPotential, and the message
// names the fact. A lane branch, or a tail exit on a global index, stays
// definite.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void rowsOfUnknownWidth(int *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  if (threadIdx.y == 0) {
    auto half = cg::binary_partition(warp, out[threadIdx.x] & 1);
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:17: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it; potential: the condition depends on threadIdx.y or .z, which is the same across a warp when blockDim.x is a multiple of 32, and no launch in this file shows the block's width [cuda-divergent-group-creation]
    out[half.thread_rank()] = 1;
  }
}

__global__ void rowsWithinBound(int *out, int cols) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  if (threadIdx.x >= cols)
    return;
  auto odd = cg::binary_partition(warp, out[threadIdx.x] & 1);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:14: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (early exit); every thread of the parent group must reach it; potential: only threads with threadIdx.x at or beyond 'cols' return, so threads leave only if the kernel is launched with a block wider than that in x, which the tool does not see here [cuda-divergent-group-creation]
  out[threadIdx.x] = odd.size();
}

__global__ void laneBranch(int *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  if (warp.thread_rank() < 8) {
    auto odd = cg::binary_partition(warp, out[threadIdx.x] & 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:16: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    out[threadIdx.x] = odd.size();
  }
}

__global__ void tailExit(int *out, int n) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  auto odd = cg::binary_partition(warp, out[i] & 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (early exit); every thread of the parent group must reach it [cuda-divergent-group-creation]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:14: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (early exit); every thread of the parent group must reach it [cuda-divergent-group-creation]
  out[i] = odd.size();
}

// One warp per group: warps at or beyond n_group leave, with a second exit
// operand that is the same for the whole block. Only a block wider than 32 *
// n_group makes anyone leave before the block is partitioned: potential.
__global__ void warpPerGroup(float *out, long n_group) {
  const int warp_id = threadIdx.x / 32;
  const int n = static_cast<int>(n_group);
  const int num_warps = blockDim.x / 32;
  if (warp_id >= n || num_warps < n)
    return;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:36: warning: 'tiled_partition<32>' partitions thread_block 'block' under control flow that diverges within the block (early exit); every thread of the parent group must reach it; potential: only threads with threadIdx.x at or beyond '32 * n' return, so threads leave only if the kernel is launched with a block wider than that in x, which the tool does not see here [cuda-divergent-group-creation]
  out[threadIdx.x] = tile.shfl(1.0f, 0);
}

// Two thread-dependent exit operands: not a guard, definite.
__global__ void warpOrLane(float *out, int n) {
  const int warp_id = threadIdx.x / 32;
  if (warp_id >= n || threadIdx.x % 32 == 31)
    return;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'tiled_partition<32>' partitions thread_block 'block' under control flow that diverges within the block (early exit); every thread of the parent group must reach it [cuda-divergent-group-creation]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:36: warning: 'tiled_partition<32>' partitions thread_block 'block' under control flow that diverges within the block (early exit); every thread of the parent group must reach it [cuda-divergent-group-creation]
  out[threadIdx.x] = tile.shfl(1.0f, 0);
}
