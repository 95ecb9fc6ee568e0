// RUN: %check_cuda_tidy -check-suffix=DEFAULT %s cuda-full-warp-mask,cuda-prefer-tile-collectives %t
// RUN: %check_cuda_tidy -check-suffix=DIVERGENT-ONLY %s cuda-full-warp-mask %t
// RUN: %check_cuda_tidy -check-suffix=ROWS %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.AssumeBlockDimXMultipleOf32: true}}"
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.ReportPotential: true}}"
// DEFAULT adds the opt-in cuda-prefer-tile-collectives (full masks in
// convergent code); DIVERGENT-ONLY is cuda-full-warp-mask alone;
// AssumeBlockDimXMultipleOf32 makes threadIdx.y and .z warp-uniform;
// ReportPotential adds findings that hold only if the block is not whole
// warps wide, which nothing in the file shows.

__global__ void warpSums(float *data) {
  float v = data[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with a full warp mask, which assumes the whole warp is converged here; a cooperative-groups tile (cg::tiled_partition<32>(block) with cg::reduce or tile.shfl_down) carries its own membership [cuda-prefer-tile-collectives]
  data[threadIdx.x] = v;
}

// With 32-wide rows, each warp is one row: `threadIdx.y == 0` is uniform
// across the warp. Nothing here shows the block's width, so a row could
// straddle warps: a potential finding, off by default.
__global__ void firstRow(float *data) {
  float v = data[threadIdx.y * blockDim.x + threadIdx.x];
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask; potential: the condition depends on threadIdx.y or .z, which is the same across a warp when blockDim.x is a multiple of 32, and no launch in this file shows the block's width [cuda-full-warp-mask]
  data[threadIdx.y * blockDim.x + threadIdx.x] = v;
}

// Lane-dependent branches stay definite bugs under every option.
__global__ void laneBranch(unsigned *out) {
  if (threadIdx.x % 32 < 8)
    __syncwarp(0xffffffff);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:16: warning: '__syncwarp' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-DIVERGENT-ONLY: :[[@LINE-2]]:16: warning: '__syncwarp' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-ROWS: :[[@LINE-3]]:16: warning: '__syncwarp' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-4]]:16: warning: '__syncwarp' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // Every thread meets this barrier: the lanes that skipped the branch do
  // not leave the kernel (divergence/ExitedThreads.h), so the finding is
  // definite.
  __syncthreads();
}
