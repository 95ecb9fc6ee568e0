// Cooperative-groups handles passed around device helpers: by reference as
// they should be, and a few by value.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ void stage(const cg::thread_block &Block, float *Dst,
                      const float *Src, int N) {
  for (int I = Block.thread_rank(); I < N; I += Block.size())
    Dst[I] = Src[I];
  Block.sync();
}

__device__ float lanesum(cg::thread_block_tile<32> Warp, float V) {
  for (int O = Warp.size() / 2; O > 0; O /= 2)
    V += Warp.shfl_down(V, O);
  return V;
}

__device__ void tileBarrier(cg::thread_group Group) { Group.sync(); }

__global__ void useHandles(const float *In, float *Out, int N) {
  __shared__ float Buffer[512];
  cg::thread_block Block = cg::this_thread_block();
  stage(Block, Buffer, In + blockIdx.x * 512, N < 512 ? N : 512);
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  float V = lanesum(Warp, Buffer[Block.thread_rank()]);
  tileBarrier(Warp);
  if (Warp.thread_rank() == 0)
    Out[blockIdx.x * 16 + Warp.meta_group_rank()] = V;
}
