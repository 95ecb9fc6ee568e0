// cuda-divergent-barrier, tile-scope collective. VIOLATING; twin:
// barrier_tile_ok.cu.
//
// Every warp sums its 32 inputs with cg::reduce over a 32-thread tile, and the
// lower half of each tile keeps the sum. The reduce sits under
// `if (Lane < 16)`: a collective over 32 lanes reached by 16 of them. The
// shuffles inside it read the absent lanes, and the sum differs from the CPU
// reference.
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
  if (Lane < 16)
    Sum = cg::reduce(Tile, V, cg::plus<float>()); // FLAGGED(cuda-divergent-barrier)
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
