// RUN: %check_cuda_tidy %s cuda-implicit-warp-sync %t
// Call-site context: a device function that takes `volatile float *s` bound
// to a __shared__ array at its call, analyzed for the threads that make the
// call. Under `if (tid < 32)` its steps are one warp's; called with a
// __syncwarp() between the steps, by a full block with a barrier between, or
// with steps whose lanes are in different warps, it is quiet; but a
// `row[lane] += row[lane ^ 1]` after the __syncwarp() still races within its
// own statement (lane 0 reads row[1] while lane 1 stores it).
__device__ void warpReduce(volatile float *s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: lanes of one warp exchange data through __shared__ 'sums' with no __syncwarp() between the write and the read: thread 0 reads sums[16] while thread 16 writes it [cuda-implicit-warp-sync]
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}
__global__ void reduceBlock(float *out, const float *in) {
  __shared__ float sums[256];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (int s = 128; s > 32; s >>= 1) {
    if (tid < s)
      sums[tid] += sums[tid + s];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce(sums, tid);
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__device__ void warpReduceSynced(volatile float *s, int tid) {
  float v = s[tid] + s[tid + 32];
  __syncwarp();
  s[tid] = v;
  __syncwarp();
  for (int offset = 16; offset > 0; offset /= 2) {
    v += s[tid + offset];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
}
__global__ void reduceBlockSynced(float *out, const float *in) {
  __shared__ float sums[64];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    warpReduceSynced(sums, tid);
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__device__ void stage(float *s, float *out, int t) {
  s[t] = out[t];
  __syncthreads();
  out[t] = s[t ^ 1];
}
__global__ void fullBlockWithBarrier(float *out) {
  __shared__ float tile[256];
  stage(tile, out, threadIdx.x);
}
__device__ void halves(float *s, int t) {
  s[t] += s[t + 64];
}
__global__ void callsAcrossWarps(float *out, const float *in) {
  __shared__ float sums[128];
  sums[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 64)
    halves(sums, threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = sums[threadIdx.x];
}
__device__ void exchange(float *row, int lane) {
  row[lane] = row[lane] * 2.0f;
  __syncwarp();
  row[lane] += row[lane ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: lanes of one warp exchange data through __shared__ 'row' with no __syncwarp() between the write and the read: thread 0 reads row[1] while thread 1 writes it [cuda-implicit-warp-sync]
}
__global__ void syncedExchange(float *out) {
  __shared__ float row[32];
  if (threadIdx.x < 32) {
    row[threadIdx.x] = out[threadIdx.x];
    exchange(row, threadIdx.x);
  }
}
