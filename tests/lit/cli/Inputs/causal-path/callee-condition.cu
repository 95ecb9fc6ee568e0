__device__ void syncIf(int x) {
  if (x > 0)
    return;
  __syncthreads();
}

__global__ void kernel(float *out) {
  int t = threadIdx.x;
  syncIf(t);
  out[t] = 0;
}
