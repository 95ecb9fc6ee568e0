// RUN: %check_cuda_tidy %s cuda-missing-fence %t
// The acquire side: after a branch on a signal (a ticket, a spin on a flag),
// reads of data other blocks wrote, with no fence after the branch and
// through plain loads (not volatile, __ldcg or an acquire load).
#include <cuda/atomic>

__device__ unsigned int finished = 0;

// threadFenceReduction's shape: the writer fences, the last block reads the
// partials with plain loads and no fence.
__global__ void lastBlockReadsPlain(const float *in, float *partial,
                                    float *out) {
  __shared__ bool amLast;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned int ticket = atomicInc(&finished, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast) {
    float sum = 0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
      sum += partial[i];
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of 'partial', which other blocks wrote, after a branch on the signal 'atomicInc' on 'finished' with no device-scope fence between; it may see stale data (add __threadfence() after the branch, or read it volatile, with __ldcg() or an acquire load) [cuda-missing-fence]
      // CHECK-NOTES: :[[@LINE-5]]:7: note: the branch on the signal is here
    out[threadIdx.x] = sum;
  }
}

// A spin on a volatile flag, then plain reads.
__global__ void spinThenRead(float *data, volatile int *flag, float *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 2.0f * threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      *flag = 1;
    }
    return;
  }
  if (threadIdx.x == 0)
    while (*flag == 0) {
    }
  __syncthreads();
  out[threadIdx.x] = data[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of 'data', which other blocks wrote, after a branch on a signal with no device-scope fence between; it may see stale data (add __threadfence() after the branch, or read it volatile, with __ldcg() or an acquire load) [cuda-missing-fence]
  // CHECK-NOTES: :[[@LINE-5]]:12: note: the branch on the value of 'flag' is here
}

// __ldg reads through the read-only path: the worst place for stale data.
__global__ void spinThenLdg(const float *data, float *scratch, int *flag,
                            float *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    scratch[0] = 3.0f;
    __threadfence();
    atomicExch(flag, 1);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[0] = __ldg(&scratch[0]);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of 'scratch', which other blocks wrote, after a branch on a signal with no device-scope fence between; it may see stale data (add __threadfence() after the branch, or read it volatile, with __ldcg() or an acquire load) [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: the branch on the value of 'flag' is here
  }
}

// A relaxed cuda::atomic_ref load in the spin acquires nothing.
__global__ void relaxedLoadSpin(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 7;
      ready.store(1, cuda::std::memory_order_release);
    }
  } else if (threadIdx.x == 0) {
    while (ready.load(cuda::std::memory_order_relaxed) == 0) {
    }
    out[0] = data[0];
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: read of 'data', which other blocks wrote, after a branch on a signal with no device-scope fence between; it may see stale data (add __threadfence() after the branch, or read it volatile, with __ldcg() or an acquire load) [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-4]]:12: note: the branch on the value of 'flag' is here
  }
}

// The early-return form of the ticket: the reads follow the return.
__global__ void earlyReturnTicket(float *partial, unsigned *count, float *out) {
  partial[blockIdx.x] = blockIdx.x;
  __threadfence();
  if (atomicAdd(count, 1u) != gridDim.x - 1)
    return;
  float s = 0;
  for (unsigned b = 0; b < gridDim.x; ++b)
    s += partial[b];
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: read of 'partial', which other blocks wrote, after a branch on the signal 'atomicAdd' on 'count' with no device-scope fence between; it may see stale data (add __threadfence() after the branch, or read it volatile, with __ldcg() or an acquire load) [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-6]]:7: note: the branch on the signal is here
  out[0] = s;
}
