// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.ReportPotential: true}}"
// Lanes that return on `threadIdx.D >= bound` (a bound the same for the whole
// block and not a literal) exist only when the block is launched wider than
// the bound: whether a full-mask shuffle after it names exited lanes is a
// fact of the launch, so the finding is potential (llm.c's softmax kernels
// return on `tid >= C` and are launched with C at least the block size).

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__global__ void rowSoftmax(float *out, const float *in, int C) {
  int tid = threadIdx.x;
  if (tid >= C)
    return;
  float sum = warpSum(in[tid]);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:15: warning: call to 'warpSum' reaches '__shfl_xor_sync' with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask; potential: only threads with threadIdx.x at or beyond 'C' return, so lanes leave only if the kernel is launched with a block wider than that in x, which the tool does not see here [cuda-full-warp-mask]
  // The same exit puts this shuffle under it too: one finding per cause
  // (GroupByCause), the one above, whose note names this one.
  out[tid] = __shfl_down_sync(0xffffffff, sum, 1);
}

// A global index runs past n in the last block whatever the launch:
// definite.
__global__ void tail(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = __shfl_down_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
}

// A literal bound trims the warp on purpose: definite.
__global__ void halfWarp(float *out) {
  if (threadIdx.x >= 16)
    return;
  out[threadIdx.x] = __shfl_down_sync(0xffffffff, out[threadIdx.x], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:39: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
}
