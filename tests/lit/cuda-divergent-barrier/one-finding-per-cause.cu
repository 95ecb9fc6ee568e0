// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// RUN: %check_cuda_tidy -check-suffix=ALL %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.GroupByCause: false}}"
// One divergent cause, one finding (issue 36 §3): the barriers one early
// return (or one branch) puts under it are reported once, at the first, with
// a note at the condition counting the others and a note at each. Two
// causes in one kernel stay two findings. GroupByCause: false reports every
// barrier.

// One exit, three barriers.
__global__ void threeBarriersOneExit(float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = out[i];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-8]]:7: note: the same divergence also reaches 2 more barriers; this finding stands for all of them (GroupByCause)
  // CHECK-NOTES: :[[@LINE+7]]:3: note: '__syncthreads()' is also reached under it
  // CHECK-NOTES: :[[@LINE+12]]:3: note: '__syncthreads()' is also reached under it
  // CHECK-NOTES-ALL: :[[@LINE-8]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES-ALL: :[[@LINE-12]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES-ALL: :[[@LINE-12]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES-ALL: :[[@LINE-15]]:7: note: 'i' depends on 'threadIdx.x'
  out[i] = tile[(threadIdx.x + 1) % 256];
  __syncthreads();
  // CHECK-NOTES-ALL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES-ALL: :[[@LINE-18]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES-ALL: :[[@LINE-18]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES-ALL: :[[@LINE-21]]:7: note: 'i' depends on 'threadIdx.x'
  tile[threadIdx.x] = out[i] * 2;
  __syncthreads();
  // CHECK-NOTES-ALL: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  // CHECK-NOTES-ALL: :[[@LINE-24]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES-ALL: :[[@LINE-24]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES-ALL: :[[@LINE-27]]:7: note: 'i' depends on 'threadIdx.x'
  out[i] += tile[(threadIdx.x + 3) % 256];
}

// Two branches, two causes: two findings, each standing alone.
__global__ void twoCauses(float *out, int n) {
  __shared__ float tile[256];
  if (threadIdx.x < n) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES-ALL: :[[@LINE-3]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES-ALL: :[[@LINE-6]]:7: note: this condition is not uniform across the block
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
  if (threadIdx.x % 3 == 0) {
    tile[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES-ALL: :[[@LINE-3]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES-ALL: :[[@LINE-6]]:7: note: this condition is not uniform across the block
    out[threadIdx.x] = tile[(threadIdx.x + 2) % 256];
  }
}

int main() {
  threeBarriersOneExit<<<4, 256>>>(nullptr, 9);
  twoCauses<<<4, 256>>>(nullptr, 9);
}
