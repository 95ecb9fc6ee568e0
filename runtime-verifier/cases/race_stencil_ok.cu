// cuda-shared-memory-race, neighbour read after own write. COMPLIANT; twin:
// race_stencil.cu.
//
// The same stencil with the barrier between the store and the load: every
// slot is written before any thread reads its neighbour's.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void shiftRight(const float *In, float *Out) {
  __shared__ float Tile[kThreads];
  const int T = threadIdx.x;
  const int I = blockIdx.x * kThreads + T;
  Tile[T] = In[I];
  __syncthreads();
  float Left = 0.0f;
  if (T > 0)
    Left = Tile[T - 1];
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
