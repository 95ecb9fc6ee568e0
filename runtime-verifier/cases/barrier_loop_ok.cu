// cuda-divergent-barrier, varying loop trip count. COMPLIANT; twin of
// barrier_loop.cu.
//
// The one change: the loop runs over tile bases, which are the same for the
// whole block, so every thread makes the same number of iterations and reaches
// every barrier; the bounds check moves onto the load and the store (a thread
// past N stages 0). The same rv::checkInAndWait ending completes.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void neighbourSums(const float *In, float *Out, int N,
                              unsigned *CheckIns) {
  __shared__ float Tile[kThreads];
  const int T = threadIdx.x;
  for (int Base = blockIdx.x * blockDim.x; Base < N;
       Base += gridDim.x * blockDim.x) {
    const int I = Base + T;
    Tile[T] = I < N ? In[I] : 0.0f;
    __syncthreads();
    if (I < N)
      Out[I] = Tile[T] + Tile[(T + 1) % kThreads];
    __syncthreads();
  }
  rv::checkInAndWait(CheckIns);
}

int main() {
  const int Blocks = 4, N = 3 * Blocks * kThreads - 100;
  std::vector<float> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 9);
  float *DIn, *DOut;
  unsigned *DCheckIns;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DCheckIns, Blocks * sizeof(unsigned)));
  RV_CHECK(cudaMemset(DCheckIns, 0, Blocks * sizeof(unsigned)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  neighbourSums<<<Blocks, kThreads>>>(DIn, DOut, N, DCheckIns);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(float),
                      cudaMemcpyDeviceToHost));
  // Reference: the neighbour within the same tile of kThreads elements; a
  // neighbour past N counts as 0.
  int Wrong = 0;
  for (int I = 0; I < N; ++I) {
    int Next = I - I % kThreads + (I % kThreads + 1) % kThreads;
    double Ref = double(In[I]) + (Next < N ? double(In[Next]) : 0.0);
    Wrong += Out[I] != Ref;
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, N);
  rv::finish(Wrong == 0);
}
