// RUN: %check_cuda_tidy %s cuda-missing-fence %t
// Quiet: the correct forms of the hand-off, and atomics that are no signal
// (histograms, work counters, CAS retry loops, block-scope atomics).
#include <cooperative_groups.h>
#include <cuda/atomic>
namespace cg = cooperative_groups;

__device__ unsigned int count = 0;

// The Programming Guide's memory-fence example: __threadfence() before the
// ticket, the result read through a volatile pointer.
__global__ void guideSum(const float *in, volatile float *result, float *out) {
  __shared__ bool isLastBlockDone;
  if (threadIdx.x == 0) {
    result[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned int value = atomicInc(&count, gridDim.x);
    isLastBlockDone = (value == (gridDim.x - 1));
  }
  __syncthreads();
  if (isLastBlockDone && threadIdx.x == 0) {
    float total = 0;
    for (unsigned i = 0; i < gridDim.x; ++i)
      total += result[i];
    out[0] = total;
    count = 0;
  }
}

// Fences on both sides.
__global__ void fencedBothSides(float *partial, unsigned *counter, float *out) {
  partial[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  __threadfence();
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0)
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last) {
    __threadfence();
    float s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b * blockDim.x + threadIdx.x];
    out[threadIdx.x] = s;
  }
}

// Release and acquire orders on cuda::atomic_ref.
__global__ void releaseAcquireRef(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 7;
      ready.store(1, cuda::std::memory_order_release);
    }
  } else if (threadIdx.x == 0) {
    while (ready.load(cuda::std::memory_order_acquire) == 0) {
    }
    out[0] = data[0];
  }
}

// The ticket itself acq_rel at device scope.
__global__ void acqRelTicket(int *data, int *tickets, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> t(*tickets);
    if (t.fetch_add(1, cuda::std::memory_order_acq_rel) ==
        (int)gridDim.x - 1) {
      int s = 0;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += data[b];
      out[0] = s;
    }
  }
}

// cuda::atomic_thread_fence of device scope, release then acquire.
__global__ void threadFenceFunctions(int *data, int *tickets, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    cuda::atomic_thread_fence(cuda::std::memory_order_release,
                              cuda::thread_scope_device);
    if (atomicAdd(tickets, 1) == (int)gridDim.x - 1) {
      cuda::atomic_thread_fence(cuda::std::memory_order_acquire,
                                cuda::thread_scope_device);
      out[0] = data[0] + data[1];
    }
  }
}

// grid.sync() is a fence and a barrier.
__global__ void gridSyncHandOff(float *partial, float *out) {
  cg::grid_group grid = cg::this_grid();
  partial[blockIdx.x] = blockIdx.x;
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      s += partial[b];
    out[0] = s;
  }
}

// A histogram: atomics as accumulators, no read depends on them.
__global__ void histogram(const int *keys, unsigned *bins, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = keys[i] * 2;
    atomicAdd(&bins[keys[i] & 255], 1u);
  }
}

// A counter handing out work: its value indexes, no branch waits on it.
__global__ void workQueue(const float *in, float *out, unsigned *next, int n) {
  __shared__ unsigned base;
  if (threadIdx.x == 0)
    base = atomicAdd(next, blockDim.x);
  __syncthreads();
  out[base + threadIdx.x] = in[(base + threadIdx.x) % n];
}

// A block-scope atomic signals only the block's own threads.
__global__ void blockScopeSignal(float *data, unsigned *counter, float *out) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (atomicAdd_block(&counter[blockIdx.x], 1u) == blockDim.x - 1)
    out[blockIdx.x] = data[blockIdx.x * blockDim.x];
}

// The signal in shared memory: within the block.
__global__ void sharedSignal(float *data, float *out) {
  __shared__ unsigned arrived;
  if (threadIdx.x == 0)
    arrived = 0;
  __syncthreads();
  data[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  if (atomicAdd(&arrived, 1u) == blockDim.x - 1)
    out[blockIdx.x] = data[blockIdx.x * blockDim.x];
}

// CUB-style decoupled look-back: status and value in one volatile 64-bit
// word, so the value travels with the flag.
__global__ void lookBack(volatile long long *tiles, const int *in, int *out) {
  if (threadIdx.x != 0)
    return;
  int aggregate = in[blockIdx.x];
  tiles[blockIdx.x] = ((long long)aggregate << 32) | 1;
  int prefix = 0;
  for (int pred = blockIdx.x - 1; pred >= 0; --pred) {
    long long word;
    do {
      word = tiles[pred];
    } while ((word & 0xffffffff) == 0);
    prefix += (int)(word >> 32);
  }
  out[blockIdx.x] = prefix + aggregate;
}

// CUTLASS's semaphore: ld.acquire.gpu in the wait, st.release.gpu after.
__device__ int loadAcquire(int *lock) {
  int state;
  asm volatile("ld.global.acquire.gpu.b32 %0, [%1];\n" : "=r"(state) : "l"(lock));
  return state;
}
__global__ void cutlassSemaphore(float *c, int *lock, const float *in) {
  if (threadIdx.x == 0) {
    int state;
    do {
      asm volatile("ld.global.acquire.gpu.b32 %0, [%1];\n"
                   : "=r"(state)
                   : "l"(lock));
    } while (state != (int)blockIdx.x);
  }
  __syncthreads();
  c[threadIdx.x] += in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    asm volatile("st.global.release.gpu.b32 [%0], %1;\n"
                 :
                 : "l"(lock), "r"((int)blockIdx.x + 1));
}

// Reads through __ldcg after the branch, and the fence in a helper.
__device__ void publish() { __threadfence(); }
__global__ void ldcgReader(float *partial, unsigned *counter, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    publish();
    if (atomicInc(counter, gridDim.x) == gridDim.x - 1) {
      float s = 0;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += __ldcg(&partial[b]);
      out[0] = s;
    }
  }
}

// Stores made after the signal are not what it announces.
__global__ void storeAfterSignal(float *partial, unsigned *counter, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    __threadfence();
    bool last = atomicInc(counter, gridDim.x) == gridDim.x - 1;
    if (last) {
      __threadfence();
      partial[0] = partial[0] + partial[1];
      out[0] = partial[0];
    }
  }
}

// A CAS retry loop (read, compute, CAS until it sticks) updates; it waits
// for no other block.
__global__ void casRetry(volatile int *parent, int *queue, int *tail,
                         const int *nodes) {
  int node = nodes[blockIdx.x * blockDim.x + threadIdx.x];
  int val;
  do {
    val = parent[node];
  } while (val < 0 && atomicCAS((int *)&parent[node], val, blockIdx.x) != val);
  if (val < 0)
    queue[atomicAdd(tail, 1)] = node;
}

// A counter handing out rows in a loop: its value is a bound, not a ticket.
__global__ void dynamicRows(float *rows, int *next, int end) {
  __shared__ int ind;
  if (threadIdx.x == 0)
    ind = atomicAdd(next, 1);
  __syncthreads();
  while (ind < end) {
    rows[ind * blockDim.x + threadIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
      ind = atomicAdd(next, 1);
    __syncthreads();
  }
}

// A lock around an update whose unlock is a release: the stores made before
// taking the lock are not what the unlock publishes.
__global__ void lockWithFences(float *before, float *shared_total, int *lock) {
  before[blockIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    shared_total[0] += before[blockIdx.x];
    __threadfence();
    atomicExch(lock, 0);
  }
}
