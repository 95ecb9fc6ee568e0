// cuda-cluster-exit-sync, a block reads its peer's shared memory after the
// peer may have exited. VIOLATING; twin: cluster_exit_ok.cu.
//
// Clusters of 2 blocks: each block fills its shared slots, the cluster syncs,
// and each block reads the slots of the other through map_shared_rank. Block
// rank 0 waits a while first (a clock spin the compiler cannot drop); nothing
// keeps block rank 1, which reads at once, from exiting before rank 0's read,
// and the shared memory of an exited block is gone. The race is timing
// dependent, so the case tries several grid sizes and spin lengths and
// reports the first launch error or wrong value it sees.
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
  const int Value = Peer[threadIdx.x]; // FLAGGED(cuda-cluster-exit-sync)
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
