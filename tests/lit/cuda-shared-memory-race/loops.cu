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
