// cuda-implicit-warp-sync, the "last warp unrolled" reduction over volatile
// shared memory, with its __syncwarp()s. COMPLIANT; twin:
// warp_reduce_volatile.cu.
//
// The block sums its 64 values in shared memory down to one warp, then the
// first warp finishes in a device function called under `if (Tid < 32)`,
// each step in the register form NVIDIA's guidance gives: read both values,
// __syncwarp(), store, __syncwarp(), so that no lane reads a slot before the
// lane that owns it has stored it, nor stores before the others have read. rv::poisonAllSharedMemory fills shared memory
// with NaN first.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 64;

__device__ void warpReduce(volatile float *Sums, int Tid) {
  float Value = Sums[Tid] + Sums[Tid + 32];
  __syncwarp();
  Sums[Tid] = Value;
  __syncwarp();
  for (int Offset = 16; Offset > 0; Offset /= 2) {
    Value += Sums[Tid + Offset];
    __syncwarp();
    Sums[Tid] = Value;
    __syncwarp();
  }
}

__global__ void blockSum(const float *In, float *Out) {
  __shared__ float Sums[kThreads];
  const int Tid = threadIdx.x;
  Sums[Tid] = In[blockIdx.x * kThreads + Tid];
  __syncthreads();
  if (Tid < 32)
    warpReduce(Sums, Tid);
  if (Tid == 0)
    Out[blockIdx.x] = Sums[0];
}

int main() {
  const int Blocks = 4096, N = Blocks * kThreads;
  std::vector<float> In(N), Out(Blocks);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 7 + 1);
  rv::poisonAllSharedMemory();
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Blocks * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  blockSum<<<Blocks, kThreads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Blocks * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int B = 0; B < Blocks; ++B) {
    double Ref = 0;
    for (int T = 0; T < kThreads; ++T)
      Ref += In[B * kThreads + T];
    Wrong += Out[B] != Ref;
  }
  rv::detail("%d of %d block sums differ from the CPU reference", Wrong,
             Blocks);
  rv::finish(Wrong == 0);
}
