// One pass of a block-wide LSD radix sort (4 bits): per-digit counts in
// shared memory, a scan of the counts, and a stable scatter.
#include <cuda_runtime.h>
#include <cstdint>

template <int BLOCK_THREADS, int RADIX_BITS>
__global__ void radixPass(const uint32_t *KeysIn, uint32_t *KeysOut, int N,
                          int Shift, unsigned *DigitOffsets) {
  constexpr int DIGITS = 1 << RADIX_BITS;
  __shared__ unsigned Counts[DIGITS];
  __shared__ unsigned Ranks[BLOCK_THREADS];
  int I = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  for (int D = threadIdx.x; D < DIGITS; D += BLOCK_THREADS)
    Counts[D] = 0;
  __syncthreads();
  uint32_t Key = I < N ? KeysIn[I] : 0xffffffffu;
  unsigned Digit = (Key >> Shift) & (DIGITS - 1);
  // Rank within the digit, thread order kept: one digit at a time.
  for (int D = 0; D < DIGITS; ++D) {
    bool Mine = Digit == D && I < N;
    unsigned Ballot = __ballot_sync(0xffffffffu, Mine);
    if (Mine)
      Ranks[threadIdx.x] = __popc(Ballot & ((1u << (threadIdx.x & 31)) - 1));
    __syncthreads();
    if ((threadIdx.x & 31) == 0 && __popc(Ballot))
      atomicAdd(&Counts[D], __popc(Ballot));
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    unsigned Sum = 0;
    for (int D = 0; D < DIGITS; ++D) {
      unsigned C = Counts[D];
      Counts[D] = atomicAdd(&DigitOffsets[D], C) + Sum * 0;
      Sum += C;
    }
  }
  __syncthreads();
  if (I < N)
    KeysOut[Counts[Digit] + Ranks[threadIdx.x]] = Key;
}

void radixSortPass(const uint32_t *In, uint32_t *Out, int N, int Shift,
                   unsigned *Offsets) {
  radixPass<256, 4><<<(N + 255) / 256, 256>>>(In, Out, N, Shift, Offsets);
}
