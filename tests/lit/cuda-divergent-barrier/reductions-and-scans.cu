// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Block reductions and scans as they are written in practice: the work is
// under thread-dependent branches, the barriers are not. None of these may
// be flagged; the last kernel is the buggy variant that must be.

// The classic tree reduction in shared memory.
__global__ void treeReduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// Tree reduction with the last warp unrolled through volatile memory.
__device__ void warpReduceVolatile(volatile float *s, unsigned tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void unrolledReduce(const float *in, float *out) {
  __shared__ float s[512];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x * 2 + tid] +
           in[blockIdx.x * blockDim.x * 2 + tid + blockDim.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32)
    warpReduceVolatile(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// The two-stage shuffle reduction: warps reduce in registers, warp 0
// reduces the warp sums.
__device__ float warpReduceSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float blockReduceSum(float v) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  v = warpReduceSum(v);
  if (lane == 0)
    shared[wid] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
  if (wid == 0)
    v = warpReduceSum(v);
  return v;
}

__global__ void shuffleReduce(const float *in, float *out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    atomicAdd(out, sum);
}

// Hillis-Steele inclusive scan: reads and writes under a branch, barriers
// outside it.
__global__ void hillisSteeleScan(const int *in, int *out) {
  __shared__ int s[1024];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
    int add = 0;
    if (tid >= offset)
      add = s[tid - offset];
    __syncthreads();
    if (tid >= offset)
      s[tid] += add;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + tid] = s[tid];
}

// Blelloch work-efficient scan: up-sweep and down-sweep with
// thread-dependent work and uniform loop counters.
__global__ void blellochScan(int *data, int n) {
  __shared__ int temp[1024];
  int tid = threadIdx.x;
  int offset = 1;
  temp[2 * tid] = data[2 * tid];
  temp[2 * tid + 1] = data[2 * tid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0)
    temp[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  data[2 * tid] = temp[2 * tid];
  data[2 * tid + 1] = temp[2 * tid + 1];
}

// Warp-level inclusive scan with shuffles, block sums through shared memory.
__global__ void shuffleScan(const int *in, int *out) {
  __shared__ int warpSums[32];
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += up;
  }
  if (lane == 31)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int s = lane < blockDim.x / 32 ? warpSums[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      int up = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d)
        s += up;
    }
    warpSums[lane] = s;
  }
  __syncthreads();
  if (warp > 0)
    v += warpSums[warp - 1];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The tree reduction with the barrier moved into the branch: the bug.
__global__ void treeReduceBarrierInBranch(float *s_out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = tid;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-4]]:9: note: this condition is not uniform across the block
      // CHECK-NOTES: :[[@LINE-9]]:12: note: 'tid' depends on 'threadIdx.x'
    }
  }
  s_out[blockIdx.x] = s[0];
}
