// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Tiled algorithms whose loads and stores are guarded per thread while the
// barriers stay at block level. Only the last kernel, a stencil that returns
// before its halo barrier, is a bug.

#define TILE 16
#define RADIUS 3
#define BLOCK 256

// Shared-memory tiled matrix multiply with bounds checks on the loads.
__global__ void tiledMatmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    As[ty][tx] = (row < n && t * TILE + tx < n) ? A[row * n + t * TILE + tx]
                                                : 0.0f;
    if (col < n && t * TILE + ty < n)
      Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    else
      Bs[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// 1D stencil: the halo is loaded by the first RADIUS threads only.
__global__ void stencil1d(const int *in, int *out, int n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  temp[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
    temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
  }
  __syncthreads();
  int result = 0;
  for (int off = -RADIUS; off <= RADIUS; ++off)
    result += temp[l + off];
  if (g < n)
    out[g] = result;
}

// 2D five-point stencil over a tile with a one-cell apron.
__global__ void stencil2d(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE + 2][TILE + 2];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  bool inside = x < w && y < h;
  tile[threadIdx.y + 1][threadIdx.x + 1] = inside ? in[y * w + x] : 0.0f;
  if (threadIdx.x == 0)
    tile[threadIdx.y + 1][0] = x > 0 && y < h ? in[y * w + x - 1] : 0.0f;
  if (threadIdx.x == TILE - 1)
    tile[threadIdx.y + 1][TILE + 1] =
        x + 1 < w && y < h ? in[y * w + x + 1] : 0.0f;
  if (threadIdx.y == 0)
    tile[0][threadIdx.x + 1] = y > 0 && x < w ? in[(y - 1) * w + x] : 0.0f;
  if (threadIdx.y == TILE - 1)
    tile[TILE + 1][threadIdx.x + 1] =
        y + 1 < h && x < w ? in[(y + 1) * w + x] : 0.0f;
  __syncthreads();
  if (inside)
    out[y * w + x] = tile[threadIdx.y + 1][threadIdx.x + 1] * 4.0f -
                     tile[threadIdx.y][threadIdx.x + 1] -
                     tile[threadIdx.y + 2][threadIdx.x + 1] -
                     tile[threadIdx.y + 1][threadIdx.x] -
                     tile[threadIdx.y + 1][threadIdx.x + 2];
}

// Matrix transpose through a padded shared tile.
__global__ void transposeTile(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w)
    out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

// Bitonic sort of one block in shared memory.
__global__ void bitonicSort(int *values) {
  __shared__ int s[BLOCK];
  unsigned tid = threadIdx.x;
  s[tid] = values[blockIdx.x * BLOCK + tid];
  __syncthreads();
  for (unsigned k = 2; k <= BLOCK; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned partner = tid ^ j;
      if (partner > tid) {
        bool ascending = (tid & k) == 0;
        if ((s[tid] > s[partner]) == ascending) {
          int t = s[tid];
          s[tid] = s[partner];
          s[partner] = t;
        }
      }
      __syncthreads();
    }
  }
  values[blockIdx.x * BLOCK + tid] = s[tid];
}

// The stencil with an early bounds return before its barrier: the last
// block's tail threads leave and the rest wait at a barrier they skip.
__global__ void stencilEarlyReturn(const int *in, int *out, int n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  int l = threadIdx.x + RADIUS;
  temp[l] = in[g];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-6]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-9]]:7: note: 'g' depends on 'threadIdx.x'
  out[g] = temp[l - 1] + temp[l] + temp[l + 1];
}
