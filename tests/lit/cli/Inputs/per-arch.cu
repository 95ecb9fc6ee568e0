// A barrier that diverges only where __CUDA_ARCH__ >= 900 (the branch
// around it is compiled for Hopper and newer), and one every arch sees.
__global__ void hopperOnly(float *Out) {
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x < 16)
#endif
    __syncthreads();
  Out[threadIdx.x] = 1.0f;
  __syncthreads();
}
__global__ void everyArch(float *Out) {
  if (threadIdx.x < 16)
    __syncthreads();
  Out[threadIdx.x] = 2.0f;
  __syncthreads();
}
