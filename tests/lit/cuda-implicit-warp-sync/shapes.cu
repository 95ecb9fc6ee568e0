// RUN: %check_cuda_tidy %s cuda-implicit-warp-sync %t
// Lanes of one warp that talk through __shared__ memory with no __syncwarp()
// between one lane's store and another lane's load: the volatile last-warp
// reduction (inline, through a local pointer, in a loop), a per-warp scratch
// row read at lane ^ 1 or lane + 1, lane 0's per-warp slot read by its warp,
// a block of one warp (from the launch, or a 32 x k block whose rows are
// warps), a warp-uniform guard on the warp index.
#define WARPS 8
__global__ void lastWarpInline(float *out, const float *in) {
  __shared__ float sums[64];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = sums;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: lanes of one warp exchange data through __shared__ 'sums' with no __syncwarp() between the write and the read: thread 0 reads sums[16] while thread 16 writes it [cuda-implicit-warp-sync]
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__global__ void lastWarpPlain(float *out, const float *in) {
  __shared__ float sums[64];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    sums[tid] += sums[tid + 32];
    sums[tid] += sums[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: lanes of one warp exchange data through __shared__ 'sums' with no __syncwarp() between the write and the read: thread 0 reads sums[16] while thread 16 writes it [cuda-implicit-warp-sync]
    sums[tid] += sums[tid + 8];
  }
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__global__ void lastWarpLoop(float *out, const float *in) {
  __shared__ float sums[64];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    for (int offset = 32; offset > 0; offset >>= 1)
      sums[tid] += sums[tid + offset];
      // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: lanes of one warp exchange data through __shared__ 'sums' with no __syncwarp() between the write and the read: thread 0 reads sums[16] while thread 16 writes it [cuda-implicit-warp-sync]
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__global__ void pairSwap(float *out, const float *in) {
  __shared__ float scratch[WARPS][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  out[blockIdx.x * 256 + threadIdx.x] = scratch[warp][lane ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: lanes of one warp exchange data through __shared__ 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[0][1] while thread 1 writes it [cuda-implicit-warp-sync]
}
__global__ void rotateInWarp(float *out, const float *in) {
  __shared__ float scratch[WARPS][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  float next = scratch[warp][(lane + 1) % 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lanes of one warp exchange data through __shared__ 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[0][1] while thread 1 writes it [cuda-implicit-warp-sync]
  out[blockIdx.x * 256 + threadIdx.x] = next;
}
__global__ void laneZeroSlot(float *out, const float *in) {
  __shared__ float slot[WARPS];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (lane == 0)
    slot[warp] = in[blockIdx.x * WARPS + warp];
  out[blockIdx.x * 256 + threadIdx.x] = slot[warp] * 2.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: lanes of one warp exchange data through __shared__ 'slot' with no __syncwarp() between the write and the read: thread 1 reads slot[0] while thread 0 writes it [cuda-implicit-warp-sync]
}
__global__ void oneWarpBlock(float *out, const float *in) {
  __shared__ float tile[32];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 32 + t];
  out[blockIdx.x * 32 + t] = t > 0 ? tile[t - 1] : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: lanes of one warp exchange data through __shared__ 'tile' with no __syncwarp() between the write and the read: thread 1 reads tile[0] while thread 0 writes it [cuda-implicit-warp-sync]
}
__global__ void rowsAreWarps(float *out, const float *in) {
  __shared__ float tile[8][32];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[(blockIdx.x * 8 + y) * 32 + x];
  out[(blockIdx.x * 8 + y) * 32 + x] = tile[y][x ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: lanes of one warp exchange data through __shared__ 'tile' with no __syncwarp() between the write and the read: thread (0, 0) reads tile[0][1] while thread (1, 0) writes it [cuda-implicit-warp-sync]
}
__global__ void firstWarpOnly(float *out, const float *in) {
  __shared__ float partial[32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (warp == 0) {
    partial[lane] = in[blockIdx.x * 32 + lane];
    out[blockIdx.x * 32 + lane] = partial[31 - lane];
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: lanes of one warp exchange data through __shared__ 'partial' with no __syncwarp() between the write and the read: thread 0 reads partial[31] while thread 31 writes it [cuda-implicit-warp-sync]
  }
}
void launch(float *out, const float *in) {
  oneWarpBlock<<<16, 32>>>(out, in);
  rowsAreWarps<<<16, dim3(32, 8)>>>(out, in);
}
