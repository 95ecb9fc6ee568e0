// cuda-full-warp-mask, shuffle under a lane-divergent branch. VIOLATING; twin:
// warp_mask_half_ok.cu.
//
// Lanes 0..15 add the value of the next lane. The mask 0xffffffff names all 32
// lanes, but only lanes 0..15 execute the shuffle: lane 15 reads lane 16, which
// skipped the branch, and its pair sum differs from the CPU reference.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <vector>
namespace cg = cooperative_groups;

__global__ void pairSums(const int *In, int *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const int Lane = Tile.thread_rank();
  int V = In[I];
  if (Lane < 16)
    V += __shfl_down_sync(0xffffffff, V, 1); // FLAGGED(cuda-full-warp-mask)
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
