// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.ReportPotential: true}}"
// Lanes that leave the kernel for good count as exited, and the Guide's
// contract for the *_sync intrinsics concerns only the non-exited lanes the
// mask names. Lanes that returned: a vote is fine. Lanes that skip the
// branch and meet no warp collective again: potential (they exit once they
// get to the end). A shuffle reads another lane: only a leave by whole
// segments of its width keeps every survivor reading a survivor.

// Whole 8-lane rows return; the shuffles stay inside a row. Quiet.
__global__ void rowReturn(const float *x, float *y, int rows) {
  int row = blockIdx.x * 4 + threadIdx.x / 8;
  if (row >= rows)
    return;
  float v = x[row * 8 + threadIdx.x % 8];
  for (int m = 4; m > 0; m /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, m, 8);
  y[row * 8 + threadIdx.x % 8] = v;
}

// Single lanes return; lane i reads lane i ^ 1, which may have left.
__global__ void laneReturn(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:24: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  y[i] = v;
}

// A vote after a return: the returned lanes have exited. Quiet.
__global__ void voteAfterReturn(const int *x, unsigned *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] = __ballot_sync(0xffffffffu, x[i] > 0);
}

// A vote in a bounds check the other lanes run past to the end. Potential.
__global__ void voteThenLeave(const int *x, unsigned *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __ballot_sync(0xffffffffu, x[i] > 0);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:26: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask; potential: the lanes that skip it leave the kernel with no other warp collective and count as exited, so this is a bug only if the code relies on them taking part, which the tool does not see here [cuda-full-warp-mask]
}

// The same vote, but the lanes that skip it meet another one. Definite.
__global__ void voteThenVote(const int *x, unsigned *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = 0;
  if (i < n)
    b = __ballot_sync(0xffffffffu, x[i] > 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:23: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  y[i] = __any_sync(0xffffffffu, b != 0);
}

// A shuffle under the bounds check: lane 15 of a 16-element tail reads
// lane 16, which skipped it. Definite.
__global__ void shuffleThenLeave(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __shfl_down_sync(0xffffffffu, x[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
}
