// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// The fix-it: one __syncthreads() before the statement that holds the second
// access, where that statement and the first access's lie in one block, the
// pair meets only in one iteration, and every thread of the block gets
// there. Elsewhere (a loop-carried pair, a second access under a
// thread-dependent branch that also holds the first, pairs that need
// different points) the warning comes without one.
#define N 256
__global__ void shiftLeft(float *out, const float *in) {
  __shared__ float row[N];
  int t = threadIdx.x;
  row[t] = in[blockIdx.x * N + t];
  float right = t + 1 < N ? row[t + 1] : 0.0f;
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: data race on __shared__ 'row': thread 31 reads row[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
  // CHECK-FIXES: {{^}}  row[t] = in[blockIdx.x * N + t];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float right = t + 1 < N ? row[t + 1] : 0.0f;{{$}}
  out[blockIdx.x * N + t] = right;
}
__global__ void broadcastScale(float *out, const float *in, float bias) {
  __shared__ float scale;
  if (threadIdx.x == 0)
    scale = in[blockIdx.x] + bias;
  if (threadIdx.x < 128)
    out[blockIdx.x * 128 + threadIdx.x] *= scale;
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: data race on __shared__ 'scale': thread 32 reads scale while thread 0 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
  // CHECK-FIXES: {{^}}    scale = in[blockIdx.x] + bias;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  if (threadIdx.x < 128){{$}}
}
__global__ void halfBlockOnly(float *out, const float *in) {
  __shared__ float part[N];
  int t = threadIdx.x;
  if (t < 128) {
    part[t] = in[t];
    // A barrier here would be reached by half of the block: no fix-it.
    out[t] = part[127 - t];
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: data race on __shared__ 'part': thread 0 reads part[127] while thread 127 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
    // CHECK-FIXES: {{^}}    part[t] = in[t];{{$}}
    // CHECK-FIXES-NEXT: {{^}}    // A barrier here would be reached by half of the block: no fix-it.{{$}}
  }
}
__global__ void carriedAcrossSteps(float *out, const float *in) {
  __shared__ float acc[N];
  unsigned t = threadIdx.x;
  acc[t] = in[t];
  __syncthreads();
  for (unsigned half = N / 2; half > 0; half /= 2) {
    if (t < half)
      acc[t] += acc[t + half];
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: data race on __shared__ 'acc': thread 0 reads acc[64] while thread 64 updates it, with no block barrier between the two accesses (in different iterations of the loop: it has no barrier on its way back) [cuda-shared-memory-race]
    // CHECK-FIXES: {{^}}      acc[t] += acc[t + half];{{$}}
    // CHECK-FIXES-NEXT: {{^}}    //{{$}}
  }
  if (t == 0)
    out[blockIdx.x] = acc[0];
}
__global__ void fixedAlready(float *out, const float *in) {
  __shared__ float row[N];
  int t = threadIdx.x;
  row[t] = in[blockIdx.x * N + t];
  __syncthreads();
  out[blockIdx.x * N + t] = row[(t + 1) % N];
}
