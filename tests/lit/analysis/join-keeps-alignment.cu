// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Where paths that split at a branch meet again, a value they set is only as
// uniform as the branch; what holds of it on every path still holds. The
// else arm of `if (a && b)` is entered from two condition blocks: a bound
// rounded down to a multiple of 32 there kept its level but lost its
// alignment, and a loop from threadIdx.x in steps of 32 up to it (one trip
// count per 32-wide row) was reported (faiss GeneralDistance.cuh:186).

__global__ void elseOfAnd(float *p, long n) {
  __shared__ float tile[32];
  if (blockIdx.x != gridDim.x - 1 && blockIdx.y != gridDim.y - 1) {
    p[blockIdx.x] = 0.0f;
  } else {
    long limit = n / 32 * 32;
    for (long k = threadIdx.x; k < limit; k += 32) {
      tile[threadIdx.x] = p[k];
      __syncthreads();
      p[k] = tile[31 - threadIdx.x];
      __syncthreads();
    }
  }
}

// A bound chosen per thread on the two arms stays thread-dependent.
__global__ void boundPickedPerThread(float *p, long n) {
  __shared__ float tile[32];
  long limit;
  if (p[threadIdx.x] > 0.0f && blockIdx.y != 0)
    limit = n / 32 * 32;
  else
    limit = n / 64 * 64;
  for (long k = threadIdx.x; k < limit; k += 32) {
    tile[threadIdx.x] = p[k];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
  }
  __syncthreads();
  p[threadIdx.x] = tile[0];
}

void host(float *p, long n) {
  dim3 block(32, 32);
  elseOfAnd<<<dim3(4, 4), block>>>(p, n);
  boundPickedPerThread<<<dim3(4, 4), block>>>(p, n);
}
