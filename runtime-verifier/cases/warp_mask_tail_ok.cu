// cuda-full-warp-mask, warp reduction under a bounds check. COMPLIANT; twin of
// warp_mask_tail.cu.
//
// The one change: the bounds check moves onto the load (lanes past N take
// INT_MAX, which leaves a minimum unchanged) and the store, so all 32 lanes
// run the shuffles, through the tile rather than with a hand-written mask.
#include "rv.cuh"
#include <climits>
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void warpMins(const int *In, int *Out, int N) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  int V = I < N ? In[I] : INT_MAX;
  for (int Offset = 16; Offset > 0; Offset /= 2)
    V = min(V, Tile.shfl_down(V, Offset));
  if (I < N && Tile.thread_rank() == 0)
    Out[I / 32] = V;
}

int main() {
  const int Threads = 128, N = 1000, Blocks = (N + Threads - 1) / Threads;
  const int Warps = (N + 31) / 32;
  std::vector<int> In(N), Out(Warps);
  for (int I = 0; I < N; ++I)
    In[I] = 1 + (I * 7) % 50;
  int *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(int)));
  RV_CHECK(cudaMalloc(&DOut, Warps * sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(int),
                      cudaMemcpyHostToDevice));
  warpMins<<<Blocks, Threads>>>(DIn, DOut, N);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Warps * sizeof(int),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int W = 0; W < Warps; ++W) {
    int Ref = INT_MAX;
    for (int I = W * 32; I < N && I < (W + 1) * 32; ++I)
      Ref = In[I] < Ref ? In[I] : Ref;
    if (Out[W] != Ref) {
      ++Wrong;
      rv::detail("warp %d: GPU %d, CPU reference %d", W, Out[W], Ref);
    }
  }
  rv::detail("%d of %d warp minima differ from the CPU reference", Wrong,
             Warps);
  rv::finish(Wrong == 0);
}
