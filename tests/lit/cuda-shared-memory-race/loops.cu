// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// Which iterations meet: a block-strided loop inside a loop whose every step
// starts with a barrier is a barrier-free cycle of its own, and its accesses
// meet in any of its iterations but only in one step of the loop around it.
// Without that barrier the steps meet too, and the tree races.
__global__ void stepsWithLeadingBarrier(float *out, const float *in) {
  __shared__ float acc[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    acc[i] = in[blockIdx.x * 1024 + i];
  for (int width = 512; width > 0; width /= 2) {
    __syncthreads();
    for (int i = threadIdx.x; i < width; i += blockDim.x)
      acc[i] += acc[i + width];
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc[0];
}
__global__ void stepsWithoutBarrier(float *out, const float *in) {
  __shared__ float acc[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    acc[i] = in[blockIdx.x * 1024 + i];
  __syncthreads();
  for (int width = 512; width > 0; width /= 2) {
    for (int i = threadIdx.x; i < width; i += blockDim.x)
      acc[i] += acc[i + width];
      // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: data race on __shared__ 'acc'
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = acc[0];
}
// A trailing barrier under a guard that repeats the loop's own condition is
// taken in every iteration: the body changes neither j nor Cols, so the next
// column's stores into the warp partials wait for this column's reads.
template <int Cols>
__global__ void columnsWithGuardedBarrier(float *out, const float *in) {
  __shared__ float partial[32];
  const int tid = threadIdx.x;
  float sum[Cols];
  for (int j = 0; j < Cols; ++j) {
    sum[j] = in[j * blockDim.x + tid];
    partial[tid / 32] = sum[j];
    __syncthreads();
    if (tid < 32)
      sum[j] = partial[tid];
    if (j < Cols)
      __syncthreads();
  }
  if (tid < Cols)
    out[tid] = sum[tid];
}
// With a guard on another value the barrier can be skipped (cols < n), and
// the next column's store meets the first warp's read.
__global__ void columnsWithOtherGuard(float *out, const float *in, int n,
                                      int cols) {
  __shared__ float partial[32];
  const int tid = threadIdx.x;
  float last = 0.0f;
  for (int j = 0; j < n; ++j) {
    partial[tid / 32] = in[j * blockDim.x + tid];
    __syncthreads();
    if (tid < 32)
      last += partial[tid];
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data race on __shared__ 'partial': thread 1 reads partial[1] while thread 32 writes it, with no block barrier between the two accesses (in different iterations of the loop: it has no barrier on its way back)
    if (j < cols)
      __syncthreads();
  }
  out[tid] = last;
}
// The launches give the block (else a guess bounded by partial's 32 cells
// would put every thread in one warp).
void launchColumns(float *out, const float *in, int n, int cols) {
  columnsWithGuardedBarrier<4><<<1, 256>>>(out, in);
  columnsWithOtherGuard<<<1, 256>>>(out, in, n, cols);
}
