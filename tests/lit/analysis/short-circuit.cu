// RUN: %check_cuda_tidy %s cuda-divergent-barrier,cuda-divergent-group-creation,cuda-full-warp-mask %t
// A short-circuit condition branches once per operand. A uniform first
// operand of && or || must not hide a thread-dependent second one, in any
// check, in an if, a loop or a nested condition.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void barrierAfterUniformAnd(int n) {
  if (n > 1 && threadIdx.x < 16)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void barrierAfterConstantOr() {
  if (false || threadIdx.x < 16)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void barrierInWhileAnd(int n) {
  while (n > 1 && threadIdx.x < 16) {
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    --n;
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void barrierUnderNestedOr(int n) {
  if (n > 1 && (n < 5 || threadIdx.x < 16))
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void shuffleAfterUniformAnd(int n, unsigned *p) {
  unsigned v = p[threadIdx.x];
  if (n > 1 && threadIdx.x % 32 < 16)
    v = __shfl_sync(0xffffffff, v, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  p[threadIdx.x] = v;
}

__global__ void partitionAfterUniformAnd(int n) {
  cg::thread_block block = cg::this_thread_block();
  if (n > 1 && threadIdx.x < 16) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'tiled_partition<32>' partitions thread_block 'block' under control flow that diverges within the block (branch); every thread of the parent group must reach it [cuda-divergent-group-creation]
    (void)tile;
  }
}

// Both operands uniform: nothing to report.
__global__ void bothUniform(int n) {
  if (n > 1 && blockIdx.x < 16)
    __syncthreads();
  while (n > 1 || gridDim.x > 4) {
    __syncthreads();
    --n;
  }
}
