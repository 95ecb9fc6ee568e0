// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// RUN: %check_cuda_tidy -check-suffix=CUDA %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.Platforms: cuda}}"
// A file that tests a HIP platform macro is also built for AMD GPUs, where a
// thread that returned never arrives at a block barrier: an early return
// before __syncthreads() hangs there, whatever the survivors read. The CUDA
// rule (exited threads count as arrived since Volta) keeps the same kernel
// in the potential tier, off by default (the CUDA run below, where the
// option says the code is for CUDA only, reports nothing but the definite
// finding both platforms share).

#ifdef USE_ROCM
#define WARPS_PER_ROW 2
#else
#define WARPS_PER_ROW 1
#endif

// Each thread reads back only its own element, so on NVIDIA nothing is lost
// by the threads that returned; under HIP the barrier never completes.
__global__ void ownElementAfterExit(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i] * WARPS_PER_ROW;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit): the threads that returned skip this barrier, a hang on AMD GPUs under HIP, where exited threads do not count as arrived (on NVIDIA since Volta it completes) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' depends on 'threadIdx.x'
  // CHECK-NOTES: {{.*}}.cu:{{[0-9]+}}:1: note: this code is also built for HIP: it tests 'USE_ROCM'
  out[i] = tile[threadIdx.x];
}

// A survivor reads an exited thread's element: wrong on both platforms, the
// same definite finding as in CUDA-only code.
__global__ void neighbourAfterExit(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' depends on 'threadIdx.x'
  // CHECK-MESSAGES-CUDA: :[[@LINE-5]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[i] = tile[(threadIdx.x + 1) % 256];
}

// A return from a __device__ function leaves the thread alive in its
// caller: not an exit, on either platform.
__device__ void fill(float *tile, const float *in, int i, int n) {
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
}
__global__ void returnFromHelper(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  fill(tile, in, i, n);
  __syncthreads();
  out[i] = tile[threadIdx.x];
}

// Only threads at or beyond a block-uniform bound return: whether anyone
// exits is a fact of the launch (launched with blockDim.x == ncols, nobody
// does), on HIP as on CUDA, so the finding stays potential on both.
__global__ void launchGuardedExit(float *out, const float *in, int ncols) {
  __shared__ float row[256];
  const int col = threadIdx.x;
  if (col >= ncols)
    return;
  row[col] = in[blockIdx.x * ncols + col];
  __syncthreads();
  out[blockIdx.x * ncols + col] = row[col];
}
