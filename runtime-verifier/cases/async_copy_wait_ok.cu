// cuda-memcpy-async-wait, a read of the copy's destination after cg::wait.
// COMPLIANT; twin: async_copy_wait.cu.
//
// The same sampling with cg::wait before the read: the wait completes the
// whole block's copy (it ends with a block barrier), so every slot holds the
// copied value, also those another thread's part of the copy delivered.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kThreads = 256;
constexpr int kTile = 2048;

__global__ void sampleTile(const float *In, float *Out) {
  __shared__ float Tile[kTile];
  cg::thread_block Block = cg::this_thread_block();
  for (int K = threadIdx.x; K < kTile; K += kThreads)
    Tile[K] = -1.0f;
  Block.sync();
  cg::memcpy_async(Block, Tile, In + blockIdx.x * kTile, sizeof(float) * kTile);
  cg::wait(Block);
  const float Sample = Tile[(threadIdx.x * 7 + 1000) % kTile];
  Out[blockIdx.x * kThreads + threadIdx.x] = Sample;
}

int main() {
  const int Blocks = 264, N = Blocks * kTile, M = Blocks * kThreads;
  std::vector<float> In(N), Out(M);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 1000);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, M * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  int Worst = 0;
  for (int Run = 0; Run < 20; ++Run) {
    sampleTile<<<Blocks, kThreads>>>(DIn, DOut);
    RV_SYNC();
    RV_CHECK(cudaMemcpy(Out.data(), DOut, M * sizeof(float),
                        cudaMemcpyDeviceToHost));
    int Wrong = 0;
    for (int B = 0; B < Blocks; ++B)
      for (int T = 0; T < kThreads; ++T)
        Wrong += Out[B * kThreads + T] !=
                 In[B * kTile + (T * 7 + 1000) % kTile];
    Worst = Wrong > Worst ? Wrong : Worst;
  }
  rv::detail("worst of 20 runs: %d of %d reads saw a slot the copy had not "
             "delivered yet", Worst, M);
  rv::finish(Worst == 0);
}
