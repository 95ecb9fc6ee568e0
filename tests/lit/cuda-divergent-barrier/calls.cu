// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Barriers reached through calls: a function that executes a barrier needs
// its callers converged, and a function whose barrier depends on a parameter
// needs a uniform argument.

__device__ void loadTile(float *tile, const float *src) {
  tile[threadIdx.x] = src[threadIdx.x];
  __syncthreads();
}

__global__ void helperUnderBranch(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    loadTile(tile, in + blockIdx.x * blockDim.x);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call to 'loadTile' reaches '__syncthreads()' under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:7: note: 'i' depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-11]]:3: note: '__syncthreads()' is called here
  if (i < n)
    out[i] = tile[threadIdx.x];
}

// Two levels down: the note still points at the barrier itself.
__device__ void stage(float *tile, const float *src) { loadTile(tile, src); }

__global__ void nestedHelperAfterReturn(float *out, const float *in, int n) {
  __shared__ float tile[256];
  if (threadIdx.x >= n)
    return;
  stage(tile, in);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'stage' reaches '__syncthreads()' under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-4]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-27]]:3: note: '__syncthreads()' is called here
  out[threadIdx.x] = tile[0];
}

// Called at the top level of the kernel: fine.
__global__ void helperConverged(float *out, const float *in) {
  __shared__ float tile[256];
  loadTile(tile, in);
  stage(tile, in);
  out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

// The barrier depends on a parameter: uniform arguments are fine, a
// thread-dependent one splits the block inside the callee.
__device__ void maybeSync(int count, float *s) {
  if (count > 0) {
    s[threadIdx.x] += 1.0f;
    __syncthreads();
  }
}

__global__ void argumentDecides(float *data, int rounds) {
  __shared__ float s[256];
  maybeSync(rounds, s);
  maybeSync(blockIdx.x, s);
  int mine = static_cast<int>(data[threadIdx.x]);
  maybeSync(mine, s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'maybeSync' reaches '__syncthreads()' under control flow that diverges within the block (via call) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: this argument is not uniform across the block
  // CHECK-NOTES: :[[@LINE-4]]:7: note: 'mine' depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-15]]:7: note: this condition in 'maybeSync' depends on it
  // CHECK-NOTES: :[[@LINE-14]]:5: note: '__syncthreads()' is called here
}

// A lambda that synchronises, called for some threads only.
__global__ void lambdaUnderBranch(int *out) {
  __shared__ int s[256];
  auto publish = [&](int v) {
    s[threadIdx.x] = v;
    __syncthreads();
    return s[0];
  };
  out[blockIdx.x] = publish(1);
  if (threadIdx.x < 32)
    out[threadIdx.x] = publish(2);
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: call to 'publish' reaches '__syncthreads()' under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-8]]:5: note: '__syncthreads()' is called here
}

// A function template instantiated twice: reported once.
template <int Width>
__device__ void publishRow(int *s) {
  s[threadIdx.x] = Width;
  __syncthreads();
}

template <int Width>
__global__ void rowKernel(int *out) {
  __shared__ int s[1024];
  if (threadIdx.x < Width)
    publishRow<Width>(s);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call to 'publishRow' reaches '__syncthreads()' under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-10]]:3: note: '__syncthreads()' is called here
  out[threadIdx.x] = s[0];
}

template __global__ void rowKernel<64>(int *);
template __global__ void rowKernel<128>(int *);

// A helper without a barrier is free to be called anywhere.
__device__ float square(float x) { return x * x; }

__global__ void plainHelperUnderBranch(float *data) {
  if (threadIdx.x % 2)
    data[threadIdx.x] = square(data[threadIdx.x]);
  __syncthreads();
}
