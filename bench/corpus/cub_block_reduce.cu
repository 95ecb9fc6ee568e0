// CUB's own block primitives: BlockLoad, BlockReduce and a grid-stride
// accumulation, launched over a device array.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>

template <int BLOCK_THREADS, int ITEMS>
__global__ void cubSum(const int *In, int *Out, int N) {
  using Load = cub::BlockLoad<int, BLOCK_THREADS, ITEMS,
                              cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, BLOCK_THREADS>;
  __shared__ union {
    typename Load::TempStorage Load;
    typename Reduce::TempStorage Reduce;
  } Storage;
  int Items[ITEMS];
  const int TileOffset = blockIdx.x * BLOCK_THREADS * ITEMS;
  Load(Storage.Load).Load(In + TileOffset, Items, N - TileOffset, 0);
  __syncthreads();
  int Total = Reduce(Storage.Reduce).Sum(Items);
  if (threadIdx.x == 0)
    atomicAdd(Out, Total);
}

void sumInts(const int *In, int *Out, int N) {
  constexpr int Threads = 128, Items = 8;
  int Tiles = (N + Threads * Items - 1) / (Threads * Items);
  cubSum<Threads, Items><<<Tiles, Threads>>>(In, Out, N);
}
