// cuda-shared-memory-race, neighbour read after own write. VIOLATING; twin:
// race_stencil_ok.cu.
//
// Each thread stages its element in a shared tile and reads its left
// neighbour's from it, with no barrier between the store and the load: a
// thread of one warp can read the slot before the thread of the warp to its
// left has written it. rv::poisonAllSharedMemory fills shared memory with NaN
// first, so a slot read too early shows as NaN against the CPU reference.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void shiftRight(const float *In, float *Out) {
  __shared__ float Tile[kThreads];
  const int T = threadIdx.x;
  const int I = blockIdx.x * kThreads + T;
  Tile[T] = In[I];
  float Left = 0.0f;
  if (T > 0)
    Left = Tile[T - 1]; // FLAGGED(cuda-shared-memory-race)
  Out[I] = Left;
}

int main() {
  const int Blocks = 512, N = Blocks * kThreads;
  std::vector<float> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 13 + 1);
  rv::poisonAllSharedMemory();
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, N * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  shiftRight<<<Blocks, kThreads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int I = 0; I < N; ++I) {
    double Ref = I % kThreads == 0 ? 0.0 : double(In[I - 1]);
    Wrong += Out[I] != Ref;
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, N);
  rv::finish(Wrong == 0);
}
