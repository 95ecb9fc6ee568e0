// RUN: %check_cuda_tidy %s cuda-missing-fence %t
// The fix-it: `__threadfence();` before the signal's statement, where that
// one point is on every path to the signal; none where the signal is the
// body of an unbraced `if`, nor for a missing __syncthreads().

// CHECK-FIXES: {{^}}    partial[blockIdx.x] = 1.0f;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __threadfence();{{$}}
// CHECK-FIXES-NEXT: {{^}}    unsigned ticket = atomicInc(count, gridDim.x);{{$}}
// CHECK-FIXES: {{^}}    partial[blockIdx.x] = 1.0f;{{$}}
// CHECK-FIXES-NEXT: {{^}}    __threadfence();{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (atomicAdd(count, 1u) == gridDim.x - 1) {{[{]}}{{$}}
// CHECK-FIXES: {{^}}    if (threadIdx.x == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}      atomicExch(flag, 1);{{$}}
__global__ void fixBeforeTicket(float *partial, unsigned *count, float *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    unsigned ticket = atomicInc(count, gridDim.x);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: signal to other blocks ('atomicInc' on 'count') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    out[0] = partial[0];
  }
}

__global__ void fixBeforeIf(float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    if (atomicAdd(count, 1u) == gridDim.x - 1) {
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: signal to other blocks ('atomicAdd' on 'count') with no device-scope fence after the global store to 'partial'; a block that sees the signal may read stale data [cuda-missing-fence]
      __threadfence();
      out[0] = partial[0];
    }
  }
}

// The signal is the body of an `if` without braces: no fix-it (one
// statement cannot become two there).
__global__ void noFixInUnbracedIf(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0)
      atomicExch(flag, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: signal to other blocks ('atomicExch' on 'flag') with no device-scope fence after the global store to 'data'; a block that sees the signal may read stale data [cuda-missing-fence]
  } else if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    __threadfence();
    out[0] = data[0];
  }
}
