// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A block-wide "all": each warp votes, warp leaders publish their votes in a
// __shared__ array, and after a barrier every warp reads the array at its
// own lane, `flags[tid % 32]`, and votes again over the whole warp. All warps
// read the same 32 entries at the same lanes, so the second vote is the same
// in every warp: a loop leaving on it leaves in the whole block at once, and
// the barriers in the loop are fine. Reading at the thread index, voting
// with half a mask, or reading `tid % 64` gives each warp its own answer.

#define WARP_SIZE 32

template <int width = WARP_SIZE>
__device__ __forceinline__ int warpAll(int x) {
  return __all_sync(0xffffffff, x);
}

__global__ void scanBack(const float *mask, int *kvMax, int tiles) {
  __shared__ int flags[WARP_SIZE];
  const int tid = threadIdx.x;
  int last = tiles - 1;
  for (; last >= 0; --last) {
    int allMasked = warpAll(mask[last * blockDim.x + tid] < -1e30f);
    if (tid % WARP_SIZE == 0)
      flags[tid / WARP_SIZE] = allMasked;
    __syncthreads();
    allMasked = flags[tid % WARP_SIZE];
    __syncthreads();
    allMasked = warpAll(allMasked);
    if (!allMasked)
      break;
  }
  if (tid == 0)
    kvMax[blockIdx.x] = last;
}

__global__ void scanBackByThread(const float *mask, int *kvMax, int tiles) {
  __shared__ int flags[1024];
  const int tid = threadIdx.x;
  int last = tiles - 1;
  for (; last >= 0; --last) {
    flags[tid] = mask[last * blockDim.x + tid] < -1e30f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
    int allMasked = warpAll(flags[tid]);
    if (!allMasked)
      break;
  }
  // The warps that left the loop early wait here while the others still
  // wait in it (without this barrier they would leave the kernel, a
  // potential finding: leaving-threads.cu).
  __syncthreads();
  if (tid == 0)
    kvMax[blockIdx.x] = last;
}

__global__ void scanBackHalfMask(const float *mask, int *kvMax, int tiles) {
  __shared__ int flags[WARP_SIZE];
  const int tid = threadIdx.x;
  int last = tiles - 1;
  for (; last >= 0; --last) {
    if (tid < WARP_SIZE)
      flags[tid] = mask[last * blockDim.x + tid] < -1e30f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
    if (!__all_sync(0x0000ffff, flags[tid % WARP_SIZE]))
      break;
  }
  if (tid == 0)
    kvMax[blockIdx.x] = last;
}

__global__ void scanBackPairs(const float *mask, int *kvMax, int tiles) {
  __shared__ int flags[2 * WARP_SIZE];
  const int tid = threadIdx.x;
  int last = tiles - 1;
  for (; last >= 0; --last) {
    if (tid < 2 * WARP_SIZE)
      flags[tid] = mask[last * blockDim.x + tid] < -1e30f;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
    if (!__any_sync(0xffffffff, flags[tid % (2 * WARP_SIZE)]))
      break;
  }
  if (tid == 0)
    kvMax[blockIdx.x] = last;
}
