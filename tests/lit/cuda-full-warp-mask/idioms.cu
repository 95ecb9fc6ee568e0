// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// Canonical warp-level idioms whose full masks are only ever reached by whole
// warps. With ReportConvergent off, the rule reports definite bugs only, and
// none of these is one: every branch around a full mask is uniform across the
// warp. (One deliberate bug at the end keeps the file honest.)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define FULL_MASK 0xffffffff

__device__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(FULL_MASK, val, offset);
  return val;
}

__device__ float warpReduceMax(float val) {
  for (int mask = 16; mask > 0; mask >>= 1)
    val = fmaxf(val, __shfl_xor_sync(0xffffffff, val, mask));
  return val;
}

// The two-stage block reduction: every warp reduces, then warp 0 reduces the
// warps' sums. `wid == 0` is the same for all lanes of a warp.
__device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  val = warpReduceSum(val);
  if (lane == 0)
    shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
  if (wid == 0)
    val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduce(const float *in, float *out, int n) {
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

// The shared-memory tree down to one warp, then shuffles: `tid < 32` is
// exactly warp 0.
__global__ void treeThenWarp(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    v = warpReduceSum(v);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

// One warp per row (softmax, layernorm): the row is warp-uniform, the
// column loop has a per-lane trip count but the reduction comes after it.
__global__ void rowMax(const float *x, float *out, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float m = -1e30f;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  m = warpReduceMax(m);
  if (lane == 0)
    out[row] = m;
}

// Ballots under conditions uniform across the warp: a warp index, the block,
// a kernel parameter, a tile's rank within its parent.
__global__ void uniformVotes(const int *flags, unsigned *out, int activeWarps,
                             bool enabled) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int warp = threadIdx.x / 32;
  bool p = flags[threadIdx.x] > 0;
  if (warp < activeWarps)
    out[warp] = __ballot_sync(FULL_MASK, p);
  if (blockIdx.x == 0)
    out[1] = __any_sync(FULL_MASK, p);
  if (enabled)
    out[2] = __all_sync(FULL_MASK, p);
  if (tile.meta_group_rank() == 0)
    out[3] = __ballot_sync(FULL_MASK, p);
  if (threadIdx.x < 64)
    out[4] = __reduce_or_sync(FULL_MASK, p);
  switch (threadIdx.x / warpSize) {
  case 0:
    __syncwarp(FULL_MASK);
    break;
  default:
    break;
  }
}

// The warp-level primitives blog's pattern: the full mask is used for the
// ballot that every lane reaches; the lanes in the branch then shuffle with
// the mask the ballot computed.
__global__ void maskFromBallot(const int *in, int *out, int n) {
  unsigned mask = __ballot_sync(FULL_MASK, threadIdx.x < n);
  if (threadIdx.x < n) {
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(mask, v, offset);
    out[threadIdx.x] = v;
  }
}

// Threads past the end return from the kernel: they have exited, and votes
// and __syncwarp only concern the lanes that have not.
__global__ void exitedThenVote(const int *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned votes = __ballot_sync(FULL_MASK, in[i] > 0);
  __syncwarp();
  if (threadIdx.x % 32 == 0)
    out[i / 32] = votes;
}

// The deliberate bug: a reduction under a lane-dependent branch.
__global__ void bug(float *data) {
  if (threadIdx.x % 32 < 16)
    data[threadIdx.x] = warpReduceSum(data[threadIdx.x]);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: call to 'warpReduceSum' reaches '__shfl_down_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
}
