// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.ReportPotential: true}}"
// Threads that skip the branch (or leave the loop) holding a barrier, and
// meet no block barrier again, leave the kernel: since Volta they count as
// arrived, as threads that returned do (divergence/ExitedThreads.h). The
// barrier is then a bug only if a surviving thread reads what a leaving one
// should have written, and hangs under HIP. Otherwise the finding is
// potential, off by default.

// The bounds check of a tail block, the barrier inside: survivors read back
// only their own element. Potential.
__global__ void tailBlock(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch); potential: the threads that skip it leave the kernel with no other barrier and count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
    out[i] = tile[threadIdx.x] * 2;
  }
}

// A survivor reads its neighbour's element, which the last thread's
// neighbour never wrote. Definite.
__global__ void tailExchange(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[i] = tile[(threadIdx.x + 1) % 256];
  }
}

// The threads that skip the branch wait at the next barrier while the others
// wait at the first: not a leave. Definite.
__global__ void barrierAfterTheBranch(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  }
  __syncthreads();
  out[i] = tile[threadIdx.x];
}

// The other arm holds a barrier of its own. Definite.
__global__ void barrierInTheOtherArm(float *out, int n) {
  __shared__ float tile[256];
  if (threadIdx.x < n) {
    tile[threadIdx.x] = 1;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[threadIdx.x] = tile[threadIdx.x];
  } else {
    // The same condition: one finding per cause (GroupByCause), the one
    // above, whose note names this barrier.
    __syncthreads();
  }
}

// Inside a loop of the kernel the threads come back to the barrier on the
// next iteration. Definite.
__global__ void insideALoop(float *out, int n, int steps) {
  __shared__ float tile[256];
  for (int s = 0; s < steps; ++s) {
    if (threadIdx.x < n) {
      tile[threadIdx.x] = s;
      __syncthreads();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
      // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:7: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
      out[threadIdx.x] += tile[threadIdx.x];
    }
  }
}

// A grid-stride loop with a barrier inside and nothing after it: the threads
// whose last index comes first leave the loop, and the kernel. Potential.
__global__ void gridStride(const float *in, float *out, int n) {
  __shared__ float tile[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count); potential: the threads that skip it leave the kernel with no other barrier and count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
    out[i] = tile[threadIdx.x];
    // The same loop condition: one finding per cause (GroupByCause).
    __syncthreads();
  }
}

// A break out of the loop, and no barrier after the loop. Potential.
__global__ void breakOut(const int *flags, float *out, int steps) {
  __shared__ float tile[256];
  for (int s = 0; s < steps; ++s) {
    if (flags[s * 256 + threadIdx.x] < 0)
      break;
    tile[threadIdx.x] = s;
    __syncthreads();
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit); potential: the threads that skip it leave the kernel with no other barrier and count as arrived, so this is a bug only if a surviving thread reads what an exited one should have written, which the tool does not see here [cuda-divergent-barrier]
    out[s * 256 + threadIdx.x] = tile[threadIdx.x];
  }
}

// A helper that synchronizes, called after the branch: the leavers meet it.
__device__ void stage(float *tile) { __syncthreads(); tile[threadIdx.x] = 0; }
__global__ void helperAfterTheBranch(float *out, int n) {
  __shared__ float tile[256];
  if (threadIdx.x < n) {
    tile[threadIdx.x] = 1;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    out[threadIdx.x] = tile[threadIdx.x];
  }
  stage(tile);
}
