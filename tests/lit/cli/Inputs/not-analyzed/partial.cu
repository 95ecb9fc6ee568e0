// One file, three kernels: two do not compile and are left out (their
// divergent barriers are not reported: what clang recovered of them is no
// ground for a finding); the third compiles and is analyzed.
__global__ void callsUndeclared(float *out) {
  undeclaredHelper(out);
  if (threadIdx.x < 5)
    __syncthreads();
  __syncthreads();
}

template <class T> __global__ void badInstance(T *out) {
  out[threadIdx.x].missingMember = 0;
  if (threadIdx.x < 7)
    __syncthreads();
  __syncthreads();
}
template __global__ void badInstance<int>(int *);

__global__ void compiles(float *out) {
  if (threadIdx.x < 9)
    __syncthreads();
  out[threadIdx.x] = 1.0f;
  __syncthreads();
}
