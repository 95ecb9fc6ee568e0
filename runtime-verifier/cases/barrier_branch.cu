// cuda-divergent-barrier, branch shape. VIOLATING; twin: barrier_branch_ok.cu.
//
// Each block stages its first N inputs in shared memory, and each staged thread
// writes its element plus its right neighbour. The barrier sits inside
// `if (T < N)`, so threads T >= N never reach it. On Hopper that alone passes
// silently (those threads exit, and exited threads count as arrived), so the
// kernel ends with rv::checkInAndWait: the threads that skipped the barrier wait
// for the threads inside it, and the block hangs.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void neighbourSums(const float *In, float *Out, int N,
                              unsigned *CheckIns) {
  __shared__ float Stage[kThreads];
  const int T = threadIdx.x;
  const float *Mine = In + blockIdx.x * N;
  if (T < N) {
    Stage[T] = Mine[T];
    __syncthreads(); // FLAGGED(cuda-divergent-barrier)
    Out[blockIdx.x * N + T] = Stage[T] + Stage[(T + 1) % N];
  }
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
