// A block reduction written with cooperative groups. The helper takes its
// tile by value, which the CUDA Programming Guide asks us not to do
// (cuda-group-by-value); cuda-tidy --fix rewrites it to a const reference.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float warpSum(cg::thread_block_tile<32> warp, float v) {
  return cg::reduce(warp, v, cg::plus<float>());
}

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warpSum(warp, v);
  if (warp.thread_rank() == 0)
    partial[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
    v = warpSum(warp, v);
    if (warp.thread_rank() == 0)
      out[blockIdx.x] = v;
  }
}
