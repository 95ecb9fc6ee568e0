// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// Call-site context: a device function taking `float *s` bound to a
// __shared__ array at its call is analyzed as accessing that array, for the
// threads that make the call: a neighbour read across warps is found (with
// a note at the call), an own-slot update is quiet, and the same function
// called under `if (tid < 16)` touches one warp only (cuda-implicit-warp-sync's).
// A local pointer that holds the array stands for it.
__device__ void shiftRead(float *s, float *out, int t) {
  s[t] = out[t];
  out[t] = s[t + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: data race on __shared__ 'tile': thread 31 reads tile[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__device__ void ownSlot(float *s, float *out, int t) {
  s[t] = out[t];
  out[t] = 2.0f * s[t];
}
__global__ void callsShift(float *out) {
  __shared__ float tile[257];
  shiftRead(tile, out, threadIdx.x);
  ownSlot(tile, out, threadIdx.x);
}
__device__ void neighbour(float *s, float *out, int t) {
  s[t] = out[t];
  out[t] = t > 0 ? s[t - 1] : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: data race on __shared__ 'row': thread 32 reads row[31] while thread 31 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void firstHalf(float *out) {
  __shared__ float row[128];
  if (threadIdx.x < 128)
    neighbour(row, out, threadIdx.x);
}
__device__ void neighbourInWarp(float *s, float *out, int t) {
  s[t] = out[t];
  out[t] = t > 0 ? s[t - 1] : 0.0f;
}
__global__ void sixteenLanes(float *out) {
  __shared__ float row[16];
  if (threadIdx.x < 16)
    neighbourInWarp(row, out, threadIdx.x);
}
__device__ void staged(float *s, float *out, int t) {
  s[t] = out[t];
  __syncthreads();
  out[t] = s[(t + 1) % 256];
}
__global__ void withBarrier(float *out) {
  __shared__ float tile[256];
  staged(tile, out, threadIdx.x);
}
__global__ void throughLocal(float *out) {
  __shared__ float buf[256];
  float *p = buf;
  p[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = p[(threadIdx.x + 64) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: data race on __shared__ 'buf': thread 0 reads buf[64] while thread 64 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
