// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Row-wise kernels (softmax, layer norm) that call block-reduction helpers,
// and shared-memory histograms. The helpers contain barriers, so where they
// are called matters.

__device__ float warpMax(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Block-wide max and sum: warp results through shared memory, broadcast.
__device__ float blockMax(float v) {
  __shared__ float s[32];
  __shared__ float result;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpMax(v);
  if (lane == 0)
    s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? s[lane] : -INFINITY;
    v = warpMax(v);
    if (lane == 0)
      result = v;
  }
  __syncthreads();
  return result;
}

__device__ float blockSum(float v) {
  __shared__ float s[32];
  __shared__ float result;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSum(v);
  if (lane == 0)
    s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? s[lane] : 0.0f;
    v = warpSum(v);
    if (lane == 0)
      result = v;
  }
  __syncthreads();
  return result;
}

// Softmax, one block per row: rows past the end leave as a whole block.
__global__ void softmaxRows(const float *x, float *y, int rows, int cols) {
  int row = blockIdx.x;
  if (row >= rows)
    return;
  const float *in = x + row * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, in[c]);
  m = blockMax(m);
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    sum += __expf(in[c] - m);
  sum = blockSum(sum);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[row * cols + c] = __expf(in[c] - m) / sum;
}

// Layer norm, one block per row; the row loop is block-uniform.
__global__ void layerNorm(const float *x, float *y, const float *gamma,
                          const float *beta, int rows, int cols) {
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    float s = 0.0f, sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
      float v = x[row * cols + c];
      s += v;
      sq += v * v;
    }
    float mean = blockSum(s) / cols;
    float var = blockSum(sq) / cols - mean * mean;
    float inv = rsqrtf(var + 1e-5f);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
      y[row * cols + c] = (x[row * cols + c] - mean) * inv * gamma[c] + beta[c];
  }
}

// Softmax with one warp per row and a per-warp early exit: no block barrier
// anywhere, so nothing to report.
__global__ void softmaxWarpPerRow(const float *x, float *y, int rows,
                                  int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  m = warpMax(m);
  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32)
    sum += __expf(x[row * cols + c] - m);
  sum = warpSum(sum);
  for (int c = lane; c < cols; c += 32)
    y[row * cols + c] = __expf(x[row * cols + c] - m) / sum;
}

// The same warp-per-row layout calling the block-wide helper: warps whose
// row is past the end have left, the others wait for them in blockSum.
__global__ void warpRowsCallingBlockSum(const float *x, float *y, int rows) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (row >= rows)
    return;
  float total = blockSum(x[row * 32 + threadIdx.x % 32]);
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: call to 'blockSum' reaches '__syncthreads()' under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-4]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-7]]:7: note: 'row' depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-78]]:3: note: '__syncthreads()' is called here
  y[row] = total;
}

// Histogram privatised in shared memory: zero, accumulate with shared
// atomics, merge. The loops are block-stride and grid-stride, the barriers
// between them.
__global__ void sharedHistogram(const unsigned char *data, int n,
                                unsigned *bins) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b] != 0)
      atomicAdd(&bins[b], local[b]);
}

// The histogram with a bounds return before the merge barrier.
__global__ void histogramEarlyReturn(const unsigned char *data, int n,
                                     unsigned *bins) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' depends on 'threadIdx.x'
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// A histogram whose merge is skipped by the blocks with no work: a
// block-uniform condition, so the barrier inside is fine.
__global__ void histogramSkipEmptyBlocks(const unsigned char *data, int n,
                                         unsigned *bins) {
  __shared__ unsigned local[256];
  __shared__ int any;
  if (threadIdx.x == 0)
    any = 0;
  local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&local[data[i]], 1u);
    any = 1;
  }
  __syncthreads();
  if (any) {
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
  }
}
