// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// Cooperative-groups ranks decide who makes an access: a thread_block's
// thread_rank() (a member call, CUDA 13's static member through the object,
// cg::thread_rank(block), cg::this_thread_block().thread_rank()) is the
// block's linear thread index, its thread_index().x is threadIdx.x, its
// num_threads() the block's size; a static tile's thread_rank() is the lane
// in the tile. A grid's thread_rank() is not the block's index.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A device function that gets the buffer and the block as parameters (the
// shape of a single-pass reduction's last step): thread 0 alone sums the
// warps' partial sums and stores the total, between two block syncs. Quiet.
template <int Warp>
__device__ void leaderSums(volatile float *buf, float mine, unsigned lane,
                           cg::thread_block group) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(group);
  buf[lane] = mine;
  cg::sync(warp);
  cg::sync(group);
  if (group.thread_rank() == 0) {
    float total = 0.0f;
    for (int w = 0; w < blockDim.x; w += Warp)
      total += buf[w];
    buf[0] = total;
  }
  cg::sync(group);
}
template <int Warp>
__global__ void lastBlockSums(float *out) {
  cg::thread_block group = cg::this_thread_block();
  extern __shared__ float scratch[];
  leaderSums<Warp>(scratch, out[threadIdx.x], threadIdx.x, group);
  if (threadIdx.x == 0)
    out[blockIdx.x] = scratch[0];
}
template __global__ void lastBlockSums<32>(float *);

// The same through the free function and a fresh handle, with the loop
// bounded by the group's size: quiet.
__global__ void freeRank(float *out) {
  __shared__ float acc[256];
  cg::thread_block block = cg::this_thread_block();
  acc[threadIdx.x] = out[threadIdx.x];
  block.sync();
  if (cg::thread_rank(block) == 0) {
    for (unsigned i = 32; i < block.num_threads(); i += 32)
      acc[0] += acc[i];
  }
  block.sync();
  if (cg::this_thread_block().thread_rank() == 0) {
    float top = acc[0];
    acc[1] = top;
  }
}

// One writer, many readers: the block's thread 0 publishes, every thread
// reads with no sync between. Found, and the writer is thread 0.
__global__ void publishNoSync(float *out) {
  __shared__ float scale;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    scale = out[0];
  out[block.thread_rank()] *= scale;
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: data race on __shared__ 'scale': thread 32 reads scale while thread 0 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}

// thread_index().x subscripts like threadIdx.x: the neighbour read after
// the own write is found.
__global__ void neighbourByIndex(float *out) {
  __shared__ float row[257];
  cg::thread_block block = cg::this_thread_block();
  unsigned x = block.thread_index().x;
  row[x] = out[x];
  out[x] = row[x + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: data race on __shared__ 'row': thread 31 reads row[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}

// Two-dimensional block: thread_rank() is x + y * 16, so only (0, 0) makes
// the serial pass. Quiet.
__global__ void rankIn2D(float *out) {
  __shared__ float tile[16][16];
  cg::thread_block block = cg::this_thread_block();
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.y * 16 + threadIdx.x];
  block.sync();
  if (block.thread_rank() == 0)
    for (int y = 1; y < 16; ++y)
      tile[0][0] += tile[y][0];
}

// A tile's thread_rank() is the lane: each warp's lane 0 stores at its
// warp's first slot and reads its warp's second, which nobody stores. Quiet.
// (Read as unknown, every thread would store and thread 31 would read slot
// 32, stored by thread 32.)
__global__ void tileLeaders(float *out) {
  __shared__ float slots[257];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  if (warp.thread_rank() == 0)
    slots[threadIdx.x] = out[threadIdx.x];
  if (warp.thread_rank() == 0)
    out[threadIdx.x] = slots[threadIdx.x + 1];
}

// Lane 0 of each warp publishes its warp's partial; the first warp reads
// them with no sync between. Found: thread 1 reads what thread 32 stores.
__global__ void tilePartialsNoSync(float *out) {
  __shared__ float partial[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  if (warp.thread_rank() == 0)
    partial[threadIdx.x / 32] = out[threadIdx.x];
  if (threadIdx.x < 8)
    out[threadIdx.x] = partial[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: data race on __shared__ 'partial': thread 1 reads partial[1] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}

// A grid's thread_rank() is not the block's index: rank 256 is thread 0 of
// block 1, which publishes to the rest of block 1 with no sync between. As
// a block index no thread would have rank 256 and nothing would be found;
// not evaluated, the guard lets every thread through (a write-write pair is
// the witness shown).
__global__ void gridRankPublishes(float *out) {
  __shared__ float first;
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 256)
    first = out[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on __shared__ 'first': thread 0 writes first while thread 32 writes it, with no block barrier between the two accesses (2 conflicting pairs of accesses to 'first' in this barrier interval) [cuda-shared-memory-race]
  out[grid.thread_rank()] = first;
}

void launch(float *out) {
  lastBlockSums<32><<<4, 256, 256 * sizeof(float)>>>(out);
  freeRank<<<4, 256>>>(out);
  publishNoSync<<<4, 256>>>(out);
  neighbourByIndex<<<4, 256>>>(out);
  rankIn2D<<<4, dim3(16, 16)>>>(out);
  tileLeaders<<<4, 256>>>(out);
  tilePartialsNoSync<<<4, 256>>>(out);
  gridRankPublishes<<<2, 256>>>(out);
}
