// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.ReportPotential: true}}"
// An exit on `threadIdx.D >= bound`, with a bound that is the same for the
// whole block and not a literal, is taken only when the block is launched
// wider than the bound: a guard against an oversized launch. Shared-memory
// exchange after it is a bug only if such a launch happens, a fact of the
// launch site, so the finding is potential and names that fact (issue 14:
// ggml's bitonic argsort and triangular solve are launched with exactly
// `bound` threads, so nobody ever exits).

// Bitonic-sort shape: the block is as wide as the padded row; each thread
// writes its slot and reads its partner's. Potential.
__global__ void sortRow(const float *x, int *dst, int ncols, int ncols_pad) {
  int col = threadIdx.x;
  if (col >= ncols_pad)
    return;
  extern __shared__ int slots[];
  slots[col] = col;
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: only threads with threadIdx.x at or beyond 'ncols_pad' return, so this is a bug only if the kernel is launched with a block wider than that in x, which the tool does not see here [cuda-divergent-barrier]
  dst[blockIdx.x * ncols + col] = slots[ncols_pad - 1 - col];
}

// Solver shape: one warp per column, the column count from a template
// argument or a parameter, read through a const local. Potential.
template <int KTemplate>
__global__ void solveColumns(const float *a, float *x, int kArg) {
  const int k = KTemplate == 0 ? kArg : KTemplate;
  const int column = threadIdx.y;
  if (k <= column)
    return;
  __shared__ float tile[64 * 64];
  for (int i = threadIdx.x + threadIdx.y * blockDim.x; i < 64 * 64; i += k * 32)
    tile[i] = a[i];
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: only threads with threadIdx.y at or beyond 'k' return, so this is a bug only if the kernel is launched with a block wider than that in y, which the tool does not see here [cuda-divergent-barrier]
  x[column * 32 + threadIdx.x] = tile[threadIdx.x * 64 + column];
}
template __global__ void solveColumns<16>(const float *, float *, int);
template __global__ void solveColumns<0>(const float *, float *, int);

// The else branch of `threadIdx.x < n` is the same guard. Potential.
__global__ void elseGuard(float *out, unsigned n) {
  __shared__ float buf[1024];
  if (threadIdx.x < n) {
    out[threadIdx.x] += 1.0f;
  } else {
    return;
  }
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: only threads with threadIdx.x at or beyond 'n' return, so this is a bug only if the kernel is launched with a block wider than that in x, which the tool does not see here [cuda-divergent-barrier]
  out[threadIdx.x] = buf[n - 1 - threadIdx.x];
}

// A warp index against a uniform bound: only warps at or beyond it
// return, so only a block wider than 32 * warps makes anyone leave.
// Potential.
__global__ void warpRows(float *out, int warps) {
  __shared__ float buf[1024];
  int warp = threadIdx.x >> 5;
  if (warp >= warps)
    return;
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: only threads with threadIdx.x at or beyond '32 * warps' return, so this is a bug only if the kernel is launched with a block wider than that in x, which the tool does not see here [cuda-divergent-barrier]
  out[threadIdx.x] = buf[1023 - threadIdx.x];
}

// Not guards, definite as before:

// A literal bound trims the block on purpose.
__global__ void firstWarpOnly(float *out) {
  __shared__ float buf[64];
  if (threadIdx.x >= 32)
    return;
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = buf[31 - threadIdx.x];
}

// A global index runs past n in the last block, whatever the launch.
__global__ void globalIndex(float *out, int n) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  buf[threadIdx.x] = out[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[i] = buf[255 - threadIdx.x];
}

// The low threads leave: taken for any n > 0.
__global__ void lowSide(float *out, int n) {
  __shared__ float buf[256];
  if (threadIdx.x < n)
    return;
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = buf[255 - threadIdx.x];
}

// The local no longer holds threadIdx.x when it is compared.
__global__ void shiftedIndex(float *out, int n) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  t += 16;
  if (t >= n)
    return;
  buf[threadIdx.x] = out[t];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[t] = buf[255 - threadIdx.x];
}
