// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Barriers after a jump that only some threads of the block took.

// The most common form of the bug: a bounds check that returns early, then
// shared-memory work with a barrier. On an H200 it completes silently.
__global__ void earlyReturn(float *out, const float *in, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' depends on 'threadIdx.x'
  out[i] = s[(threadIdx.x + 1) % blockDim.x];
}

// The same check on a block-uniform index is fine: whole blocks return.
__global__ void blockUniformReturn(float *out, int rows) {
  __shared__ float s[256];
  int row = blockIdx.x;
  if (row >= rows)
    return;
  s[threadIdx.x] = row;
  __syncthreads();
  out[row * blockDim.x + threadIdx.x] = s[0];
}

// break out of a loop whose exit some threads take early: the barrier later
// in the body is then waited for by the others only.
__global__ void breakOutOfLoop(const int *keys, int *out, int n) {
  __shared__ int s[256];
  for (int k = 0; k < n; ++k) {
    int key = keys[k * blockDim.x + threadIdx.x];
    if (key < 0)
      break;
    s[threadIdx.x] = key;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: threads that take this 'break' skip the barrier
    // CHECK-NOTES: :[[@LINE-8]]:9: note: 'key' depends on 'threadIdx.x'
    out[k] = s[0];
  }
  // After the loop every thread is back: no warning here.
  __syncthreads();
}

// continue skips the rest of this iteration's body, barrier included.
__global__ void continueSkipsBarrier(const float *in, float *out, int steps) {
  __shared__ float s[256];
  for (int step = 0; step < steps; ++step) {
    float v = in[step * blockDim.x + threadIdx.x];
    if (v == 0.0f)
      continue;
    s[threadIdx.x] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: threads that take this 'continue' skip the barrier
    // CHECK-NOTES: :[[@LINE-8]]:11: note: 'v' depends on 'threadIdx.x'
    out[step] += s[0];
  }
}

// goto past the barrier.
__global__ void gotoSkipsBarrier(int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t >= n)
    goto done;
  s[t] = t;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (goto) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'goto' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 't' depends on 'threadIdx.x'
  out[t] = s[n - 1 - t];
done:
  out[t] += 1;
}

// An early return on a lane condition inside a device function is reported
// where it happens.
__device__ void stageAndSync(float *s, float v) {
  if (threadIdx.x % 32 >= 16)
    return;
  s[threadIdx.x] = v;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
}

// Returning on a kernel parameter is uniform: every thread returns or none.
__global__ void parameterReturn(float *out, int enabled) {
  if (!enabled)
    return;
  __syncthreads();
  out[threadIdx.x] = 1.0f;
}
