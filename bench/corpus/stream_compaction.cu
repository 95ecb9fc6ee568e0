// Stream compaction with warp ballots: each warp counts its survivors, the
// block scans the warp counts, and survivors are written in order.
#include <cuda_runtime.h>

template <int BLOCK_THREADS>
__global__ void compact(const int *In, int N, int *Out, int *OutCount) {
  __shared__ int WarpCounts[BLOCK_THREADS / 32];
  __shared__ int BlockBase;
  int I = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  int Lane = threadIdx.x & 31, Warp = threadIdx.x >> 5;
  bool Keep = I < N && In[I] != 0;
  unsigned Ballot = __ballot_sync(0xffffffffu, Keep);
  if (Lane == 0)
    WarpCounts[Warp] = __popc(Ballot);
  __syncthreads();
  if (threadIdx.x == 0) {
    int Sum = 0;
    for (int W = 0; W < BLOCK_THREADS / 32; ++W) {
      int C = WarpCounts[W];
      WarpCounts[W] = Sum;
      Sum += C;
    }
    BlockBase = atomicAdd(OutCount, Sum);
  }
  __syncthreads();
  if (Keep) {
    int Rank = __popc(Ballot & ((1u << Lane) - 1));
    Out[BlockBase + WarpCounts[Warp] + Rank] = In[I];
  }
}

// The ballot moved under the predicate: only the kept lanes reach it, but
// the mask names all 32.
template <int BLOCK_THREADS>
__global__ void compactBallotInBranch(const int *In, int N, int *Out,
                                      int *OutCount) {
  int I = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  int Lane = threadIdx.x & 31;
  if (I < N && In[I] != 0) {
    unsigned Ballot = __ballot_sync(0xffffffffu, true);
    int Base = 0;
    if (Lane == __ffs(Ballot) - 1)
      Base = atomicAdd(OutCount, __popc(Ballot));
    Base = __shfl_sync(Ballot, Base, __ffs(Ballot) - 1);
    Out[Base + __popc(Ballot & ((1u << Lane) - 1))] = In[I];
  }
}

void compactNonZero(const int *In, int N, int *Out, int *Count) {
  cudaMemset(Count, 0, sizeof(int));
  compact<256><<<(N + 255) / 256, 256>>>(In, N, Out, Count);
  compactBallotInBranch<256><<<(N + 255) / 256, 256>>>(In, N, Out, Count);
}
