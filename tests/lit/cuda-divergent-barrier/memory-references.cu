// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A local reference bound to memory (an element of a __shared__ array, a
// field through a pointer, a __shared__ scalar) holds no value of its own:
// every read through it is a load of that memory. One thread's store
// through it is seen by the whole block after a barrier, so a branch on
// what the block reads there is block-uniform, exactly as it is when the
// code names the array element directly. A reference to a local stays the
// thread's own value.

// Scalars kept at the front of dynamic shared memory and named through
// references; one thread picks a bin, everyone reads it after the barrier.
__global__ void scalarsThroughReferences(const int *in, int *out, int k) {
  extern __shared__ char smem[];
  int *scalars = reinterpret_cast<int *>(smem);
  int &picked = scalars[1];
  int &count = scalars[0];
  int *hist = reinterpret_cast<int *>(smem + 64);
  if (threadIdx.x < 256 && hist[threadIdx.x] > k && hist[threadIdx.x + 1] <= k) {
    picked = threadIdx.x;
    count = 0;
  }
  __syncthreads();
  const int bin = picked;
  int remaining = k - hist[bin + 1];
  if (remaining == 0) {
    __syncthreads();
    out[blockIdx.x] = bin;
    return;
  }
  __syncthreads();
  if (count > 0)
    __syncthreads();
  out[threadIdx.x] = in[threadIdx.x] + remaining;
}

// The same with a __shared__ scalar and a field reached through a pointer.
struct Header {
  int round;
  int done;
};

__global__ void fieldsThroughPointer(Header *header, float *data) {
  __shared__ int flag;
  int &stop = flag;
  int &done = header->done;
  if (threadIdx.x == 0) {
    stop = data[blockIdx.x] > 0.f;
    done = 1;
  }
  __syncthreads();
  if (stop)
    __syncthreads();
  if (done)
    __syncthreads();
}

// A reference to the thread's own local is the thread's value: a branch on
// it is divergent. (The last barrier keeps the threads that skip the branch
// in the kernel, so the finding is definite.)
__global__ void referenceToLocal(float *out) {
  int mine = 0;
  int &alias = mine;
  if (threadIdx.x % 2)
    alias = 1;
  if (alias) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  }
  out[threadIdx.x] = mine;
  __syncthreads();
}

// A store through the reference is a store to the local it names: the local
// diverges at the join as if it had been stored by name.
__global__ void localWrittenThroughReference(float *out) {
  int mine = 0;
  int &alias = mine;
  if (threadIdx.x % 2)
    alias = 1;
  if (mine) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  }
  out[threadIdx.x] = mine;
  __syncthreads();
}

// A reference to an element at a thread-dependent address reads a
// different cell in each thread.
__global__ void referenceToOwnCell(float *out) {
  __shared__ int cells[256];
  int &cell = cells[threadIdx.x];
  cell = threadIdx.x;
  __syncthreads();
  if (cell > 16) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  }
  out[threadIdx.x] = cell;
  __syncthreads();
}
