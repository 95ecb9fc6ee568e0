// RUN: %check_cuda_tidy %s cuda-divergent-group-creation %t -- -- -fgpu-rdc
// A vote over a group gives every member the same answer: a branch on a
// local that only ever holds such votes (cuda-samples cdpAdvancedQuicksort:
// `gt_mask = active.ballot(greater)`, then re-balloted under
// `if (gt_mask == 0)`) is uniform within the group, and a collective of the
// group under it is reached by all its members.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ unsigned countAbove(const unsigned *data, unsigned pivot) {
  cg::coalesced_group active = cg::coalesced_threads();
  unsigned value = data[threadIdx.x];
  unsigned greater = value > pivot;
  unsigned mask = active.ballot(greater);
  if (mask == 0) {
    greater = value >= pivot;
    mask = active.ballot(greater);
  }
  return __popc(mask) + __popc(active.ballot(!greater));
}

// The local also takes a per-lane value: not decided by the group.
__device__ unsigned mixed(const unsigned *data, unsigned pivot) {
  cg::coalesced_group active = cg::coalesced_threads();
  unsigned mask = active.ballot(data[threadIdx.x] > pivot);
  if (threadIdx.x & 1)
    mask = data[threadIdx.x];
  if (mask == 0)
    return active.ballot(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'coalesced_group::ballot()' on coalesced group 'active' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
  return 0;
}
