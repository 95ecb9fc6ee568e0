// RUN: %check_cuda_tidy %s cuda-divergent-group-creation %t
// The stale coalesced group measured on an H200, with every note: cg::reduce
// over a 32-lane coalesced group under `if (lane < 8)` returns the sum of the
// 8 lanes present, not of the 32 the handle names. num_threads() is not a
// collective and stays quiet.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void groupSums(const int *in, int *out) {
  const int lane = threadIdx.x % 32;
  const int v = in[threadIdx.x];
  auto active = cg::coalesced_threads();
  if (lane < 8) {
    out[2 * threadIdx.x] = active.num_threads();
    out[2 * threadIdx.x + 1] = cg::reduce(active, v, cg::plus<int>());
    // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'cooperative_groups::reduce' on coalesced group 'active' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
    // CHECK-NOTES: :[[@LINE-5]]:17: note: 'active' is made here, with the lanes converged at this point
    // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the warp
    // CHECK-NOTES: :[[@LINE-9]]:13: note: 'lane' depends on 'threadIdx.x'
  }
}

// The compliant twin: the group is made inside the branch, where it is used.
__global__ void groupSumsFixed(const int *in, int *out) {
  const int lane = threadIdx.x % 32;
  const int v = in[threadIdx.x];
  if (lane < 8) {
    auto active = cg::coalesced_threads();
    out[2 * threadIdx.x] = active.num_threads();
    out[2 * threadIdx.x + 1] = cg::reduce(active, v, cg::plus<int>());
  }
}
