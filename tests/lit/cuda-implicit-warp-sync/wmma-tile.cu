// RUN: %check_cuda_tidy %s cuda-implicit-warp-sync %t
// wmma::store_matrix_sync writes a tile cooperatively, with an unspecified
// lane-to-element mapping: a plain read of the tile by the storing warp's
// lanes before a __syncwarp() can read another lane's store (a per-warp
// __shared__ tile, a loop over it, a tile of global memory, a device
// function analyzed for its call). Quiet: __syncwarp() or a block barrier
// between, only load_matrix_sync after the store, a read outside the tile,
// and another warp's tile (a block race: no __syncwarp() orders it).
#include <mma.h>
using namespace nvcuda;
#define WARPS 8

__device__ void product(wmma::fragment<wmma::accumulator, 16, 16, 16, float> &acc,
                        const half *a, const half *b) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(acc, 0.0f);
  wmma::mma_sync(acc, fa, fb, acc);
}

__global__ void sharedTileRead(float *out, const half *a, const half *b) {
  __shared__ float tile[WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[warp][lane];
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: lanes of one warp read the tile that wmma::store_matrix_sync wrote to 'tile' with no __syncwarp() between: the store's lane-to-element mapping is unspecified, so thread 0 can read tile[0] as another lane of its warp stored it [cuda-implicit-warp-sync]
}
// CHECK-FIXES: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[warp][lane];{{$}}

__global__ void sharedTileLoop(float *out, const half *a, const half *b) {
  __shared__ float tile[WARPS * 256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  float *mine = tile + warp * 256;
  wmma::store_matrix_sync(mine, acc, 16, wmma::mem_col_major);
  float sum = 0.0f;
  for (int i = lane; i < 256; i += 32)
    sum += mine[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: lanes of one warp read the tile that wmma::store_matrix_sync wrote to 'tile' with no __syncwarp() between: the store's lane-to-element mapping is unspecified, so thread 0 can read tile[0] as another lane of its warp stored it [cuda-implicit-warp-sync]
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void globalTileRead(float *c, const half *a, const half *b) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  float *origin = c + blockIdx.x * 16 * 128 + warp * 16;
  wmma::store_matrix_sync(origin, acc, 128, wmma::mem_row_major);
  origin[(lane / 16) * 128 + lane % 16] *= 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: lanes of one warp read the tile that wmma::store_matrix_sync wrote to 'c' with no __syncwarp() between: the store's lane-to-element mapping is unspecified, so thread 0 can read c[blockIdx.x * 2048] as another lane of its warp stored it [cuda-implicit-warp-sync]
}

__device__ float storeAndPeek(float *t,
                              wmma::fragment<wmma::accumulator, 16, 16, 16, float> &acc,
                              int lane) {
  wmma::store_matrix_sync(t, acc, 16, wmma::mem_row_major);
  return t[lane * 8];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes of one warp read the tile that wmma::store_matrix_sync wrote to 'tile' with no __syncwarp() between: the store's lane-to-element mapping is unspecified, so thread 0 can read tile[0] as another lane of its warp stored it [cuda-implicit-warp-sync]
}
__global__ void tileThroughCall(float *out, const half *a, const half *b) {
  __shared__ float tile[WARPS][256];
  int warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      storeAndPeek(tile[warp], acc, threadIdx.x % 32);
}

// --- quiet ----------------------------------------------------------------

__global__ void sharedTileSynced(float *out, const half *a, const half *b) {
  __shared__ float tile[WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  __syncwarp();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[warp][lane];
}

__global__ void sharedTileBlockBarrier(float *out, const half *a,
                                       const half *b) {
  __shared__ float tile[WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(warp + 1) % WARPS][lane];
}

__global__ void reloadOnly(float *out, const half *a, const half *b) {
  __shared__ float tile[WARPS][256];
  int warp = threadIdx.x / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> again;
  wmma::load_matrix_sync(again, &tile[warp][0], 16, wmma::mem_row_major);
  wmma::store_matrix_sync(out + blockIdx.x * WARPS * 256 + warp * 256, again,
                          16, wmma::mem_row_major);
}

__global__ void outsideTheTile(float *out, const half *a, const half *b) {
  __shared__ float tile[WARPS][272];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  tile[warp][256 + (lane % 16)] = 1.0f;
  __syncwarp();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[warp][256 + (lane % 16)];
}

__global__ void otherWarpsTile(float *out, const half *a, const half *b) {
  // Warp w reads warp w + 1's tile: a block race, left to the block rules.
  __shared__ float tile[WARPS][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  product(acc, a, b);
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(warp + 1) % WARPS][lane];
}

void launch(float *out, const half *a, const half *b) {
  sharedTileRead<<<4, 256>>>(out, a, b);
  sharedTileLoop<<<4, 256>>>(out, a, b);
  globalTileRead<<<4, 256>>>(out, a, b);
  tileThroughCall<<<4, 256>>>(out, a, b);
  sharedTileSynced<<<4, 256>>>(out, a, b);
  sharedTileBlockBarrier<<<4, 256>>>(out, a, b);
  reloadOnly<<<4, 256>>>(out, a, b);
  outsideTheTile<<<4, 256>>>(out, a, b);
  otherWarpsTile<<<4, 256>>>(out, a, b);
}
