// cuda-divergent-group-creation, partition made under a divergent branch.
// VIOLATING; twin: group_partition_branch_ok.cu.
//
// Only the first ActiveWarps warps of each block have work. The branch is the
// same for all lanes of a warp but differs across the block, and the block is
// partitioned into warp tiles inside it: partitioning is a collective of the
// parent group (here the block), which the Guide says every thread of the
// parent must reach. The collective that follows (cg::reduce over the tile)
// is fine: the whole tile is present. On an H200 a static
// tiled_partition<32> of a thread_block compiles to lane arithmetic, so
// nothing goes wrong at run time; the runner records the machine code of both
// twins (cuobjdump) instead.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void activeWarpSums(const float *In, float *Out, int ActiveWarps) {
  auto Block = cg::this_thread_block();
  const int Warp = threadIdx.x / 32;
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (Warp < ActiveWarps) {
    auto Tile = cg::tiled_partition<32>(Block); // FLAGGED(cuda-divergent-group-creation)
    const float S = cg::reduce(Tile, In[I], cg::plus<float>());
    if (Tile.thread_rank() == 0)
      Out[blockIdx.x * ActiveWarps + Warp] = S;
  }
}

int main() {
  const int Blocks = 4, Threads = 256, ActiveWarps = 5;
  const int Total = Blocks * Threads;
  std::vector<float> In(Total), Out(Blocks * ActiveWarps);
  for (int I = 0; I < Total; ++I)
    In[I] = static_cast<float>(I % 6);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Out.size() * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(float),
                      cudaMemcpyHostToDevice));
  activeWarpSums<<<Blocks, Threads>>>(DIn, DOut, ActiveWarps);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Out.size() * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int W = 0; W < ActiveWarps; ++W) {
      double Ref = 0;
      for (int L = 0; L < 32; ++L)
        Ref += In[B * Threads + W * 32 + L];
      Wrong += Out[B * ActiveWarps + W] != Ref;
    }
  rv::detail("%d of %zu warp sums differ from the CPU reference", Wrong,
             Out.size());
  rv::finish(Wrong == 0);
}
