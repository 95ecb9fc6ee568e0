// An early return before a barrier; each thread reads back only its own
// element (potential on CUDA, a hang under HIP).
__global__ void ownElement(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.x];
}
