// RUN: %check_cuda_tidy %s cuda-divergent-group-creation,cuda-divergent-barrier %t -- -- -fgpu-rdc
// A branch on the value a partition was split on is uniform within that
// partition: every member took the same side of the split. Branches on
// anything else still make the partition stale.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void oddSums(const int *in, int *odd, int *count) {
  auto tile32 = cg::tiled_partition<32>(cg::this_thread_block());
  int elem = in[blockIdx.x * blockDim.x + threadIdx.x];
  auto sub = cg::binary_partition(tile32, elem & 1);
  if (elem & 1) {
    int sum = cg::reduce(sub, elem, cg::plus<int>());
    if (sub.thread_rank() == 0) {
      atomicAdd(odd, sum);
      atomicAdd(count, (int)sub.size());
    }
  }
  if (!(elem & 1))
    sub.sync();
}

__global__ void labelBranches(const int *in, int *out) {
  auto tile32 = cg::tiled_partition<32>(cg::this_thread_block());
  int label = in[threadIdx.x] % 4;
  auto part = cg::labeled_partition(tile32, label);
  if (label == 2 && out != nullptr)
    out[0] = cg::reduce(part, 1, cg::plus<int>());
  if (threadIdx.x % 2)
    out[1] = cg::reduce(part, 1, cg::plus<int>());
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cooperative_groups::reduce' on coalesced group 'part' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
}

// The key changes after the split: the branch no longer follows it.
__global__ void keyChanged(const int *in, int *out) {
  auto tile32 = cg::tiled_partition<32>(cg::this_thread_block());
  int label = in[threadIdx.x] % 4;
  auto part = cg::labeled_partition(tile32, label);
  label = in[threadIdx.x + 32] % 4;
  if (label == 1)
    out[0] = cg::reduce(part, 1, cg::plus<int>());
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cooperative_groups::reduce' on coalesced group 'part' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
}

// A device-side launch starts a new grid: the parent's divergence does not
// reach the child kernel's barrier.
__global__ void child(int *p) {
  __syncthreads();
  p[threadIdx.x] = 0;
}
__global__ void parent(int *p) {
  if (threadIdx.x == 0)
    child<<<1, 64>>>(p);
}
