// cuda-divergent-barrier, barrier reached through a call. COMPLIANT; twin of
// barrier_call.cu.
//
// The one change: every thread calls rightNeighbour(); only the use of its
// result stays under `if (T < N)`. The rv::checkInAndWait ending completes.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

// Returns the value that the next thread of the block passed in.
__device__ float rightNeighbour(float *Stage, float V) {
  Stage[threadIdx.x] = V;
  __syncthreads();
  return Stage[(threadIdx.x + 1) % blockDim.x];
}

__global__ void neighbourSums(const float *In, float *Out, int N,
                              unsigned *CheckIns) {
  __shared__ float Stage[kThreads];
  const int T = threadIdx.x;
  float V = In[blockIdx.x * blockDim.x + T];
  const float Next = rightNeighbour(Stage, V);
  if (T < N)
    V += Next;
  Out[blockIdx.x * blockDim.x + T] = V;
  rv::checkInAndWait(CheckIns);
}

int main() {
  const int Blocks = 4, N = 100, Total = Blocks * kThreads;
  std::vector<float> In(Total), Out(Total);
  for (int I = 0; I < Total; ++I)
    In[I] = static_cast<float>(I % 7);
  float *DIn, *DOut;
  unsigned *DCheckIns;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DCheckIns, Blocks * sizeof(unsigned)));
  RV_CHECK(cudaMemset(DCheckIns, 0, Blocks * sizeof(unsigned)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(float),
                      cudaMemcpyHostToDevice));
  neighbourSums<<<Blocks, kThreads>>>(DIn, DOut, N, DCheckIns);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Total * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int I = 0; I < Total; ++I) {
    int T = I % kThreads, Next = I - T + (T + 1) % kThreads;
    double Ref = T < N ? double(In[I]) + double(In[Next]) : double(In[I]);
    Wrong += Out[I] != Ref;
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, Total);
  rv::finish(Wrong == 0);
}
