// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.AssumeBlockDimXMultipleOf32: true}}"
// With rows of whole warps, threadIdx.y is the same across each warp, but it
// still differs across the block: block barriers under it are flagged as
// without the option, and row-uniform conditions stay quiet.

__global__ void rowBranch(float *out) {
  __shared__ float s[32][33];
  int ty = threadIdx.y;
  s[ty][threadIdx.x] = ty;
  if (ty == 0) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:7: note: 'ty' depends on 'threadIdx.y'
  }
  out[ty * 32 + threadIdx.x] = s[threadIdx.x][ty];
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void blockRowsLoop(float *out, int rows) {
  for (int r = blockIdx.y; r < rows; r += gridDim.y) {
    out[r * blockDim.x + threadIdx.x] = 0.0f;
    __syncthreads();
  }
}
