// cuda-divergent-barrier, branch shape. COMPLIANT; twin of barrier_branch.cu.
//
// The one change: the barrier moves out of `if (T < N)`, so every thread of
// the block reaches it; only the shared-memory store and the output stay under
// the bounds check. The same rv::checkInAndWait ending now completes, because
// no thread is left waiting in a barrier.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void neighbourSums(const float *In, float *Out, int N,
                              unsigned *CheckIns) {
  __shared__ float Stage[kThreads];
  const int T = threadIdx.x;
  const float *Mine = In + blockIdx.x * N;
  if (T < N)
    Stage[T] = Mine[T];
  __syncthreads();
  if (T < N)
    Out[blockIdx.x * N + T] = Stage[T] + Stage[(T + 1) % N];
  rv::checkInAndWait(CheckIns);
}

int main() {
  const int Blocks = 4, N = 100;
  std::vector<float> In(Blocks * N), Out(Blocks * N);
  for (int I = 0; I < Blocks * N; ++I)
    In[I] = static_cast<float>(I % 7);
  float *DIn, *DOut;
  unsigned *DCheckIns;
  RV_CHECK(cudaMalloc(&DIn, In.size() * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Out.size() * sizeof(float)));
  RV_CHECK(cudaMalloc(&DCheckIns, Blocks * sizeof(unsigned)));
  RV_CHECK(cudaMemset(DCheckIns, 0, Blocks * sizeof(unsigned)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), In.size() * sizeof(float),
                      cudaMemcpyHostToDevice));
  neighbourSums<<<Blocks, kThreads>>>(DIn, DOut, N, DCheckIns);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Out.size() * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int B = 0; B < Blocks; ++B)
    for (int T = 0; T < N; ++T) {
      double Ref = double(In[B * N + T]) + double(In[B * N + (T + 1) % N]);
      Wrong += Out[B * N + T] != Ref;
    }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong,
             Blocks * N);
  rv::finish(Wrong == 0);
}
