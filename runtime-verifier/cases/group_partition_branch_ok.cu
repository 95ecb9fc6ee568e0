// cuda-divergent-group-creation, partition made under a divergent branch.
// COMPLIANT; twin of group_partition_branch.cu.
//
// The one change: the block is partitioned before the branch, by every thread.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void activeWarpSums(const float *In, float *Out, int ActiveWarps) {
  auto Block = cg::this_thread_block();
  const int Warp = threadIdx.x / 32;
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  auto Tile = cg::tiled_partition<32>(Block);
  if (Warp < ActiveWarps) {
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
