// cuda-missing-fence, the last-block reduction without its fences. VIOLATING;
// twin: fence_last_block_ok.cu.
//
// Every block sums its 256 inputs, thread 0 stores the block's partial sum
// and takes a ticket with atomicInc; the block that draws the last ticket
// sums every partial (the shape of NVIDIA's threadFenceReduction sample and
// of the Programming Guide's memory-fence example), here with no
// __threadfence() between the partial's store and the ticket, and none
// between the branch on the ticket and the reads of the partials. Under the
// PTX memory model nothing then orders another block's partial before its
// ticket, nor keeps the last block from reading a stale copy: the partials
// are 0xffffffff (the counter 0) before each launch; with Warm every block
// first reads them (its SM's L1 may keep the old values for the last block's
// second read). 300 launches over three grid sizes, with and without the
// warm-up; any wrong total is reported.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__device__ unsigned Count = 0;

__global__ void lastBlockSum(const unsigned *In, unsigned *Partial,
                             unsigned *Out, int Warm) {
  __shared__ unsigned Sums[kThreads];
  __shared__ bool AmLast;
  const unsigned T = threadIdx.x;
  unsigned Seen = 0;
  if (Warm)
    for (unsigned I = T; I < gridDim.x; I += kThreads)
      Seen += Partial[I];
  Sums[T] = In[blockIdx.x * kThreads + T];
  __syncthreads();
  for (unsigned S = kThreads / 2; S > 0; S >>= 1) {
    if (T < S)
      Sums[T] += Sums[T + S];
    __syncthreads();
  }
  if (T == 0) {
    Partial[blockIdx.x] = Sums[0];
    const unsigned Ticket = atomicInc(&Count, gridDim.x); // FLAGGED(cuda-missing-fence)
    AmLast = (Ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (AmLast && T == 0) {
    unsigned Total = 0;
    for (unsigned I = 0; I < gridDim.x; ++I)
      Total += Partial[I]; // FLAGGED(cuda-missing-fence)
    Out[0] = Total;
  }
  if (Seen == 0x9e3779b9u)
    Out[1] = Seen; // keeps the warm-up loads
}

int main() {
  const int Grids[] = {132, 1056, 4224};
  const int Reps = 50;
  const int MaxBlocks = 4224, N = MaxBlocks * kThreads;
  std::vector<unsigned> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<unsigned>(I % 7 + 1);
  unsigned *DIn, *DPartial, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(unsigned)));
  RV_CHECK(cudaMalloc(&DPartial, MaxBlocks * sizeof(unsigned)));
  RV_CHECK(cudaMalloc(&DOut, 2 * sizeof(unsigned)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(unsigned),
                      cudaMemcpyHostToDevice));
  int Wrong = 0, Launches = 0, FirstWrongShown = 0;
  for (int Blocks : Grids) {
    unsigned long long Ref = 0;
    for (int I = 0; I < Blocks * kThreads; ++I)
      Ref += In[I];
    for (int Warm = 0; Warm < 2; ++Warm) {
      int WrongHere = 0;
      for (int R = 0; R < Reps; ++R) {
        const unsigned Zero = 0;
        RV_CHECK(cudaMemcpyToSymbol(Count, &Zero, sizeof(Zero)));
        RV_CHECK(cudaMemset(DPartial, 0xff, MaxBlocks * sizeof(unsigned)));
        RV_CHECK(cudaMemset(DOut, 0, 2 * sizeof(unsigned)));
        lastBlockSum<<<Blocks, kThreads>>>(DIn, DPartial, DOut, Warm);
        RV_SYNC();
        ++Launches;
        unsigned Got = 0;
        RV_CHECK(cudaMemcpy(&Got, DOut, sizeof(unsigned),
                            cudaMemcpyDeviceToHost));
        if (Got != static_cast<unsigned>(Ref)) {
          ++WrongHere;
          if (!FirstWrongShown++)
            rv::detail("%d blocks, warm-up %d, launch %d: GPU total %u, CPU "
                       "reference %u",
                       Blocks, Warm, R + 1, Got, static_cast<unsigned>(Ref));
        }
      }
      rv::detail("%d blocks, warm-up %d: %d of %d totals wrong", Blocks, Warm,
                 WrongHere, Reps);
      Wrong += WrongHere;
    }
  }
  rv::detail("%d launches: %d totals differ from the CPU reference", Launches,
             Wrong);
  rv::finish(Wrong == 0);
}
