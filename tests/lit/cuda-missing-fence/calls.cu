// RUN: %check_cuda_tidy %s cuda-missing-fence %t
// Through calls: a helper that stores the partial, a helper that reads them
// after the branch, a helper whose fence counts, and a template kernel
// (reported once).

__device__ void storePartial(float *partial, float v) {
  partial[blockIdx.x] = v;
}
__device__ float sumPartials(const float *partial, unsigned n) {
  float s = 0;
  for (unsigned i = 0; i < n; ++i)
    s += partial[i];
  return s;
}
__device__ void fenceAndNothingElse() { __threadfence(); }

__global__ void helpers(float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    storePartial(partial, 1.0f);
    if (atomicInc(count, gridDim.x) == gridDim.x - 1) {
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicInc' on 'count') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+2]]:16: note: 'partial' is read here after a branch on the signal
      fenceAndNothingElse();
      out[0] = sumPartials(partial, gridDim.x);
    }
  }
}

__global__ void helperReadsNoFence(float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 2.0f;
    fenceAndNothingElse();
    if (atomicInc(count, gridDim.x) == gridDim.x - 1)
      out[0] = sumPartials(partial, gridDim.x);
      // CHECK-NOTES: :[[@LINE-1]]:16: warning: read of 'partial', which other blocks wrote, after a branch on the signal 'atomicInc' on 'count' with no device-scope fence between; it may see stale data (add __threadfence() after the branch, or read it volatile, with __ldcg() or an acquire load) [cuda-missing-fence]
      // CHECK-NOTES: :[[@LINE-3]]:9: note: the branch on the signal is here
  }
}

template <int Block>
__global__ void templated(float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = Block;
    if (atomicInc(count, gridDim.x) == gridDim.x - 1) {
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicInc' on 'count') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the global store to 'partial' is here
    // CHECK-NOTES: :[[@LINE+2]]:16: note: 'partial' is read here after a branch on the signal
      __threadfence();
      out[0] = partial[0] + partial[1];
    }
  }
}
template __global__ void templated<128>(float *, unsigned *, float *);
template __global__ void templated<256>(float *, unsigned *, float *);
