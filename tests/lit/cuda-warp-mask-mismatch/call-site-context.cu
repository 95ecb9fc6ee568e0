// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch,cuda-full-warp-mask %t
// A mask that reaches the intrinsic through a wrapper's parameter is known
// at each call of the wrapper: the lanes that make the call and what it
// passes (a literal, a constant, a macro, the default, a template
// argument) are compared in the wrapper. The finding is at the call, with
// a note at the intrinsic; a wrapper wrong by itself is reported inside.
#define LOW_HALF 0x0000ffffu

__device__ float sumDown(unsigned mask, float v, int width = 32) {
  for (int o = width / 2; o > 0; o /= 2)
    v += __shfl_down_sync(mask, v, o, width);
  return v;
}

__device__ void barrier(unsigned mask = 0x000000ffu) { __syncwarp(mask); }

__global__ void literalThroughAWrapper(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 8)
    v = sumDown(0x0000ffff, v, 8);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'sumDown' reaches '__shfl_down_sync' with mask 0x0000ffff by lanes 0–7: lanes 8–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void macroLeavesCallersOut(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 24)
    v = sumDown(LOW_HALF, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'sumDown' reaches '__shfl_down_sync' with mask 0x0000ffff by lanes 0–23: lanes 16–23 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void defaultArgument(int *out) {
  unsigned lane = threadIdx.x & 31;
  if (lane >= 4 && lane < 12)
    barrier();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'barrier' reaches '__syncwarp' with mask 0x000000ff by lanes 4–11: lanes 8–11 call with a mask that leaves them out, and lanes 0–3, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = 1;
}

template <unsigned Mask> __global__ void templateArgument(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = sumDown(Mask, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'sumDown' reaches '__shfl_down_sync' with mask 0x000000ff by lanes 0–15: lanes 8–15 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}
template __global__ void templateArgument<0xffffu>(const float *, float *);
template __global__ void templateArgument<0xffu>(const float *, float *);

// Two wrappers deep: the mask is passed on.
__device__ float sumTwice(unsigned m, float v) { return sumDown(m, v, 16) * 2; }

__global__ void throughTwoWrappers(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane >= 16)
    v = sumTwice(0x0000ffff, v);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'sumTwice' reaches '__shfl_down_sync' with mask 0x0000ffff by lanes 16–31: lanes 16–31 call with a mask that leaves them out, and lanes 0–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

// A lane guard inside the wrapper, on a parameter the call binds.
__device__ void firstLanes(unsigned mask, int count, int *out) {
  if (threadIdx.x % 32 < count)
    __syncwarp(mask);
  out[threadIdx.x] = count;
}

__global__ void boundGuard(int *out) {
  firstLanes(0xff, 12, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: call to 'firstLanes' reaches '__syncwarp' with mask 0x000000ff by lanes 0–11: lanes 8–11 call with a mask that leaves them out [cuda-warp-mask-mismatch]
  firstLanes(0xfff, 12, out);
}

// A wrapper wrong by itself is reported where it is wrong, once.
__device__ void wrongInside(int *out) {
  if (threadIdx.x % 32 < 8)
    __syncwarp(0xffff);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '__syncwarp' is called with mask 0x0000ffff by lanes 0–7: lanes 8–15, which cannot reach this call, are named in the mask [cuda-warp-mask-mismatch]
  out[threadIdx.x] = 0;
}

__global__ void callsWrongInside(int *out) {
  if (threadIdx.x % 32 < 16)
    wrongInside(out);
}

// Quiet: masks that name the lanes that call.
__global__ void matchingMasks(const float *in, float *out, unsigned runtime) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = sumDown(0x0000ffff, v, 16);
  else
    v = sumDown(0xffff0000, v, 16);
  if (lane < 8)
    barrier();
  v += sumDown(runtime, v);
  v += sumDown(0xffffffff, v);
  out[threadIdx.x] = v;
}
