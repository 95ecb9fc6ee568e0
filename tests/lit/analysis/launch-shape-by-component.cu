// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.ReportPotential: true}}"
// A dim3 built component by component and reused for several launches
// (`dim3 t; t.x = 32; t.y = 4; k<<<g, t>>>(...); t.x = 16; ...`, HeCBench
// jaccard's main) is the same fact as `dim3 t(32, 4)` at each launch: the
// last assignment of each component before the launch, in the statements
// that run before it. Where a write between could change it (a loop around
// the launch, a call taking the dim3 by reference), the width is unknown
// and a finding that rests on it is potential.

__device__ float rowLeaderValue(float v) {
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  return v;
}

// Rows of 32: each warp is one row.
__global__ void wholeWarpRows(float *p) {
  p[threadIdx.x] = rowLeaderValue(p[threadIdx.x]);
}

// Rows of 16: launched after the same dim3 was narrowed.
__global__ void halfWarpRows(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-2]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  p[threadIdx.x] = v;
}

// The width is set in a loop after the launch: the next trip's launch may
// see it.
__global__ void widthChangedInTheLoop(float *p) {
  float v = p[threadIdx.x];
  if (threadIdx.y == 0)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask; potential: the condition depends on threadIdx.y or .z, which is the same across a warp when blockDim.x is a multiple of 32, and no launch in this file shows the block's width [cuda-full-warp-mask]
  p[threadIdx.x] = v;
}

void setWidth(dim3 &d, unsigned x) { d.x = x; }

int main(int argc, char **) {
  float *p = nullptr;
  for (int i = 0; i < 4; ++i) {
    dim3 threads, blocks;
    threads.x = 32;
    threads.y = 4;
    blocks.x = 8;
    wholeWarpRows<<<blocks, threads>>>(p);
    threads.x = 16;
    threads.y = 8;
    halfWarpRows<<<blocks, threads>>>(p);
  }
  dim3 looped;
  looped.y = 4;
  for (int i = 0; i < argc; ++i) {
    widthChangedInTheLoop<<<1, looped>>>(p);
    looped.x = 32 * (i + 1);
  }
  return 0;
}
