// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A device function handed the caller's thread index as an argument (nccl's
// `RunWorkColl<...>().run(tid, nthreads, work)`, a cta lambda's `tid`) is
// judged as that call calls it: the argument's arithmetic facts (it is the
// linear thread index) hold for its parameter, and the function runs in the
// blocks its callers' launches give. Here the loop keeps the whole block in
// the same iteration only because `idx - tid` is the block's first index.

__device__ void blockRows(unsigned tid, long n, const float *in, float *out) {
  __shared__ float staged[128];
  long idx = tid + (long)blockDim.x * blockIdx.x;
  while (idx - tid < n) {
    staged[tid] = idx < n ? in[idx] : 0.f;
    __syncthreads();
    if (idx < n)
      out[idx] = staged[(tid + 1) % 128];
    __syncthreads();
    idx += (long)gridDim.x * blockDim.x;
  }
}

// Launched 1-D: the loop is block-uniform.
__global__ void byThreadIndex(long n, const float *in, float *out) {
  blockRows(threadIdx.x, n, in, out);
  __syncthreads();
}

// A shifted index: `idx - tid` is the block's first index all the same.
__global__ void byShiftedIndex(long n, const float *in, float *out) {
  blockRows(threadIdx.x + 1, n, in, out);
  __syncthreads();
}

// A per-thread value with no lane form: each thread's own trip count.
__global__ void byLoadedIndex(const unsigned *order, long n, const float *in,
                              float *out) {
  blockRows(order[threadIdx.x], n, in, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'blockRows' reaches '__syncthreads()' under control flow that diverges within the block (via call) [cuda-divergent-barrier]
  __syncthreads();
}

__device__ void rowsOf2D(unsigned tid, long n, float *out) {
  long idx = tid + (long)blockDim.x * blockDim.y * blockIdx.x;
  while (idx - tid < n) {
    __syncthreads();
    out[idx] = 0;
    idx += (long)gridDim.x * blockDim.x * blockDim.y;
  }
}

// Launched 2-D and handed threadIdx.x, which is not the linear index there.
__global__ void byRowIndex(long n, float *out) {
  rowsOf2D(threadIdx.x, n, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'rowsOf2D' reaches '__syncthreads()' under control flow that diverges within the block (via call) [cuda-divergent-barrier]
  __syncthreads();
}

void launch(const unsigned *order, long n, const float *in, float *out) {
  byThreadIndex<<<8, 128>>>(n, in, out);
  byShiftedIndex<<<8, 128>>>(n, in, out);
  byLoadedIndex<<<8, 128>>>(order, n, in, out);
  byRowIndex<<<8, dim3(32, 4)>>>(n, out);
}
