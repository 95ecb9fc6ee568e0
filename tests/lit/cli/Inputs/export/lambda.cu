// A CMake + nvcc project's file: a device lambda (nvcc needs
// --extended-lambda, which clang rejects as a flag) and host max().
__global__ void scaleHalf(float *x) {
  auto twice = [] __device__(float v) { return v * 2.0f; };
  if (threadIdx.x < 16)
    __syncthreads();
  x[threadIdx.x] = twice(x[threadIdx.x]);
  __syncthreads();
}
int larger(int a, int b) { return max(a, b); }
