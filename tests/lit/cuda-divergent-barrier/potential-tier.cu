// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.ReportPotential: true}}"
// Two tiers for a barrier after an early `return` from the kernel. Since
// Volta a block barrier waits only for threads that have not exited, so the
// code is wrong only when a surviving thread reads, after the barrier,
// shared memory an exited thread should have written. That is a definite
// finding, on by default; without such a read the finding is potential, off
// unless ReportPotential is set, and its message names the missing fact.

// A surviving thread reads its neighbour's element: the last surviving
// thread reads what the first exited one never wrote. Definite.
__global__ void neighbourAfterExit(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[i] = tile[(threadIdx.x + 1) % 256];
}

// Two loops over one shared array: each thread fills elements another
// thread may read. Definite.
__global__ void stridedLoops(float *out, int n, int c) {
  __shared__ float acc[1024];
  if (blockIdx.x * blockDim.x + threadIdx.x >= n)
    return;
  for (int k = threadIdx.x; k < c; k += blockDim.x)
    acc[k] = 0;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  for (int j = threadIdx.x; j < c; j += blockDim.x)
    out[j] = acc[c - 1 - j];
}

// Each thread reads back only its own element: nothing crosses the barrier
// from an exited thread. Potential.
__global__ void ownElement(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: the threads that returned count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
  out[i] = tile[threadIdx.x] * 2.0f;
}

// A `return` from a __device__ function leaves the threads alive in the
// caller, where they never reach the barrier. Definite.
__device__ void guardedSync(int n) {
  if (threadIdx.x >= n)
    return;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
}

// A branch the skipping threads run past to the end of the kernel, with no
// barrier after it: they leave as threads that return do, and nothing they
// should have written is read. Potential (leaving-threads.cu has the rest).
__global__ void branchThenLeave(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __syncthreads();
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch); potential: the threads that skip it leave the kernel with no other barrier and count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
    out[i] = 1.0f;
  }
}

// A branch, not an exit: the skipping threads are alive and wait at the
// next barrier. Definite in both tiers.
__global__ void branchNotExit(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[i] = 1.0f;
  }
  __syncthreads();
}

// One extern __shared__ buffer carved into parts through local pointers
// (llm.c's layernorm backward): whole warps return, the rest zero-fill the
// parts block-strided and read back elements the exited warps should have
// zeroed. Definite.
__global__ void carvedBuffer(float *out, int n, int c) {
  extern __shared__ float shared[];
  if (blockIdx.x * 8 + threadIdx.x / 32 >= n)
    return;
  float *bias = shared;
  float *weight = shared + c;
  for (int i = threadIdx.x; i < c; i += blockDim.x) {
    bias[i] = 0.0f;
    weight[i] = 0.0f;
  }
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  for (int j = threadIdx.x; j < c; j += blockDim.x)
    out[j] = bias[j] + weight[j];
}
