// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// The shapes of a missing __syncthreads() between threads that share a
// __shared__ variable: a neighbour read after one's own write, one writer and
// many readers (thread 0, lane 0 of each warp), the tree reduction and the
// tiled matmul without their loop barriers, a strided fill read at the next
// slot, a barrier only on some paths, the two sides of a thread-dependent
// branch, an atomic count read before the barrier. And the shapes that stay
// quiet: the same with their barriers, own-slot read-modify-write, double
// buffering with uniform buffer indices that differ, a histogram of shared
// atomics, atomics against atomics, a store of one value by every thread.
// Threads of one warp only (As in the matmul: a row of 16 lies in one warp)
// are cuda-implicit-warp-sync's, not this rule's.
#define N 256
__global__ void neighbour(float *out, const float *in) {
  __shared__ float tile[N];
  int tid = threadIdx.x;
  tile[tid] = in[blockIdx.x * N + tid];
  if (tid > 0)
    out[blockIdx.x * N + tid] = tile[tid - 1];
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: data race on __shared__ 'tile': thread 32 reads tile[31] while thread 31 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void neighbourFixed(float *out, const float *in) {
  __shared__ float tile[N];
  int tid = threadIdx.x;
  tile[tid] = in[blockIdx.x * N + tid];
  __syncthreads();
  if (tid > 0)
    out[blockIdx.x * N + tid] = tile[tid - 1];
}
__global__ void oneWriter(float *out, const float *in) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = in[blockIdx.x];
  out[threadIdx.x] = s;
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: data race on __shared__ 's': thread 32 reads s while thread 0 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void warpPartials(float *out, const float *in) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = in[threadIdx.x];
  if (lane == 0) partial[warp] = v;
  if (warp == 0) out[blockIdx.x] = partial[lane];
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: data race on __shared__ 'partial': thread 1 reads partial[1] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void treeNoBarrier(float *out, const float *in) {
  __shared__ float sdata[N];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: data race on __shared__ 'sdata': thread 0 reads sdata[64] while thread 64 updates it, with no block barrier between the two accesses (in different iterations of the loop: it has no barrier on its way back) [cuda-shared-memory-race]
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
__global__ void tree(float *out, const float *in) {
  __shared__ float sdata[N];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
#define T 16
__global__ void matmulNoTrailing(float *C, const float *A, const float *B, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int k = 0; k < n / T; ++k) {
    As[ty][tx] = A[ty * n + k * T + tx];
    Bs[ty][tx] = B[(k * T + ty) * n + tx];
    __syncthreads();
    for (int j = 0; j < T; ++j)
      sum += As[ty][j] * Bs[j][tx];
      // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: data race on __shared__ 'Bs': thread (0, 0) reads Bs[2][0] while thread (0, 2) writes it, with no block barrier between the two accesses (in different iterations of the loop: it has no barrier on its way back) [cuda-shared-memory-race]
  }
  C[ty * n + tx] = sum;
}
__global__ void matmul(float *C, const float *A, const float *B, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int k = 0; k < n / T; ++k) {
    As[ty][tx] = A[ty * n + k * T + tx];
    Bs[ty][tx] = B[(k * T + ty) * n + tx];
    __syncthreads();
    for (int j = 0; j < T; ++j)
      sum += As[ty][j] * Bs[j][tx];
    __syncthreads();
  }
  C[ty * n + tx] = sum;
}
__global__ void doubleBuffer(float *out, const float *in, int steps) {
  __shared__ float buf[2][N];
  int cur = 0;
  buf[cur][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    buf[cur ^ 1][threadIdx.x] = buf[cur][(threadIdx.x + 1) % N];
    cur ^= 1;
    __syncthreads();
  }
  out[threadIdx.x] = buf[cur][threadIdx.x];
}
__global__ void histogram(int *out, const int *in, int n) {
  __shared__ int bins[64];
  if (threadIdx.x < 64) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    atomicAdd(&bins[in[i] % 64], 1);
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
__global__ void ownSlot(float *out) {
  __shared__ float s[N];
  s[threadIdx.x] = 1.0f;
  s[threadIdx.x] += 2.0f;
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void allWriteZero(float *out) {
  __shared__ int flag;
  flag = 0;
  out[threadIdx.x] = flag;
}
__global__ void atomicThenRead(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  if (threadIdx.x == 0) out[blockIdx.x] = count;
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: data race on __shared__ 'count': thread 0 reads count while thread 32 atomically updates it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void atomicsOnly(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  atomicAdd(&count, 2);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}
__global__ void stridedOwnSlots(float *out) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = 0.0f;
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[i] = s[i];
}
__global__ void stridedNeighbour(float *out) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = i;
  for (int i = threadIdx.x; i < 1023; i += blockDim.x) out[i] = s[i + 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:65: warning: data race on __shared__ 's': thread 31 reads s[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void conditionalBarrier(float *out, const float *in, int n) {
  __shared__ float tile[N];
  tile[threadIdx.x] = in[threadIdx.x];
  if (n > 0)
    __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % N];
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: data race on __shared__ 'tile': thread 31 reads tile[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void branchesOfOneWarpSplit(float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = 1.0f;
  else
    out[threadIdx.x] = s;
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: data race on __shared__ 's': thread 32 reads s while thread 0 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void halfBlockReadsOtherHalf(float *out, const float *in) {
  __shared__ float s[N];
  if (threadIdx.x < N / 2)
    s[threadIdx.x] = in[threadIdx.x];
  else
    out[threadIdx.x] = s[threadIdx.x - N / 2];
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: data race on __shared__ 's': thread 128 reads s[0] while thread 0 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
// The upper half exists only in a block of more than N / 2 threads: the
// launch shows it (a guessed block size must show the conflict at half the
// size too, SharedAccesses.h).
void launchHalves(float *out, const float *in) {
  halfBlockReadsOtherHalf<<<1, N>>>(out, in);
}
