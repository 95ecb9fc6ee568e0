// Cooperative-groups reductions: thread_block_tile partitions, cg::reduce
// and cg::inclusive_scan, with group handles passed by reference.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

template <typename Tile>
__device__ float tileSum(const Tile &Group, float V) {
  return cg::reduce(Group, V, cg::plus<float>());
}

__device__ float blockSum(const cg::thread_block &Block, float V,
                          float *Scratch) {
  auto Warp = cg::tiled_partition<32>(Block);
  float Partial = tileSum(Warp, V);
  if (Warp.thread_rank() == 0)
    Scratch[Warp.meta_group_rank()] = Partial;
  Block.sync();
  float Total = 0.0f;
  if (Warp.meta_group_rank() == 0) {
    float Mine = Warp.thread_rank() < Warp.meta_group_size()
                     ? Scratch[Warp.thread_rank()]
                     : 0.0f;
    Total = tileSum(Warp, Mine);
  }
  return Total;
}

__global__ void normalizeRows(float *Data, int Cols) {
  __shared__ float Scratch[32];
  __shared__ float RowTotal;
  cg::thread_block Block = cg::this_thread_block();
  float *Row = Data + blockIdx.x * Cols;
  float Local = 0.0f;
  for (int C = Block.thread_rank(); C < Cols; C += Block.size())
    Local += Row[C];
  float Total = blockSum(Block, Local, Scratch);
  if (Block.thread_rank() == 0)
    RowTotal = Total;
  Block.sync();
  for (int C = Block.thread_rank(); C < Cols; C += Block.size())
    Row[C] /= RowTotal;
}

__global__ void tileScan(const int *In, int *Out) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<16> Tile = cg::tiled_partition<16>(Block);
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = cg::inclusive_scan(Tile, In[I]);
}

void normalize(float *Data, int Rows, int Cols) {
  normalizeRows<<<Rows, 256>>>(Data, Cols);
}
