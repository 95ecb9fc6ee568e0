// RUN: %check_cuda_tidy %s cuda-implicit-warp-sync %t
// Lanes of one warp that talk through a global-memory scratch buffer (a
// kernel's pointer parameter) with no __syncwarp() between one lane's store
// and another lane's load: the neighbour at gid ^ 1, the next lane of a
// warp-aligned segment, a guarded half-warp hand-over, a loop of exchange
// steps, and a device function analyzed for its call. Quiet: the same with
// __syncwarp() between (inline, or in a helper), a lane's own cell, two
// different parameters (unknown aliasing), cells only another block writes,
// neighbours across a warp boundary (a block race), indices that do not
// evaluate.
__global__ void neighbourXor(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[gid] = in[gid];
  float v = scratch[gid ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: lanes of one warp exchange data through global memory 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[blockIdx.x * 256 + 1] while thread 1 writes it [cuda-implicit-warp-sync]
  out[gid] = v;
}
// CHECK-FIXES: {{^}}  __syncwarp();{{$}}
// CHECK-FIXES-NEXT: {{^}}  float v = scratch[gid ^ 1];{{$}}

__global__ void warpSegment(float *out, float *scratch, const float *in) {
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  float *row = scratch + blockIdx.x * blockDim.x + warp * 32;
  row[lane] = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = row[(lane + 1) % 32];
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: lanes of one warp exchange data through global memory 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[blockIdx.x * 256 + 1] while thread 1 writes it [cuda-implicit-warp-sync]
}

__global__ void halfWarpHandOver(float *out, float *scratch, const float *in) {
  int lane = threadIdx.x & 31;
  int base = blockIdx.x * blockDim.x + (threadIdx.x / 32) * 32;
  if (lane < 16)
    scratch[base + lane] = in[base + lane];
  if (lane >= 16)
    out[base + lane] = scratch[base + lane - 16];
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: lanes of one warp exchange data through global memory 'scratch' with no __syncwarp() between the write and the read: thread 16 reads scratch[blockIdx.x * 256] while thread 0 writes it [cuda-implicit-warp-sync]
}

__global__ void butterflySteps(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  for (int step = 1; step < 32; step <<= 1) {
    scratch[gid] = v;
    v += scratch[gid ^ step];
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes of one warp exchange data through global memory 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[blockIdx.x * 256 + 1] while thread 1 writes it [cuda-implicit-warp-sync]
  }
  out[gid] = v;
}

__device__ float swapWithNeighbour(float *seg, int lane, float v) {
  seg[lane] = v;
  return seg[lane ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: lanes of one warp exchange data through global memory 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[blockIdx.x * 256 + 1] while thread 1 writes it [cuda-implicit-warp-sync]
}
__global__ void throughCall(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = swapWithNeighbour(scratch + blockIdx.x * blockDim.x +
                                   (threadIdx.x / 32) * 32,
                               threadIdx.x % 32, in[gid]);
}

// --- quiet ----------------------------------------------------------------

__global__ void neighbourXorSynced(float *out, float *scratch,
                                   const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[gid] = in[gid];
  __syncwarp();
  out[gid] = scratch[gid ^ 1];
}

__device__ void syncLanes() { __syncwarp(); }
__device__ float swapSynced(float *seg, int lane, float v) {
  seg[lane] = v;
  syncLanes();
  return seg[lane ^ 1];
}
__global__ void throughCallSynced(float *out, float *scratch,
                                  const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = swapSynced(scratch + blockIdx.x * blockDim.x +
                            (threadIdx.x / 32) * 32,
                        threadIdx.x % 32, in[gid]);
}

__global__ void ownCell(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[gid] = in[gid] * 2.0f;
  out[gid] = scratch[gid] + 1.0f;
}

__global__ void twoParameters(float *out, float *a, float *b) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  a[gid] = 1.0f;
  out[gid] = b[gid ^ 1];
}

__global__ void otherBlocksCell(float *out, float *partial) {
  if (threadIdx.x == 0)
    partial[blockIdx.x] = 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = partial[blockIdx.x + 1];
}

__global__ void acrossWarpBoundary(float *out, float *scratch,
                                   const float *in) {
  // Thread 31 reads the cell thread 32 (another warp) writes: a block race,
  // which no __syncwarp() orders.
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[gid] = in[gid];
  out[gid] = scratch[gid + 1];
}

__global__ void loadedIndex(float *out, float *scratch, const int *perm) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[gid] = 1.0f;
  out[gid] = scratch[perm[gid]];
}

void launch(float *out, float *scratch, float *in, int *perm) {
  neighbourXor<<<64, 256>>>(out, scratch, in);
  warpSegment<<<64, 256>>>(out, scratch, in);
  halfWarpHandOver<<<64, 256>>>(out, scratch, in);
  butterflySteps<<<64, 256>>>(out, scratch, in);
  throughCall<<<64, 256>>>(out, scratch, in);
  neighbourXorSynced<<<64, 256>>>(out, scratch, in);
  throughCallSynced<<<64, 256>>>(out, scratch, in);
  ownCell<<<64, 256>>>(out, scratch, in);
  twoParameters<<<64, 256>>>(out, scratch, in);
  otherBlocksCell<<<64, 256>>>(out, scratch);
  acrossWarpBoundary<<<64, 256>>>(out, scratch, in);
  loadedIndex<<<64, 256>>>(out, scratch, perm);
}
