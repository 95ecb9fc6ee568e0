// RUN: %check_cuda_tidy %s cuda-divergent-barrier,cuda-divergent-group-creation %t
// A thread's global index less its index in the block is the block's first
// index: the same for every thread of the block. A loop that tests that
// difference keeps the whole block in the same iteration (the shape of
// cuCollections' bulk kernels), so its barrier is reached by all. The
// difference cancels only where threadIdx.x is the thread's linear index:
// in blocks launched 1-D.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Every thread of a block leaves the loop in the same iteration.
__global__ void blockStrided(const int *in, int *out, long n) {
  auto block = cg::this_thread_block();
  const long rank = block.thread_rank();
  const long stride = (long)gridDim.x * blockDim.x;
  long idx = threadIdx.x + (long)blockDim.x * blockIdx.x;
  __shared__ int staged[128];
  while (idx - rank < n) {
    if (idx < n)
      staged[rank] = in[idx];
    block.sync();
    if (idx < n)
      out[idx] = staged[rank];
    idx += stride;
  }
  block.sync();
}

// A template's group size of 1: `x / 1` is x.
template <int GroupSize>
__global__ void groupStrided(const int *in, int *out, long n) {
  auto block = cg::this_thread_block();
  const long rank = block.thread_rank();
  const long stride = (long)gridDim.x * blockDim.x / GroupSize;
  long idx = (threadIdx.x + (long)blockDim.x * blockIdx.x) / GroupSize;
  __shared__ int staged[128];
  while ((idx - rank / GroupSize) < n) {
    if (idx < n)
      staged[rank] = in[idx];
    __syncthreads();
    if (idx < n)
      out[idx] = staged[rank];
    idx += stride;
  }
  block.sync();
}

// The index built by list-initialization (`index_type{threadIdx.x}`, a
// value that may not narrow, is that value), in a helper, divided by the
// size of the tiles the loop partitions the block into.
using index_type = long;
__device__ static index_type globalThreadId() {
  return index_type{threadIdx.x} + index_type{blockDim.x} * index_type{blockIdx.x};
}
template <int TileSize>
__global__ void tileStrided(const int *in, int *out, index_type n) {
  auto block = cg::this_thread_block();
  const auto rank = block.thread_rank();
  const index_type stride = index_type{gridDim.x} * index_type{blockDim.x} / TileSize;
  index_type idx = globalThreadId() / TileSize;
  while ((idx - rank / TileSize) < n) {
    auto tile = cg::tiled_partition<TileSize>(block);
    if (idx < n && tile.thread_rank() == 0)
      out[idx] = in[idx];
    idx += stride;
  }
}

// The bound is the thread's own index: trip counts differ.
__global__ void threadStrided(const int *in, int *out, long n) {
  const long stride = (long)gridDim.x * blockDim.x;
  long idx = threadIdx.x + (long)blockDim.x * blockIdx.x;
  __shared__ int staged[128];
  while (idx < n) {
    staged[threadIdx.x] = in[idx];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    out[idx] = staged[threadIdx.x];
    idx += stride;
  }
  __syncthreads();
}

// Launched with rows of 32 threads: the linear index less threadIdx.x is
// the row's offset, which differs between warps of the block.
__global__ void rowStrided(int *out, long n) {
  const long linear = threadIdx.x + (long)threadIdx.y * blockDim.x;
  long idx = linear + (long)blockDim.x * blockDim.y * blockIdx.x;
  while (idx - threadIdx.x < n) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    out[idx] = 0;
    idx += (long)gridDim.x * blockDim.x * blockDim.y;
  }
  __syncthreads();
}

void launch(const int *in, int *out, long n, cudaStream_t s) {
  blockStrided<<<64, 128, 0, s>>>(in, out, n);
  groupStrided<1><<<64, 128, 0, s>>>(in, out, n);
  tileStrided<4><<<64, 128, 0, s>>>(in, out, n);
  threadStrided<<<64, 128, 0, s>>>(in, out, n);
  rowStrided<<<64, dim3(32, 4), 0, s>>>(out, n);
}
