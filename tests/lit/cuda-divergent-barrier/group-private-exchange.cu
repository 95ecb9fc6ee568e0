// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.ReportPotential: true}}"
// Threads that return before a barrier, while the survivors read __shared__
// elements other threads wrote: harmless on NVIDIA GPUs since Volta when the
// exits leave by whole groups of W threads (threadIdx.x / W) and every
// access stays in the accessing thread's group, since then no survivor reads
// what an exited thread should have written. Such findings are potential
// and say so (checks/analysis/memory/GroupPrivateExchange.h). Seen in real
// code as stripes of a code word (HeCBench crs-cuda) and points of a pillar
// (TensorRT's voxel generator); the shapes here are our own.

// Stripes of w threads: each thread stores its element and reads its
// stripe's w elements. The tail of the block past the last whole stripe
// returns (whole stripes), and so do the threads past `size`, whole stripes
// only when size is a multiple of w: a fact of the caller, named.
__global__ void stripes(const long *in, long *out, int size) {
  extern __shared__ long buf[];
  int w = 5;
  int per_block = blockDim.x / w * w;
  const unsigned idx = per_block * blockIdx.x + threadIdx.x;
  if (threadIdx.x >= per_block)
    return;
  if (idx >= size)
    return;
  int start = (threadIdx.x / w) * w;
  buf[threadIdx.x] = in[idx];
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: the threads that returned count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :22:5: note: the threads that return leave by whole groups of 'w' (threadIdx.x / w), and every thread reads and writes __shared__ memory only in its own group's part
  // CHECK-MESSAGES-POTENTIAL: :23:14: note: groups stay whole here only if 'size' is a multiple of 'w', which the tool does not see
  long r = 0;
  for (int j = 0; j < w; j++)
    r ^= buf[start + j];
  out[idx] = r;
}

// Rows of a group: `points` threads per item, four items per block; every
// array's first subscript is the group. Exits on the item (whole groups)
// and on the place in the group, which is always below `points`.
__global__ void rows(int items, int points, const float *in, float *out) {
  const int per_item = points;
  int item = blockIdx.x * 4 + threadIdx.x / per_item;
  int point = threadIdx.x % per_item;
  if (point >= points)
    return;
  if (item >= items)
    return;
  __shared__ float tile[4][64];
  __shared__ int count[4];
  int g = threadIdx.x / per_item;
  if (point == 0)
    count[g] = in[item];
  tile[g][point] = in[item * points + point];
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: the threads that returned count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :45:5: note: the threads that return leave by whole groups of 'per_item' (threadIdx.x / per_item), and every thread reads and writes __shared__ memory only in its own group's part
  float sum = 0;
  for (int k = 0; k < count[g]; ++k)
    sum += tile[g][k];
  out[item] = sum;
}

// Still definite: the last thread of a stripe reads the next stripe's first
// element, which a thread past `size` may never have written.
__global__ void neighbour(const long *in, long *out, int size) {
  extern __shared__ long buf[];
  const int w = 4;
  const unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= size)
    return;
  buf[threadIdx.x] = in[idx];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[idx] = buf[(threadIdx.x / w) * w + (threadIdx.x % w + 1)];
}

// Still definite: the exit splits every group (a place in the group against
// a bound the block shares).
__global__ void splitGroups(const float *in, float *out, int n) {
  __shared__ float tile[8][32];
  const int lane = threadIdx.x % 32;
  if (lane >= n)
    return;
  tile[threadIdx.x / 32][lane] = in[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[threadIdx.x / 32][31 - lane];
}
