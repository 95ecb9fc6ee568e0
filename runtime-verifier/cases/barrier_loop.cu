// cuda-divergent-barrier, varying loop trip count. VIOLATING; twin:
// barrier_loop_ok.cu.
//
// A grid-stride loop stages a tile per iteration and reads the neighbour's
// element from it. When N is not a multiple of the grid's thread count, the
// threads whose index runs past N leave the loop one iteration early and skip
// that iteration's barriers. On Hopper that passes silently when they exit, so
// the kernel ends with rv::checkInAndWait: the threads that left the loop wait
// for the threads still inside it, and the block hangs.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void neighbourSums(const float *In, float *Out, int N,
                              unsigned *CheckIns) {
  __shared__ float Tile[kThreads];
  const int T = threadIdx.x;
  for (int I = blockIdx.x * blockDim.x + T; I < N;
       I += gridDim.x * blockDim.x) {
    Tile[T] = In[I];
    __syncthreads(); // FLAGGED(cuda-divergent-barrier)
    Out[I] = Tile[T] + Tile[(T + 1) % kThreads];
    __syncthreads(); // FLAGGED(cuda-divergent-barrier)
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
