// cuda-missing-fence, a flag hand-off between two blocks without its fences.
// VIOLATING; twin: fence_flag_handoff_ok.cu.
//
// Blocks come in pairs: the even block of a pair (the producer) writes 4,096
// words of data with all its threads, meets at __syncthreads(), and thread 0
// sets the pair's volatile flag to the round's number; the odd block (the
// consumer) spins on the flag in thread 0, meets at __syncthreads(), and
// copies the data out. No __threadfence() stands between the producer's
// stores and its flag, nor between the consumer's spin and its reads: under
// the PTX memory model the consumer may see the flag before the data, or
// read a stale copy (it reads the previous round's data first, so its SM's
// L1 may hold them). 264 blocks (every pair resident at once on an H200),
// 100 rounds, each round's data distinct; the spin gives up after about 2e9
// cycles so that a lost flag cannot hang the case.
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
    if (T == 0)
      Flags[Pair] = Round; // FLAGGED(cuda-missing-fence)
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
    }
    __syncthreads();
    for (unsigned I = T; I < kWords; I += kThreads)
      Out[Pair * kWords + I] = Mine[I]; // FLAGGED(cuda-missing-fence)
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
