// cuda-full-warp-mask, warp reduction under a bounds check. VIOLATING; twin:
// warp_mask_tail_ok.cu.
//
// The textbook warp-shuffle reduction (here a minimum), placed inside
// `if (I < N)`. When N is not a multiple of 32 the last warp is partial: its
// lanes past N never enter the branch, yet the mask 0xffffffff names them and
// the shuffles read them. On an H200 a lane that is not executing the shuffle
// reads as 0 (see warp_mask_half.cu), which a sum would hide by luck; the
// minimum of values >= 1 comes out 0 and differs from the CPU reference.
#include "rv.cuh"
#include <climits>
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void warpMins(const int *In, int *Out, int N) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    int V = In[I];
    for (int Offset = 16; Offset > 0; Offset /= 2)
      V = min(V, __shfl_down_sync(0xffffffff, V, Offset)); // FLAGGED(cuda-full-warp-mask)
    if (Tile.thread_rank() == 0)
      Out[I / 32] = V;
  }
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
