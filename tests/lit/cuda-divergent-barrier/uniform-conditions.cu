// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Barriers under conditions that every thread of the block evaluates the
// same way. None of these may be flagged.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__constant__ int c_mode;

struct Config {
  int rounds;
  int skip;
};

__global__ void onBlockIndex(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = threadIdx.x;
  if (blockIdx.x > 0 && blockIdx.y == 0) {
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[0];
  }
}

__global__ void onParameters(float *out, int n, bool enabled, Config cfg) {
  if (enabled && n > 64)
    __syncthreads();
  if (cfg.rounds > 1)
    __syncthreads();
  for (int r = 0; r < cfg.rounds; ++r)
    if (r != cfg.skip)
      __syncthreads();
  out[threadIdx.x] = n;
}

template <int Stages, bool UseShared>
__global__ void onTemplateParameters(float *out) {
  __shared__ float s[256];
  if (UseShared) {
    s[threadIdx.x] = 1.0f;
    __syncthreads();
  }
  for (int st = 0; st < Stages; ++st)
    __syncthreads();
  out[threadIdx.x] = s[0];
}
template __global__ void onTemplateParameters<2, true>(float *);
template __global__ void onTemplateParameters<0, false>(float *);

__global__ void onBlockDim(float *out) {
  if (blockDim.x >= 128)
    __syncthreads();
  if (blockDim.x * blockDim.y > 256 || gridDim.x == 1)
    __syncthreads();
  out[threadIdx.x] = 0;
}

// A flag in shared memory, written by one thread before a barrier and read
// by all after it: the same value for the whole block.
__global__ void onSharedFlag(const int *work, int *out) {
  __shared__ int more;
  if (threadIdx.x == 0)
    more = work[blockIdx.x] > 0;
  __syncthreads();
  if (more) {
    out[threadIdx.x] = 1;
    __syncthreads();
  }
  __shared__ int count;
  if (threadIdx.x == 0)
    count = work[blockIdx.x];
  __syncthreads();
  for (int i = 0; i < count; ++i)
    __syncthreads();
}

// A volatile flag in shared memory: only the block itself writes it.
__global__ void onVolatileSharedFlag(const int *work, int *out) {
  __shared__ volatile int stop;
  if (threadIdx.x == 0)
    stop = work[blockIdx.x] < 0;
  __syncthreads();
  if (stop)
    return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

// Loads from addresses that are the same for the block.
__global__ void onBlockUniformLoads(const int *cfg, const int *sizes,
                                    float *out) {
  int rounds = cfg[blockIdx.x];
  for (int r = 0; r < rounds; ++r)
    __syncthreads();
  if (sizes[blockIdx.y * gridDim.x + blockIdx.x] > 32)
    __syncthreads();
  if (c_mode == 2)
    __syncthreads();
  out[threadIdx.x] = rounds;
}

// The block-wide vote results are the same for every thread of the block.
__global__ void onBlockVote(const int *flags, int *out) {
  int any = __syncthreads_or(flags[threadIdx.x]);
  if (any)
    __syncthreads();
  int all = __syncthreads_and(flags[threadIdx.x]);
  int count = __syncthreads_count(flags[threadIdx.x]);
  if (all || count > 10)
    __syncthreads();
  out[0] = any + all + count;
}

// Thread-dependent work without a barrier inside, and the barrier after it.
__global__ void leaderWork(int *out) {
  __shared__ int total;
  if (threadIdx.x == 0) {
    total = 0;
    for (int i = 0; i < 32; ++i)
      total += i;
  }
  __syncthreads();
  out[threadIdx.x] = total;
}

// A uniform value that passed through a thread-dependent branch unchanged.
__global__ void uniformThroughBranch(int *out, int n) {
  int rounds = n / 2;
  if (threadIdx.x == 0)
    out[0] = rounds;
  for (int r = 0; r < rounds; ++r)
    __syncthreads();
}

// The group's own size and index queries are block-uniform.
__global__ void onGroupQueries(int *out) {
  cg::thread_block block = cg::this_thread_block();
  if (block.size() > 64)
    block.sync();
  if (block.group_index().x % 2 == 0)
    block.sync();
  out[block.thread_rank()] = 1;
}
