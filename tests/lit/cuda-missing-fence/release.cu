// RUN: %check_cuda_tidy %s cuda-missing-fence %t
// The release side: global stores, then a signal that other blocks observe
// (a ticket, a flag, a relaxed atomic), with no device-scope fence between
// (or, for stores of other threads of the block, no __syncthreads()).
#include <cuda/atomic>

__device__ unsigned int retired = 0;

// The Programming Guide's last-block sum, without its __threadfence().
__global__ void lastBlockNoFence(const float *in, volatile float *partial,
                                 float *out) {
  __shared__ bool isLast;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    unsigned int ticket = atomicInc(&retired, gridDim.x);
    // CHECK-NOTES: :[[@LINE-1]]:27: warning: signal to other blocks ('atomicInc' on 'retired') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+7]]:14: note: 'partial' is read here after a branch on the signal
    isLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast && threadIdx.x == 0) {
    float sum = 0;
    for (unsigned i = 0; i < gridDim.x; ++i)
      sum += partial[i];
    out[0] = sum;
  }
}

// A flag hand-off: the producer block writes, then sets a volatile flag.
__global__ void flagHandOff(float *data, volatile int *flag, float *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
      *flag = 1;
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: signal to other blocks ('volatile store' on 'flag') with no device-scope fence after the global store to 'data'; a block that sees the signal may read stale data [cuda-missing-fence]
      // CHECK-NOTES: :[[@LINE-5]]:5: note: the global store to 'data' is here
      // CHECK-NOTES: :[[@LINE+7]]:24: note: 'data' is read here after a branch on the signal
  } else {
    if (threadIdx.x == 0)
      while (*flag == 0) {
      }
    __syncthreads();
    __threadfence();
    out[threadIdx.x] = __ldcg(&data[threadIdx.x]);
  }
}

// The flag set with atomicExch, the spin with atomicCAS.
__global__ void exchangeFlag(int *data, int *ready, int *out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 42;
      atomicExch(ready, 1);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: signal to other blocks ('atomicExch' on 'ready') with no device-scope fence after the global store to 'data'; a block that sees the signal may read stale data [cuda-missing-fence]
      // CHECK-NOTES: :[[@LINE-3]]:7: note: the global store to 'data' is here
      // CHECK-NOTES: :[[@LINE+6]]:14: note: 'data' is read here after a branch on the signal
    }
  } else if (threadIdx.x == 0) {
    while (atomicCAS(ready, 1, 1) != 1) {
    }
    __threadfence();
    out[0] = data[0];
  }
}

// Split-K fix-up: every thread stores its partial tile, the block meets at
// __syncthreads(), thread 0 takes a ticket; the last split sums the tiles.
__global__ void splitKFixup(float *workspace, int *tileCounter, float *c,
                            int splits) {
  const int tile = blockIdx.x / splits;
  workspace[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f * threadIdx.x;
  __syncthreads();
  __shared__ int last;
  if (threadIdx.x == 0)
    last = atomicAdd(&tileCounter[tile], 1) == splits - 1;
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: signal to other blocks ('atomicAdd' on 'tileCounter') with no device-scope fence after the global store to 'workspace'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-6]]:3: note: the global store to 'workspace' is here
    // CHECK-NOTES: :[[@LINE+6]]:14: note: 'workspace' is read here after a branch on the signal
  __syncthreads();
  if (last) {
    __threadfence();
    float sum = 0;
    for (int s = 0; s < splits; ++s)
      sum += workspace[(tile * splits + s) * blockDim.x + threadIdx.x];
    c[tile * blockDim.x + threadIdx.x] = sum;
  }
}

// The stores are by every thread, the fence and the signal by thread 0 only,
// and no __syncthreads() orders the other threads' stores before them.
__global__ void fenceWithoutBarrier(float *partial, unsigned *counter,
                                    float *out) {
  partial[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(counter, 1u) == gridDim.x - 1) {
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicAdd' on 'counter') with no __syncthreads() after the global store to 'partial' by other threads of the block; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+4]]:14: note: 'partial' is read here after a branch on the signal
      __threadfence();
      float s = 0;
      for (unsigned i = 0; i < gridDim.x * blockDim.x; ++i)
        s += partial[i];
      out[0] = s;
    }
  }
}

// Neither: every thread stores, thread 0 signals at once.
__global__ void neitherBarrierNorFence(float *partial, unsigned *counter,
                                       float *out) {
  partial[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0)
    if (atomicAdd(counter, 1u) == gridDim.x - 1) {
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicAdd' on 'counter') with neither a __syncthreads() nor a device-scope fence after the global store to 'partial' by other threads of the block; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+2]]:16: note: 'partial' is read here after a branch on the signal
      __threadfence();
      out[0] = partial[0];
    }
}

// cuda::atomic_ref with memory_order_relaxed is no release.
__global__ void relaxedAtomicRef(int *data, int *count, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> ticket(*count);
    if (ticket.fetch_add(1, cuda::std::memory_order_relaxed) ==
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('fetch_add' on 'count' (relaxed)) with no device-scope fence after the global store to 'data'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the global store to 'data' is here
    // CHECK-NOTES: :[[@LINE+6]]:14: note: 'data' is read here after a branch on the signal
        (int)gridDim.x - 1) {
      cuda::atomic_thread_fence(cuda::std::memory_order_acquire,
                                cuda::thread_scope_device);
      int s = 0;
      for (unsigned b = 0; b < gridDim.x; ++b)
        s += data[b];
      out[0] = s;
    }
  }
}

// A block-scope fence is not enough for another block.
__global__ void blockScopeFence(float *partial, unsigned *counter, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    __threadfence_block();
    if (atomicInc(counter, gridDim.x) == gridDim.x - 1) {
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicInc' on 'counter') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+2]]:16: note: 'partial' is read here after a branch on the signal
      __threadfence();
      out[0] = partial[0] + partial[1];
    }
  }
}

// The fence is on one path only.
__global__ void fenceOnOnePath(float *partial, unsigned *counter, float *out,
                               int n) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = n;
    if (n > 4)
      __threadfence();
    if (atomicInc(counter, gridDim.x) == gridDim.x - 1) {
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicInc' on 'counter') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+2]]:16: note: 'partial' is read here after a branch on the signal
      __threadfence();
      out[0] = partial[0];
    }
  }
}

// A spin lock around an update of global data: the unlock is a relaxed
// atomicExch after the stores of the critical section.
__global__ void spinLock(int *lock, float *total, const float *in) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    total[0] = total[0] + in[blockIdx.x];
    atomicExch(lock, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: signal to other blocks ('atomicExch' on 'lock') with no device-scope fence after the global store to 'total'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the global store to 'total' is here
    // CHECK-NOTES: :[[@LINE-4]]:16: note: 'total' is read here after a branch on the signal
  }
}

// A semaphore handed from block to block (CUTLASS's serial split-K shape),
// written with plain atomics: wait for our turn, add, pass it on.
__global__ void semaphoreTurns(float *c, int *semaphore, const float *in) {
  if (threadIdx.x == 0)
    while (atomicAdd(semaphore, 0) != (int)blockIdx.x) {
    }
  __syncthreads();
  __threadfence();
  c[threadIdx.x] = c[threadIdx.x] + in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    atomicExch(semaphore, blockIdx.x + 1);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: signal to other blocks ('atomicExch' on 'semaphore') with no device-scope fence after the global store to 'c'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-5]]:3: note: the global store to 'c' is here
    // CHECK-NOTES: :[[@LINE-6]]:20: note: 'c' is read here after a branch on the signal
}

// Decoupled look-back with the tile's value and status as two stores: the
// status may reach the next tile before the value.
struct TileDescriptor {
  int status;
  int value;
};
__global__ void lookBackTwoStores(volatile TileDescriptor *tiles,
                                  const int *in, int *out) {
  if (threadIdx.x != 0)
    return;
  int aggregate = in[blockIdx.x];
  tiles[blockIdx.x].value = aggregate;
  tiles[blockIdx.x].status = 1;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: signal to other blocks ('volatile store' on 'tiles') with no device-scope fence after the global store to 'tiles'; a block that sees the signal may read stale data [cuda-missing-fence]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the global store to 'tiles' is here
  // CHECK-NOTES: :[[@LINE+7]]:15: note: 'tiles' is read here after a branch on the signal
  int prefix = 0;
  for (int pred = blockIdx.x - 1; pred >= 0; --pred) {
    int status;
    do {
      status = tiles[pred].status;
    } while (status == 0);
    prefix += tiles[pred].value;
  }
  out[blockIdx.x] = prefix + aggregate;
}

