// RUN: %check_cuda_tidy %s cuda-divergent-barrier,cuda-full-warp-mask %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-divergent-barrier,cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.ReportPotential: true}}"
// Kernels whose blocks are whole warps wide (blockDim.x a multiple of 32)
// branch on threadIdx.y between warps, never inside one. The analysis learns
// the shape from the launch sites and shape checks in the file; where it
// cannot, a finding that rests on threadIdx.y splitting a warp is potential
// (off by default, its message names the missing fact); a known width that
// is not a multiple of 32 keeps it definite.
#include <cassert>
#define WARP_SIZE 32

// Launched with dim3(WARP_SIZE, nwarps): each warp is one row.
__global__ void rowsLaunched(float *p) {
  float v = p[threadIdx.y * blockDim.x + threadIdx.x];
  if (threadIdx.y == 0)
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xffffffff, v, offset);
  p[threadIdx.y * blockDim.x + threadIdx.x] = v;
}

// The kernel asserts its own shape.
__global__ void rowsAsserted(float *p) {
  assert(blockDim.x == WARP_SIZE);
  float v = p[threadIdx.x];
  if (threadIdx.y < 2)
    v = __shfl_sync(0xffffffff, v, 0);
  p[threadIdx.x] = v;
}

// A device function called only from a kernel with whole-warp rows.
__device__ float rowLeader(float v) {
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  return v;
}
__global__ void callsRowLeader(float *p) { p[threadIdx.x] = rowLeader(p[0]); }

// Rows of 16 threads: two rows share a warp, so the branch splits warps.
__global__ void halfWarpRows(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  p[threadIdx.x] = v;
}

// Launched with a block size the file cannot know.
__global__ void unknownShape(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask; potential: the condition depends on threadIdx.y or .z, which is the same across a warp when blockDim.x is a multiple of 32, and no launch in this file shows the block's width [cuda-full-warp-mask]
  p[threadIdx.x] = v;
}

// Whole-warp rows make threadIdx.y warp-uniform, not block-uniform.
__global__ void barrierOnRow(float *p) {
  if (threadIdx.y == 0)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

void launchAll(float *p, int n, int nwarps, int threads) {
  const dim3 rows(WARP_SIZE, nwarps, 1);
  rowsLaunched<<<n, rows>>>(p);
  rowsAsserted<<<n, dim3(threads, nwarps)>>>(p);
  callsRowLeader<<<n, dim3(2 * WARP_SIZE, nwarps)>>>(p);
  halfWarpRows<<<n, dim3(16, 2)>>>(p);
  unknownShape<<<n, dim3(threads, 2)>>>(p);
  barrierOnRow<<<n, rows>>>(p);
}
