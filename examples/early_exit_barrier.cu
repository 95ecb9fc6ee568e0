// The classic bug: threads past the end of the data leave early, and the
// rest wait at a barrier the leavers never reach (cuda-divergent-barrier).
__global__ void scale(float *data, int n, float factor) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = data[i];
  __syncthreads();
  data[i] = tile[(threadIdx.x + 1) % blockDim.x] * factor;
}
