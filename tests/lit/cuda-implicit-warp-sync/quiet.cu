// RUN: %check_cuda_tidy %s cuda-implicit-warp-sync %t
// What stays quiet: the same exchanges with __syncwarp() (or a tile's sync(),
// or a block barrier) between the store and the load, shuffle-only
// reductions, a lane reading its own slot, shared atomics, indices the tool
// cannot evaluate, and races between threads of different warps (those are
// cuda-shared-memory-race's: a __syncwarp() would not order them).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define WARPS 8
__global__ void lastWarpSynced(float *out, const float *in) {
  __shared__ float sums[64];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    float v = sums[tid] + sums[tid + 32];
    __syncwarp();
    sums[tid] = v;
    __syncwarp();
    v += sums[tid + 16];
    __syncwarp();
    sums[tid] = v;
    __syncwarp();
    v += sums[tid + 8];
    __syncwarp();
    sums[tid] = v;
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__global__ void shuffleOnly(float *out, const float *in) {
  float v = in[blockIdx.x * 256 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * WARPS + threadIdx.x / 32] = v;
}
__global__ void pairSwapSynced(float *out, const float *in) {
  __shared__ float scratch[WARPS][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  __syncwarp();
  out[blockIdx.x * 256 + threadIdx.x] = scratch[warp][lane ^ 1];
}
__global__ void pairSwapTileSync(float *out, const float *in) {
  __shared__ float scratch[WARPS][32];
  cg::thread_block_tile<32> tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  tile.sync();
  out[blockIdx.x * 256 + threadIdx.x] = scratch[warp][lane ^ 1];
}
__global__ void pairSwapBlockBarrier(float *out, const float *in) {
  __shared__ float scratch[WARPS][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = scratch[warp][lane ^ 1];
}
__global__ void ownSlot(float *out, const float *in) {
  __shared__ float scratch[WARPS][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  scratch[warp][lane] *= 2.0f;
  out[blockIdx.x * 256 + threadIdx.x] = scratch[warp][lane];
}
__global__ void warpHistogram(int *out, const int *in) {
  __shared__ int bins[WARPS][16];
  int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 < 16)
    bins[warp][threadIdx.x % 16] = 0;
  __syncwarp();
  atomicAdd(&bins[warp][in[blockIdx.x * 256 + threadIdx.x] & 15], 1);
  __syncwarp();
  if (threadIdx.x % 32 < 16)
    out[blockIdx.x * 128 + warp * 16 + threadIdx.x % 16] =
        bins[warp][threadIdx.x % 16];
}
__global__ void unknownIndex(float *out, const float *in, const int *perm) {
  __shared__ float scratch[WARPS][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = scratch[warp][perm[lane]];
}
__global__ void acrossWarps(float *out, const float *in) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 256 + t];
  out[blockIdx.x * 256 + t] = tile[(t + 32) % 256];
}
__global__ void treeAcrossWarps(float *out, const float *in) {
  __shared__ float sums[128];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  if (tid < 64) {
    // threads 0..31 read what threads 32..63 write: two warps.
    sums[tid] += sums[tid + 64];
    sums[tid] += sums[tid + 32];
  }
}
void launch(float *out, const float *in) {
  treeAcrossWarps<<<16, 128>>>(out, in);
}
