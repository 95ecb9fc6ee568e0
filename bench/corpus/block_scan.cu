// Block-wide exclusive scan: warp scans with shuffles, a scan of the warp
// totals in shared memory, and the block prefix added back.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ int warpInclusiveScan(int Value, unsigned Lane) {
#pragma unroll
  for (int Offset = 1; Offset < 32; Offset *= 2) {
    int Up = __shfl_up_sync(0xffffffffu, Value, Offset);
    if (Lane >= Offset)
      Value += Up;
  }
  return Value;
}

template <int BLOCK_THREADS>
__device__ int blockExclusiveScan(int Value, int &BlockTotal) {
  __shared__ int WarpTotals[BLOCK_THREADS / 32];
  const unsigned Lane = threadIdx.x & 31;
  const unsigned Warp = threadIdx.x >> 5;
  int Inclusive = warpInclusiveScan(Value, Lane);
  if (Lane == 31)
    WarpTotals[Warp] = Inclusive;
  __syncthreads();
  if (Warp == 0) {
    int Total = Lane < BLOCK_THREADS / 32 ? WarpTotals[Lane] : 0;
    int Scanned = warpInclusiveScan(Total, Lane);
    if (Lane < BLOCK_THREADS / 32)
      WarpTotals[Lane] = Scanned - Total;
  }
  __syncthreads();
  BlockTotal = WarpTotals[BLOCK_THREADS / 32 - 1] +
               __shfl_sync(0xffffffffu, Inclusive, 31);
  return WarpTotals[Warp] + Inclusive - Value;
}

template <int BLOCK_THREADS, int ITEMS>
__global__ void scanTiles(const int *In, int *Out, int *TileTotals, int N) {
  int Items[ITEMS];
  const int TileBase = blockIdx.x * BLOCK_THREADS * ITEMS;
  int ThreadSum = 0;
#pragma unroll
  for (int K = 0; K < ITEMS; ++K) {
    int Index = TileBase + threadIdx.x * ITEMS + K;
    Items[K] = Index < N ? In[Index] : 0;
    ThreadSum += Items[K];
  }
  int BlockTotal;
  int Prefix = blockExclusiveScan<BLOCK_THREADS>(ThreadSum, BlockTotal);
#pragma unroll
  for (int K = 0; K < ITEMS; ++K) {
    int Index = TileBase + threadIdx.x * ITEMS + K;
    if (Index < N)
      Out[Index] = Prefix;
    Prefix += Items[K];
  }
  if (threadIdx.x == 0)
    TileTotals[blockIdx.x] = BlockTotal;
}

__global__ void addTilePrefixes(int *Out, const int *TilePrefixes, int TileSize,
                                int N) {
  int Index = blockIdx.x * blockDim.x + threadIdx.x;
  if (Index < N)
    Out[Index] += TilePrefixes[Index / TileSize];
}

void exclusiveScan(const int *In, int *Out, int *Scratch, int N,
                   cudaStream_t Stream) {
  constexpr int Threads = 256, Items = 4, Tile = Threads * Items;
  int Tiles = (N + Tile - 1) / Tile;
  scanTiles<Threads, Items><<<Tiles, Threads, 0, Stream>>>(In, Out, Scratch, N);
  scanTiles<Threads, Items><<<1, Threads, 0, Stream>>>(Scratch, Scratch,
                                                       Scratch + Tiles, Tiles);
  addTilePrefixes<<<(N + 255) / 256, 256, 0, Stream>>>(Out, Scratch, Tile, N);
}
