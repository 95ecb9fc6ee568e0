// cuda-divergent-barrier, tile-scope collective. COMPLIANT; twin of
// barrier_tile.cu.
//
// The one change: all 32 lanes of the tile call cg::reduce; only keeping the
// result stays under `if (Lane < 16)`.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void halfTileSums(const float *In, float *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const int Lane = Tile.thread_rank();
  const float V = In[I];
  float Sum = 0.0f;
  const float TileSum = cg::reduce(Tile, V, cg::plus<float>());
  if (Lane < 16)
    Sum = TileSum;
  Out[I] = Sum;
}

int main() {
  const int Blocks = 2, Threads = 128, Total = Blocks * Threads;
  std::vector<float> In(Total), Out(Total);
  for (int I = 0; I < Total; ++I)
    In[I] = static_cast<float>(1 + I % 13);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Total * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(float),
                      cudaMemcpyHostToDevice));
  halfTileSums<<<Blocks, Threads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Total * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int W = 0; W < Total / 32; ++W) {
    double TileSum = 0;
    for (int L = 0; L < 32; ++L)
      TileSum += In[W * 32 + L];
    for (int L = 0; L < 32; ++L)
      Wrong += Out[W * 32 + L] != (L < 16 ? TileSum : 0.0);
    if (W == 0)
      rv::detail("tile 0: lane 0 holds %g, CPU reference %g", Out[0],
                 TileSum);
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, Total);
  rv::finish(Wrong == 0);
}
