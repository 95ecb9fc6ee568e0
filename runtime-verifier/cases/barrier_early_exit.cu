// cuda-divergent-barrier, early-exit shape. VIOLATING; twin:
// barrier_early_exit_ok.cu.
//
// Block sums by a shared-memory tree reduction. Threads past the end of the
// input leave with `if (I >= N) return;` before the barriers. Hopper counts
// the exited threads as arrived, so nothing hangs, but their shared slots are
// never written and the tree reads them anyway. The harness first fills every
// SM's shared memory with NaN (shared memory is not cleared between kernels),
// so the last block's sum comes out NaN instead of a lucky zero-padded sum.
#include "rv.cuh"
#include <cmath>
#include <vector>

constexpr int kThreads = 256;

__global__ void blockSums(const float *In, float *Out, int N) {
  __shared__ float Partial[kThreads];
  const int T = threadIdx.x;
  const int I = blockIdx.x * blockDim.x + T;
  if (I >= N)
    return;
  Partial[T] = In[I];
  __syncthreads(); // FLAGGED(cuda-divergent-barrier)
  for (int S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Partial[T] += Partial[T + S];
    __syncthreads(); // FLAGGED(cuda-divergent-barrier)
  }
  if (T == 0)
    Out[blockIdx.x] = Partial[0];
}

int main() {
  const int N = 1000, Blocks = (N + kThreads - 1) / kThreads;
  std::vector<float> In(N), Out(Blocks);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 5);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Blocks * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  rv::poisonAllSharedMemory();
  RV_CHECK(cudaFuncSetAttribute(
      blockSums, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  blockSums<<<Blocks, kThreads>>>(DIn, DOut, N);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Blocks * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int B = 0; B < Blocks; ++B) {
    double Ref = 0;
    for (int I = B * kThreads; I < N && I < (B + 1) * kThreads; ++I)
      Ref += In[I];
    if (Out[B] != Ref) {
      ++Wrong;
      rv::detail("block %d: GPU %g, CPU reference %g", B, Out[B], Ref);
    }
  }
  rv::detail("%d of %d block sums differ from the CPU reference", Wrong,
             Blocks);
  rv::finish(Wrong == 0);
}
