// cuda-full-warp-mask, shuffle under a lane-divergent branch. COMPLIANT; twin
// of warp_mask_half.cu.
//
// The one change: the shuffle runs on all 32 lanes, through the tile (which
// carries its own membership, so no hand-written mask), before the branch;
// only the use of its result stays under `if (Lane < 16)`. (Hoisting the
// 0xffffffff shuffle alone would also be right at run time, but
// cuda-full-warp-mask still reports a hardcoded full mask outside divergent
// code, with its "assumes the whole warp is converged" message.)
#include "rv.cuh"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void pairSums(const int *In, int *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const int Lane = Tile.thread_rank();
  int V = In[I];
  const int Up = Tile.shfl_down(V, 1);
  if (Lane < 16)
    V += Up;
  Out[I] = V;
}

int main() {
  const int Blocks = 2, Threads = 64, Total = Blocks * Threads;
  std::vector<int> In(Total), Out(Total);
  for (int I = 0; I < Total; ++I)
    In[I] = 100 + I;
  int *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(int)));
  RV_CHECK(cudaMalloc(&DOut, Total * sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(int),
                      cudaMemcpyHostToDevice));
  pairSums<<<Blocks, Threads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Total * sizeof(int),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int I = 0; I < Total; ++I) {
    int Lane = I % 32;
    long Ref = Lane < 16 ? long(In[I]) + In[I + 1] : In[I];
    if (Out[I] != Ref) {
      if (Wrong < 4)
        rv::detail("lane %d of warp %d: GPU %d, CPU reference %ld", Lane,
                   I / 32, Out[I], Ref);
      ++Wrong;
    }
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, Total);
  rv::finish(Wrong == 0);
}
