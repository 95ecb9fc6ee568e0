// Single-pass prefix sum with decoupled look-back: each tile publishes its
// aggregate and inclusive prefix through status words.
#include <cuda_runtime.h>
#include <cstdint>

enum : uint32_t { Invalid = 0, Aggregate = 1, Prefix = 2 };

struct TileStatus {
  uint32_t Flag;
  uint32_t Value;
};

__device__ uint64_t pack(uint32_t Flag, uint32_t Value) {
  return (static_cast<uint64_t>(Value) << 32) | Flag;
}

template <int BLOCK_THREADS>
__global__ void scanLookback(const uint32_t *In, uint32_t *Out,
                             unsigned long long *Status, int N,
                             unsigned *TileCounter) {
  __shared__ uint32_t Warps[BLOCK_THREADS / 32];
  __shared__ uint32_t TileId;
  __shared__ uint32_t Exclusive;
  if (threadIdx.x == 0)
    TileId = atomicAdd(TileCounter, 1u);
  __syncthreads();
  const uint32_t Tile = TileId;
  int I = Tile * BLOCK_THREADS + threadIdx.x;
  uint32_t V = I < N ? In[I] : 0;
  unsigned Lane = threadIdx.x & 31, Warp = threadIdx.x >> 5;
  uint32_t Inclusive = V;
  for (int D = 1; D < 32; D <<= 1) {
    uint32_t Up = __shfl_up_sync(0xffffffffu, Inclusive, D);
    if (Lane >= D)
      Inclusive += Up;
  }
  if (Lane == 31)
    Warps[Warp] = Inclusive;
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t Sum = 0;
    for (int W = 0; W < BLOCK_THREADS / 32; ++W) {
      uint32_t T = Warps[W];
      Warps[W] = Sum;
      Sum += T;
    }
    atomicExch(&Status[Tile], pack(Tile == 0 ? Prefix : Aggregate, Sum));
    uint32_t Running = 0;
    for (int Pred = int(Tile) - 1; Pred >= 0; --Pred) {
      unsigned long long Word;
      do {
        Word = atomicAdd(&Status[Pred], 0ull);
      } while ((Word & 0xffffffffu) == Invalid);
      Running += static_cast<uint32_t>(Word >> 32);
      if ((Word & 0xffffffffu) == Prefix)
        break;
    }
    Exclusive = Running;
    if (Tile != 0)
      atomicExch(&Status[Tile], pack(Prefix, Running + Sum));
  }
  __syncthreads();
  if (I < N)
    Out[I] = Exclusive + Warps[Warp] + Inclusive - V;
}

void prefixSum(const uint32_t *In, uint32_t *Out, unsigned long long *Status,
               unsigned *Counter, int N) {
  int Tiles = (N + 255) / 256;
  cudaMemset(Status, 0, Tiles * sizeof(unsigned long long));
  cudaMemset(Counter, 0, sizeof(unsigned));
  scanLookback<256><<<Tiles, 256>>>(In, Out, Status, N, Counter);
}
