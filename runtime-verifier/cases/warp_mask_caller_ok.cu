// cuda-warp-mask-mismatch, a mask that names exactly the calling lanes. COMPLIANT;
// twin: warp_mask_caller.cu.
//
// Lanes 0..16 of each warp write a shared slot, meet at __syncwarp, and read
// the slot of the next lane of the seventeen. The mask 0x0001ffff names
// exactly the seventeen lanes that call it.
#include "rv.cuh"
#include <vector>

constexpr int Threads = 256, Warps = Threads / 32;

__global__ void rotateSeventeen(const int *In, int *Out) {
  __shared__ int Slots[Warps][32];
  const int Warp = threadIdx.x / 32, Lane = threadIdx.x % 32;
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[I];
  if (Lane < 17) {
    Slots[Warp][Lane] = V;
    __syncwarp(0x0001ffff);
    V = Slots[Warp][(Lane + 1) % 17];
  }
  Out[I] = V;
}

int main() {
  const int Blocks = 4, Total = Blocks * Threads;
  std::vector<int> In(Total), Out(Total);
  for (int I = 0; I < Total; ++I)
    In[I] = 1000 + I;
  int *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(int)));
  RV_CHECK(cudaMalloc(&DOut, Total * sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(int),
                      cudaMemcpyHostToDevice));
  rotateSeventeen<<<Blocks, Threads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Total * sizeof(int),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int I = 0; I < Total; ++I) {
    int Lane = I % 32, Base = I - Lane;
    int Ref = Lane < 17 ? In[Base + (Lane + 1) % 17] : In[I];
    if (Out[I] != Ref) {
      if (Wrong < 4)
        rv::detail("lane %d of warp %d: GPU %d, CPU reference %d", Lane,
                   I / 32, Out[I], Ref);
      ++Wrong;
    }
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, Total);
  rv::finish(Wrong == 0);
}
