// RUN: %check_cuda_tidy %s cuda-implicit-warp-sync %t
// The fix-it: a racing `x op= y` in its register form (read, __syncwarp(),
// write, __syncwarp()), after a __syncwarp() when the racing write is in an
// earlier statement that is not rewritten itself; any other racing read
// gets a __syncwarp() before its statement of the enclosing block (a
// declaration too; for a read under `if (lane < 16)`, before the `if`, where
// the warp is still converged).
__global__ void lastWarp(float *out, const float *in) {
  __shared__ float sums[64];
  int tid = threadIdx.x;
  sums[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *v = sums;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: lanes of one warp exchange data through __shared__ 'sums' with no __syncwarp() between the write and the read: thread 0 reads sums[16] while thread 16 writes it [cuda-implicit-warp-sync]
    // CHECK-FIXES: {{^}}    v[tid] += v[tid + 32];{{$}}
    // CHECK-FIXES-NEXT: {{^}}    __syncwarp(); { float warpSyncValue = v[tid] + (v[tid + 16]); __syncwarp(); v[tid] = warpSyncValue; __syncwarp(); }{{$}}
    // CHECK-FIXES: {{^}}    { float warpSyncValue = v[tid] + (v[tid + 8]); __syncwarp(); v[tid] = warpSyncValue; __syncwarp(); }{{$}}
    v[tid] += v[tid + 8];
  }
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}
__global__ void pairSwap(float *out, const float *in) {
  __shared__ float scratch[8][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];
  float other = scratch[warp][lane ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: lanes of one warp exchange data through __shared__ 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[0][1] while thread 1 writes it [cuda-implicit-warp-sync]
  // CHECK-FIXES: {{^}}  scratch[warp][lane] = in[blockIdx.x * 256 + threadIdx.x];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float other = scratch[warp][lane ^ 1];{{$}}
  out[blockIdx.x * 256 + threadIdx.x] = other;
}
__global__ void laneZero(float *out, const float *in) {
  __shared__ float slot[8];
  int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0)
    slot[warp] = in[warp];
  float x = threadIdx.x % 2 ? slot[warp] : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: lanes of one warp exchange data through __shared__ 'slot' with no __syncwarp() between the write and the read: thread 1 reads slot[0] while thread 0 writes it [cuda-implicit-warp-sync]
  // CHECK-FIXES: {{^}}    slot[warp] = in[warp];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncwarp();{{$}}
  out[threadIdx.x] = x;
}

__global__ void divergentRead(float *out, const float *in) {
  __shared__ float scratch[8][32];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  scratch[warp][lane] = in[threadIdx.x];
  if (lane < 16)
    out[threadIdx.x] = scratch[warp][lane + 16];
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: lanes of one warp exchange data through __shared__ 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[0][16] while thread 16 writes it [cuda-implicit-warp-sync]
    // CHECK-FIXES: {{^}}  __syncwarp();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  if (lane < 16){{$}}
}
