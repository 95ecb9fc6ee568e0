// RUN: %check_cuda_tidy %s cuda-divergent-barrier,cuda-divergent-group-creation %t
// A grid-stride loop over a grid_group, `for (i = grid.thread_rank(); i < n;
// i += grid.size())`, gives every lane of a warp the same trip count when
// blocks are whole warps wide and n is a multiple of 32: then a warp's ranks
// are 32 consecutive numbers starting at a multiple of 32, and so is the
// stride. The block size here comes from the occupancy calculator, which
// tries sizes in steps of the warp size (cuda_runtime.h), so a partition of
// the warp tile and a tile sync inside the loop are fine. Each thing that
// breaks the argument is found: an n of unknown factor, an occupancy limit
// that is not a multiple of 32, a __launch_bounds__ maximum that is not, and
// a block size the host changes after the call.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void countAligned(const int *in, int *odd, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) {
    auto half = cg::binary_partition(warp, in[i] & 1);
    if (half.thread_rank() == 0)
      atomicAdd(odd, 1);
    cg::sync(warp);
  }
}

__global__ void countAnyLength(const int *in, int *odd, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) {
    auto half = cg::binary_partition(warp, in[i] & 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'binary_partition' partitions thread_block_tile<32> 'warp' under control flow that diverges within the warp (loop trip count); every thread of the parent group must reach it [cuda-divergent-group-creation]
    if (half.thread_rank() == 0)
      atomicAdd(odd, 1);
    cg::sync(warp);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(thread_block_tile<32>)' is reached under control flow that diverges within the warp (loop trip count) [cuda-divergent-barrier]
  }
}

__global__ void countLimited(const int *in, int *odd, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) {
    cg::sync(warp);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(thread_block_tile<32>)' is reached under control flow that diverges within the warp (loop trip count) [cuda-divergent-barrier]
  }
}

__global__ void __launch_bounds__(100) countBounded(const int *in, int *odd, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) {
    cg::sync(warp);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(thread_block_tile<32>)' is reached under control flow that diverges within the warp (loop trip count) [cuda-divergent-barrier]
  }
}

__global__ void countResized(const int *in, int *odd, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) {
    cg::sync(warp);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(thread_block_tile<32>)' is reached under control flow that diverges within the warp (loop trip count) [cuda-divergent-barrier]
  }
}

void count(const int *in, int *odd, unsigned anyLength, cudaStream_t stream) {
  unsigned length = 1024 * 100;
  int blocks = 0;
  int threads = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, countAligned, 0, 0);
  countAligned<<<blocks, threads, 0, stream>>>(in, odd, length);

  int anyBlocks = 0;
  int anyThreads = 0;
  cudaOccupancyMaxPotentialBlockSize(&anyBlocks, &anyThreads, countAnyLength);
  countAnyLength<<<anyBlocks, anyThreads, 0, stream>>>(in, odd, anyLength);

  int limitedBlocks = 0;
  int limitedThreads = 0;
  cudaOccupancyMaxPotentialBlockSize(&limitedBlocks, &limitedThreads, countLimited, 0, 100);
  countLimited<<<limitedBlocks, limitedThreads, 0, stream>>>(in, odd, length);

  int boundedBlocks = 0;
  int boundedThreads = 0;
  cudaOccupancyMaxPotentialBlockSize(&boundedBlocks, &boundedThreads, countBounded, 0, 0);
  countBounded<<<boundedBlocks, boundedThreads, 0, stream>>>(in, odd, length);

  int resizedBlocks = 0;
  int resizedThreads = 0;
  cudaOccupancyMaxPotentialBlockSize(&resizedBlocks, &resizedThreads, countResized, 0, 0);
  resizedThreads -= 1;
  countResized<<<resizedBlocks, resizedThreads, 0, stream>>>(in, odd, length);
}
