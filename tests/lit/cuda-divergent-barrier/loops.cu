// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Barriers inside loops: fine when every thread of the block runs the same
// number of iterations, a bug when the trip count depends on the thread.

// A grid-stride loop: the last iterations run only for the threads whose
// index is still below n.
__global__ void gridStrideWithBarrier(float *x, int n) {
  __shared__ float s[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = x[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:55: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:12: note: 'i' depends on 'threadIdx.x'
    x[i] = s[(threadIdx.x + 1) % blockDim.x];
  }
}

// The trip count comes from data each thread loads for itself.
__global__ void perThreadWhile(const int *work, int *out) {
  int v = work[blockIdx.x * blockDim.x + threadIdx.x];
  int steps = 0;
  while (v > 0) {
    v >>= 1;
    ++steps;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:10: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-8]]:7: note: 'v' depends on 'threadIdx.x'
  }
  out[threadIdx.x] = steps;
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// A do-while runs once for everybody, then as often as each thread's
// condition says.
__global__ void doWhileOnData(const float *in, float *out) {
  __shared__ float s[256];
  float err = in[threadIdx.x];
  do {
    s[threadIdx.x] = err;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:9: note: 'err' depends on 'threadIdx.x'
    err = err * 0.5f - s[0] * 0.01f;
  } while (err > 1e-3f);
  out[threadIdx.x] = err;
}

// A block-stride loop over a fixed-size array: threads with a higher index
// run one iteration fewer when 300 is not a multiple of the block size.
__global__ void blockStrideOverFixedSize(float *data) {
  __shared__ float s[300];
  for (int j = threadIdx.x; j < 300; j += blockDim.x) {
    s[j] = data[j];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:12: note: 'j' depends on 'threadIdx.x'
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// The persistent-kernel bug: each thread grabs its own work item.
__global__ void persistentPerThreadTicket(int *next, const int *items,
                                          int *out, int count) {
  __shared__ int s[256];
  while (true) {
    int item = atomicAdd(next, 1);
    if (item >= count)
      break;
    s[threadIdx.x] = items[item];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: threads that take this 'break' skip the barrier
    // CHECK-NOTES: :[[@LINE-8]]:9: note: 'item' depends on the result of 'atomicAdd'
    out[item] = s[0];
  }
}

// The persistent kernel done right: thread 0 takes a ticket for the block
// and shares it; everyone reads it after a barrier. No warning.
__global__ void persistentBlockTicket(int *next, const int *items, int *out,
                                      int count) {
  __shared__ int ticket;
  __shared__ int s[256];
  while (true) {
    if (threadIdx.x == 0)
      ticket = atomicAdd(next, 1);
    __syncthreads();
    int item = ticket;
    if (item >= count)
      break;
    s[threadIdx.x] = items[item * blockDim.x + threadIdx.x];
    __syncthreads();
    out[item * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
  }
}

// Persistent over tiles with a block-uniform index: every thread of a block
// runs the same iterations. No warning.
__global__ void persistentTiles(float *a, int tiles, int tileSize) {
  __shared__ float s[256];
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    s[threadIdx.x] = a[tile * tileSize + threadIdx.x];
    __syncthreads();
    a[tile * tileSize + threadIdx.x] = s[tileSize - 1 - threadIdx.x];
    __syncthreads();
  }
}

// Uniform trip counts: constants, parameters, blockDim. No warning.
__global__ void uniformLoops(float *a, int n) {
  __shared__ float s[256];
  for (int k = 0; k < 8; ++k) {
    s[threadIdx.x] = a[k * blockDim.x + threadIdx.x];
    __syncthreads();
  }
  for (int k = 0; k < n; ++k)
    __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2)
    __syncthreads();
  // A loop whose own exit is per thread, with the barrier after it.
  float v = a[threadIdx.x];
  while (v > 1.0f)
    v *= 0.5f;
  __syncthreads();
  a[threadIdx.x] = v;
}
