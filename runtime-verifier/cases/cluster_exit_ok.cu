// cuda-cluster-exit-sync, a block reads its peer's shared memory after the
// peer may have exited. COMPLIANT; twin: cluster_exit.cu.
//
// The same exchange with a cluster.sync() after the peer read: no block of
// the cluster exits before both have read, so the peer's shared memory is
// still there when it is read. The same grid sizes and spins as the twin.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kThreads = 256;

__global__ void __cluster_dims__(2, 1, 1)
    swapWithPeer(const int *In, int *Out, long long Spin) {
  __shared__ int Slots[kThreads];
  cg::cluster_group Cluster = cg::this_cluster();
  const unsigned Rank = Cluster.block_rank();
  const int I = blockIdx.x * kThreads + threadIdx.x;
  Slots[threadIdx.x] = In[I];
  Cluster.sync();
  const int *Peer = Cluster.map_shared_rank(Slots, Rank ^ 1u);
  if (Rank == 0) {
    const long long Start = clock64();
    while (clock64() - Start < Spin) {
    }
  }
  const int Value = Peer[threadIdx.x];
  Cluster.sync();
  Out[I] = Value;
}

int main() {
  const int GridSizes[] = {2, 264, 2112};
  const long long Spins[] = {0, 20000, 2000000};
  const int MaxN = 2112 * kThreads;
  std::vector<int> In(MaxN), Out(MaxN);
  for (int I = 0; I < MaxN; ++I)
    In[I] = I * 3 + 1;
  int *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, MaxN * sizeof(int)));
  RV_CHECK(cudaMalloc(&DOut, MaxN * sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), MaxN * sizeof(int),
                      cudaMemcpyHostToDevice));
  int Wrong = 0, Launches = 0;
  for (int Blocks : GridSizes)
    for (long long Spin : Spins) {
      const int N = Blocks * kThreads;
      RV_CHECK(cudaMemset(DOut, 0xff, N * sizeof(int)));
      rv::detail("launch %d: %d blocks, spin %lld", Launches + 1, Blocks,
                 Spin);
      swapWithPeer<<<Blocks, kThreads>>>(DIn, DOut, Spin);
      RV_SYNC();
      ++Launches;
      RV_CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(int),
                          cudaMemcpyDeviceToHost));
      int Bad = 0;
      for (int B = 0; B < Blocks; ++B)
        for (int T = 0; T < kThreads; ++T)
          Bad += Out[B * kThreads + T] != In[(B ^ 1) * kThreads + T];
      if (Bad)
        rv::detail("%d blocks, spin %lld: %d of %d outputs wrong", Blocks,
                   Spin, Bad, N);
      Wrong += Bad;
    }
  rv::detail("%d launches (grids of 2, 264 and 2112 blocks; spins of 0, 2e4 "
             "and 2e6 cycles): %d wrong outputs in all",
             Launches, Wrong);
  rv::finish(Wrong == 0);
}
