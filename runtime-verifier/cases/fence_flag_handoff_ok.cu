// cuda-missing-fence, a flag hand-off between two blocks with its fences.
// COMPLIANT; twin: fence_flag_handoff.cu.
//
// The same pairs and rounds as the twin, with __threadfence() between the
// producer's data stores (ordered before thread 0 by __syncthreads()) and
// its flag, and __threadfence() after the consumer's spin, before the
// __syncthreads() that releases its other threads to read.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;
constexpr int kWords = 4096;

__global__ void handOff(unsigned *Data, volatile unsigned *Flags,
                        unsigned *Out, unsigned Round, unsigned *GaveUp) {
  const unsigned T = threadIdx.x;
  const unsigned Pair = blockIdx.x / 2;
  unsigned *Mine = Data + Pair * kWords;
  if (blockIdx.x % 2 == 0) {
    for (unsigned I = T; I < kWords; I += kThreads)
      Mine[I] = Round * 1000003u + Pair * kWords + I;
    __syncthreads();
    if (T == 0) {
      __threadfence();
      Flags[Pair] = Round;
    }
  } else {
    unsigned Seen = 0;
    for (unsigned I = T; I < kWords; I += kThreads)
      Seen += Mine[I];
    if (T == 0) {
      const long long Start = clock64();
      while (Flags[Pair] != Round && clock64() - Start < 2000000000ll) {
      }
      if (Flags[Pair] != Round)
        atomicAdd(GaveUp, 1u);
      __threadfence();
    }
    __syncthreads();
    for (unsigned I = T; I < kWords; I += kThreads)
      Out[Pair * kWords + I] = Mine[I];
    if (Seen == 0x9e3779b9u)
      Out[Pair * kWords] = Seen; // keeps the first reads
  }
}

int main() {
  const int Blocks = 264, Pairs = Blocks / 2, Rounds = 100;
  const int N = Pairs * kWords;
  std::vector<unsigned> Out(N);
  unsigned *DData, *DFlags, *DOut, *DGaveUp;
  RV_CHECK(cudaMalloc(&DData, N * sizeof(unsigned)));
  RV_CHECK(cudaMalloc(&DFlags, Pairs * sizeof(unsigned)));
  RV_CHECK(cudaMalloc(&DOut, N * sizeof(unsigned)));
  RV_CHECK(cudaMalloc(&DGaveUp, sizeof(unsigned)));
  RV_CHECK(cudaMemset(DData, 0, N * sizeof(unsigned)));
  RV_CHECK(cudaMemset(DFlags, 0, Pairs * sizeof(unsigned)));
  RV_CHECK(cudaMemset(DGaveUp, 0, sizeof(unsigned)));
  long long Wrong = 0;
  int WrongRounds = 0;
  for (unsigned Round = 1; Round <= static_cast<unsigned>(Rounds); ++Round) {
    RV_CHECK(cudaMemset(DOut, 0xff, N * sizeof(unsigned)));
    handOff<<<Blocks, kThreads>>>(DData, DFlags, DOut, Round, DGaveUp);
    RV_SYNC();
    RV_CHECK(cudaMemcpy(Out.data(), DOut, N * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
    long long Bad = 0;
    for (int P = 0; P < Pairs; ++P)
      for (int I = 0; I < kWords; ++I)
        Bad += Out[P * kWords + I] !=
               Round * 1000003u + static_cast<unsigned>(P * kWords + I);
    if (Bad && !WrongRounds)
      rv::detail("round %u: %lld of %d words stale", Round, Bad, N);
    WrongRounds += Bad != 0;
    Wrong += Bad;
  }
  unsigned GaveUp = 0;
  RV_CHECK(cudaMemcpy(&GaveUp, DGaveUp, sizeof(unsigned),
                      cudaMemcpyDeviceToHost));
  rv::detail("%d rounds of %d pairs: %lld stale words in %d rounds; spins "
             "given up: %u",
             Rounds, Pairs, Wrong, WrongRounds, GaveUp);
  rv::finish(Wrong == 0 && GaveUp == 0);
}
