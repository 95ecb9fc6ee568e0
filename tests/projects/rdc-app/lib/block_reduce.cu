#include "reduce.cuh"
#include <cooperative_groups/reduce.h>

// Takes the tile by value: cuda-group-by-value.
__device__ float tileSum(cg::thread_block_tile<32> tile, float v) {
  return cg::reduce(tile, v, cg::plus<float>());
}

__device__ float blockReduce(const cg::thread_block &block, float v) {
  __shared__ float warpSums[32];
  auto tile = cg::tiled_partition<32>(block);
  v = tileSum(tile, v);
  if (tile.thread_rank() == 0)
    warpSums[tile.meta_group_rank()] = v;
  block.sync();
  v = block.thread_rank() < tile.meta_group_size() ? warpSums[block.thread_rank()] : 0.0f;
  if (tile.meta_group_rank() == 0)
    v = tileSum(tile, v);
  return v;
}
