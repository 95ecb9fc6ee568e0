__device__ void barrier() { __syncthreads(); }

__global__ void kernel(float *out, int n) {
  if (n > 3) {
    int t = threadIdx.x;
    if (t < 8)
      barrier();
  }
  out[0] = 0;
}
