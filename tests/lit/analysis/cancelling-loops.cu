// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A loop whose start and bound move with the thread index by the same term
// runs the same number of times in every thread: the term cancels.

// ggml's wkv/gla shape: each thread walks its own column, all for T steps.
__global__ void columnWalk(int T, int C, float *out, const float *in) {
  __shared__ float row[64];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * T * C;
  for (int t = base + tid; t < base + T * C + tid; t += C) {
    __syncthreads();
    row[tid] = in[t];
    __syncthreads();
    out[t] = row[(tid + 1) % 64];
  }
}

// The bound does not move with the thread: trip counts differ.
__global__ void stridedTail(int n, float *out) {
  for (int t = threadIdx.x; t < n; t += 64) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    out[t] = 0;
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// The shared term changes inside the loop: no longer the same on both sides.
__global__ void termReassigned(int n, float *out) {
  int tid = threadIdx.x;
  for (int t = tid; t < n + tid; t += 64) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    tid = (int)out[t];
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// The remaining addends are themselves thread-dependent.
__global__ void varyingLength(const int *len, float *out) {
  const int tid = threadIdx.x;
  for (int t = tid; t < len[tid] + tid; ++t) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    out[t] = 0;
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}
