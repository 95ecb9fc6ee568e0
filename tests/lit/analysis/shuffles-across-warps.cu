// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A shuffle reads, for each lane, a lane of the same warp chosen by the lane
// index and the source lane (or delta): threads at the same lane of two warps
// read the same lane of their own warps. When the value agrees across warps
// lane by lane (it depends only on the lane and on block-uniform data), so
// does the result, and a broadcast of one lane is then the same in every
// warp of the block. Every warp scanning the same 32 problem sizes and
// broadcasting the total is how cutlass's grouped-GEMM scheduler picks the
// next tile (grouped_problem_visitor.h, next_tile).

__device__ int tileCount(int rows) { return (rows + 127) / 128; }

// Lane 31's load of sizes[base + lane]: the same address in every warp.
__global__ void broadcastOfALaneLoad(const int *sizes, int n, float *out) {
  __shared__ float tile[256];
  int lane = threadIdx.x % 32;
  int base = blockIdx.x * 32;
  int count = 0;
  if (base + lane < n)
    count = tileCount(sizes[base + lane]);
  int last = __shfl_sync(0xffffffff, count, 31);
  if (last > 3) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}

// An inclusive scan by shuffles up, then the total from lane 31.
__global__ void scanTotal(const int *sizes, float *out) {
  __shared__ float tile[256];
  int lane = threadIdx.x % 32;
  int running = sizes[blockIdx.x * 32 + lane];
  for (int step = 1; step < 32; step <<= 1) {
    int below = __shfl_up_sync(0xffffffff, running, step);
    if (lane >= step)
      running += below;
  }
  int total = __shfl_sync(0xffffffff, running, 31);
  while (total > 0) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] += tile[(threadIdx.x + 1) % 256];
    __syncthreads();
    total -= 8;
  }
}

// Each warp reads its own slice (threadIdx.x, not the lane): the warps
// broadcast different values.
__global__ void broadcastOfOwnSlice(const int *sizes, float *out) {
  __shared__ float tile[256];
  int count = sizes[threadIdx.x];
  int last = __shfl_sync(0xffffffff, count, 31);
  if (last > 3) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}

// The source lane differs between warps (the warp index): so does the
// result.
__global__ void sourceLaneByWarp(const int *sizes, float *out) {
  __shared__ float tile[256];
  int lane = threadIdx.x % 32;
  int count = sizes[lane];
  int picked = __shfl_sync(0xffffffff, count, threadIdx.x / 32);
  if (picked > 3) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}

// A delta that differs between warps: lane 31 holds a different lane's
// value in each warp.
__global__ void deltaByWarp(const int *sizes, float *out) {
  __shared__ float tile[256];
  int lane = threadIdx.x % 32;
  int v = sizes[lane];
  int moved = __shfl_down_sync(0xffffffff, v, threadIdx.x / 32);
  int last = __shfl_sync(0xffffffff, moved, 0);
  if (last > 3) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}

// Through a helper: the value is a parameter, the caller's argument decides.
__device__ int lastLane(int v) { return __shfl_sync(0xffffffff, v, 31); }

__global__ void helperOnLaneValue(const int *sizes, float *out) {
  __shared__ float tile[256];
  int last = lastLane(sizes[threadIdx.x % 32]);
  if (last > 3) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}

__global__ void helperOnThreadValue(const int *sizes, float *out) {
  __shared__ float tile[256];
  int last = lastLane(sizes[threadIdx.x]);
  if (last > 3) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}

// Launched with whole warps in x, so that threadIdx.x % 32 is the lane.
int main() {
  broadcastOfALaneLoad<<<8, 256>>>(nullptr, 0, nullptr);
  scanTotal<<<8, 256>>>(nullptr, nullptr);
  broadcastOfOwnSlice<<<8, 256>>>(nullptr, nullptr);
  sourceLaneByWarp<<<8, 256>>>(nullptr, nullptr);
  deltaByWarp<<<8, 256>>>(nullptr, nullptr);
  helperOnLaneValue<<<8, 256>>>(nullptr, nullptr);
  helperOnThreadValue<<<8, 256>>>(nullptr, nullptr);
}
