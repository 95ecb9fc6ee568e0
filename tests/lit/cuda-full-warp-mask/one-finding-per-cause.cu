// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// RUN: %check_cuda_tidy -check-suffix=ALL %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.GroupByCause: false}}"
// One divergent cause, one finding (issue 36 §3): an unrolled reduction under
// one lane-dependent guard is one finding, not one per shuffle. A
// divergence inside a callee on an argument stays one finding per call.

__global__ void unrolledUnderOneGuard(float *out, int n) {
  float v = out[threadIdx.x];
  if (threadIdx.x % 32 < n) {
    v += __shfl_down_sync(0xffffffff, v, 16);
    // CHECK-NOTES: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the same divergence also reaches 2 more full-mask warp intrinsics; this finding stands for all of them (GroupByCause)
    // CHECK-NOTES: :[[@LINE+4]]:27: note: '__shfl_down_sync' is also reached under it
    // CHECK-NOTES: :[[@LINE+6]]:27: note: '__shfl_down_sync' is also reached under it
    // CHECK-NOTES-ALL: :[[@LINE-6]]:27: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES-ALL: :[[@LINE-8]]:7: note: this condition is not uniform across the warp
    v += __shfl_down_sync(0xffffffff, v, 8);
    // CHECK-NOTES-ALL: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES-ALL: :[[@LINE-11]]:7: note: this condition is not uniform across the warp
    v += __shfl_down_sync(0xffffffff, v, 4);
    // CHECK-NOTES-ALL: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    // CHECK-NOTES-ALL: :[[@LINE-14]]:7: note: this condition is not uniform across the warp
  }
  out[threadIdx.x] = v;
}

int main() { unrolledUnderOneGuard<<<4, 256>>>(nullptr, 9); }
