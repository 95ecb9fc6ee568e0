// CUB BlockScan and BlockStore for a tile-local exclusive scan.
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

template <int BLOCK_THREADS, int ITEMS>
__global__ void tileExclusiveSum(const int *In, int *Out, int N) {
  using Scan = cub::BlockScan<int, BLOCK_THREADS>;
  using Store = cub::BlockStore<int, BLOCK_THREADS, ITEMS,
                                cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename Scan::TempStorage Scan;
    typename Store::TempStorage Store;
  } Storage;
  int Items[ITEMS];
  const int Offset = blockIdx.x * BLOCK_THREADS * ITEMS;
  for (int K = 0; K < ITEMS; ++K) {
    int I = Offset + threadIdx.x * ITEMS + K;
    Items[K] = I < N ? In[I] : 0;
  }
  int Aggregate;
  Scan(Storage.Scan).ExclusiveSum(Items, Items, Aggregate);
  __syncthreads();
  Store(Storage.Store).Store(Out + Offset, Items, N - Offset);
}

void scanTiles(const int *In, int *Out, int N) {
  tileExclusiveSum<128, 4><<<(N + 511) / 512, 128>>>(In, Out, N);
}
