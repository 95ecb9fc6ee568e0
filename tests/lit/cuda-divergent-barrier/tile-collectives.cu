// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Collectives on a thread_block_tile (and a block handle) reached under
// control flow that diverges within that group: every member must reach
// them. A condition uniform within the tile, such as its rank in the parent,
// is fine.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// The reference kernel's shape, measured on an H200: the reduction over a
// 32-thread tile under `if (lane < 16)` reads the 16 absent lanes, and the
// sums differ from the CPU reference (synccheck: 0 errors).
__global__ void halfTileSums(const float *in, float *out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  float sum = 0.0f;
  if (lane < 16)
    sum = cg::reduce(tile, in[threadIdx.x], cg::plus<float>());
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: 'cooperative_groups::reduce(thread_block_tile<32>)' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
  // CHECK-NOTES: :[[@LINE-6]]:13: note: 'lane' depends on 'tile.thread_rank()'
  out[threadIdx.x] = sum;
}

// Every collective of a tile, under one lane branch.
__global__ void everyTileCollective(float *io) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = io[threadIdx.x];
  if (threadIdx.x % 32 < 8) {
    tile.sync();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'thread_block_tile<32>::sync()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
    cg::sync(tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(thread_block_tile<32>)' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:7: note: this condition is not uniform across the warp
    v += tile.shfl(v, 0);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::shfl()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: this condition is not uniform across the warp
    v += tile.shfl_up(v, 1);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::shfl_up()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-12]]:7: note: this condition is not uniform across the warp
    v += tile.shfl_down(v, 1);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::shfl_down()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-15]]:7: note: this condition is not uniform across the warp
    v += tile.shfl_xor(v, 1);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::shfl_xor()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-18]]:7: note: this condition is not uniform across the warp
    v += tile.ballot(v > 0);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::ballot()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-21]]:7: note: this condition is not uniform across the warp
    v += tile.any(v > 0);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::any()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-24]]:7: note: this condition is not uniform across the warp
    v += tile.all(v > 0);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::all()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-27]]:7: note: this condition is not uniform across the warp
    v += cg::inclusive_scan(tile, v);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'cooperative_groups::inclusive_scan(thread_block_tile<32>)' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-30]]:7: note: this condition is not uniform across the warp
    v += cg::exclusive_scan(tile, v, cg::plus<float>());
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'cooperative_groups::exclusive_scan(thread_block_tile<32>)' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-33]]:7: note: this condition is not uniform across the warp
    cg::invoke_one(tile, [&] { io[0] = v; });
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cooperative_groups::invoke_one(thread_block_tile<32>)' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-36]]:7: note: this condition is not uniform across the warp
    v += cg::invoke_one_broadcast(tile, [&] { return v; });
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'cooperative_groups::invoke_one_broadcast(thread_block_tile<32>)' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-39]]:7: note: this condition is not uniform across the warp
    v += tile.match_any(static_cast<int>(v));
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<32>::match_any()' is reached under control flow that diverges within the warp (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-42]]:7: note: this condition is not uniform across the warp
    // Not collectives: what the tile says about itself.
    v += tile.thread_rank() + tile.meta_group_rank() + tile.num_threads();
  }
  io[threadIdx.x] = v;
}

// Smaller tiles: a branch uniform within each 16-thread tile leaves it whole;
// an 8-lane branch splits it. Early exits count too.
__device__ float sixteenths(const cg::thread_block_tile<16> &t, float v) {
  if (t.thread_rank() < 8)
    v = cg::reduce(t, v, cg::plus<float>());
  // CHECK-NOTES: :[[@LINE-1]]:9: warning: 'cooperative_groups::reduce(thread_block_tile<16>)' is reached under control flow that diverges within the tile of 16 threads (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the tile of 16 threads
  if (v < 0.0f)
    return v;
  return t.shfl(v, 0);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: 'thread_block_tile<16>::shfl()' is reached under control flow that diverges within the tile of 16 threads (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the tile of 16 threads
  // CHECK-NOTES: :[[@LINE-4]]:5: note: threads that take this 'return' skip the collective
  // CHECK-NOTES: :[[@LINE-11]]:71: note: 'v' is assigned under a condition that is not uniform across the tile of 16 threads
}

// Block-scope collectives other than the barrier.
__global__ void blockCollectives(const int *in, int *out, int n) {
  __shared__ int staged[256];
  auto block = cg::this_thread_block();
  if (threadIdx.x < n) {
    cg::memcpy_async(block, staged, in, sizeof(int) * 256);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cooperative_groups::memcpy_async(thread_block)' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    cg::wait(block);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cooperative_groups::wait(thread_block)' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:7: note: this condition is not uniform across the block
  }
  out[threadIdx.x] = staged[threadIdx.x];
}

// Quiet: conditions uniform within the tile (its rank in the parent, a warp
// index for a warp tile, the block index, a parameter), a 16-lane branch
// around collectives of 16-thread tiles, loops with uniform trip counts, and
// collectives before the branch.
__global__ void uniformWithinTiles(float *io, int rounds) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  auto half = cg::tiled_partition<16>(block);
  float v = io[threadIdx.x];
  if (warp.meta_group_rank() == 0)
    v = cg::reduce(warp, v, cg::plus<float>());
  if (threadIdx.x / 32 == 1) {
    v += warp.shfl_down(v, 1);
    warp.sync();
  }
  if (warp.thread_rank() < 16)
    v += cg::reduce(half, v, cg::plus<float>());
  if (half.meta_group_rank() % 2 == 1)
    half.sync();
  if (blockIdx.x == 0 || rounds > 2)
    v = cg::inclusive_scan(warp, v);
  for (int r = 0; r < rounds; ++r)
    v += warp.shfl_xor(v, r & 31);
  const float total = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0)
    io[blockIdx.x * blockDim.x / 32 + warp.meta_group_rank()] = total;
}
