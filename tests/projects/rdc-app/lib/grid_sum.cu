#include "reduce.cuh"

// Needs a cooperative launch: it synchronizes the whole grid.
__global__ void gridSum(const float *in, float *partial, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  float v = 0.0f;
  for (int i = grid.thread_rank(); i < n; i += grid.size())
    v += in[i];
  v = blockReduce(block, v);
  if (block.thread_rank() == 0)
    partial[blockIdx.x] = v;
  grid.sync();
  if (grid.thread_rank() == 0) {
    float total = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    *out = total;
  }
}
