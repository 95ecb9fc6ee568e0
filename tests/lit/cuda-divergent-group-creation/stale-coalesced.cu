// RUN: %check_cuda_tidy %s cuda-divergent-group-creation %t
// A coalesced group names the lanes that were converged where it was made.
// A collective on it under control flow that diverged afterwards is reached
// by only some of its members (stale-coalesced-notes.cu has the shape
// measured on an H200, with its notes).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// Every collective of a coalesced group, under one stale branch.
__global__ void everyCollective(const int *in, int *out) {
  const int v = in[threadIdx.x];
  auto g = cg::coalesced_threads();
  if (v > 0) {
    g.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'coalesced_group::sync()' on coalesced group 'g' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
    cg::sync(g);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync' on coalesced group 'g'
    int x = g.shfl(v, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'coalesced_group::shfl()' on coalesced group 'g'
    x += g.shfl_up(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::shfl_up()' on coalesced group 'g'
    x += g.shfl_down(v, 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::shfl_down()' on coalesced group 'g'
    x += g.ballot(v > 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::ballot()' on coalesced group 'g'
    x += g.any(v > 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::any()' on coalesced group 'g'
    x += g.all(v > 3);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::all()' on coalesced group 'g'
    x += g.match_any(v);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::match_any()' on coalesced group 'g'
    int same = 0;
    x += g.match_all(v, same);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'coalesced_group::match_all()' on coalesced group 'g'
    x += cg::reduce(g, v, cg::plus<int>());
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::reduce' on coalesced group 'g'
    x += cg::inclusive_scan(g, v);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::inclusive_scan' on coalesced group 'g'
    x += cg::exclusive_scan(g, v, cg::plus<int>());
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::exclusive_scan' on coalesced group 'g'
    cg::invoke_one(g, [&] { out[0] = x; });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cooperative_groups::invoke_one' on coalesced group 'g'
    x += cg::invoke_one_broadcast(g, [&] { return x; });
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::invoke_one_broadcast' on coalesced group 'g'
    x += cg::labeled_partition(g, v % 4).thread_rank();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::labeled_partition' on coalesced group 'g'
    x += cg::binary_partition(g, v > 4).thread_rank();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::binary_partition' on coalesced group 'g'
    x += cg::tiled_partition(g, 4).thread_rank();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cooperative_groups::tiled_partition' on coalesced group 'g'
    // Not collectives: what the handle says about its membership.
    x += g.thread_rank() + g.num_threads() + g.size() + g.meta_group_rank();
    out[threadIdx.x] = x + same;
  }
}

// A type-erased handle that holds a coalesced group, and groups split off a
// warp by key: their membership, too, is fixed where they are made.
__global__ void otherCoalescedOrigins(const int *keys, int *out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = warp.thread_rank();
  cg::thread_group erased = cg::coalesced_threads();
  auto byKey = cg::labeled_partition(warp, keys[threadIdx.x]);
  if (lane < 4) {
    erased.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'thread_group::sync()' on coalesced group 'erased' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
    out[threadIdx.x] = byKey.shfl(lane, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'coalesced_group::shfl()' on coalesced group 'byKey' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
  }
}

// A group split off an 8-lane tile lies within that tile: a branch uniform
// across the tile leaves it whole, a branch inside the tile does not.
__global__ void splitOfSmallTile(const int *in, int *out) {
  auto eighth = cg::tiled_partition<8>(cg::this_thread_block());
  auto positive = cg::binary_partition(eighth, in[threadIdx.x] > 0);
  if (eighth.meta_group_rank() == 1)
    out[threadIdx.x] = cg::reduce(positive, 1, cg::plus<int>());
  if (eighth.thread_rank() < 4)
    positive.sync();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'coalesced_group::sync()' on coalesced group 'positive' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
}

// Other shapes of divergence after the group was made: a loop whose trip
// count differs per lane, an early return from a device function, and a
// group that comes from the caller.
__device__ int loopsAndExits(const int *in, int n) {
  auto g = cg::coalesced_threads();
  int sum = 0;
  for (int k = 0; k < in[threadIdx.x]; ++k)
    sum += g.shfl(k, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'coalesced_group::shfl()' on coalesced group 'g' is reached under control flow that diverged after the group was made (loop trip count): lanes that left the loop are still members of the group [cuda-divergent-group-creation]
  if (threadIdx.x >= n)
    return sum;
  return sum + cg::reduce(g, sum, cg::plus<int>());
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'cooperative_groups::reduce' on coalesced group 'g' is reached under control flow that diverged after the group was made (early exit): lanes that left early are still members of the group [cuda-divergent-group-creation]
}

__device__ void fromCaller(const cg::coalesced_group &g, int *out) {
  g.sync();
  if (threadIdx.x % 32 < 4)
    out[threadIdx.x] = g.ballot(1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'coalesced_group::ballot()' on coalesced group 'g' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
}

// thread_rank() choosing the lane that acts for the group (the aggregated
// atomic's leader): rank 0 may be among the lanes that left, and then nobody
// adds the group's count. Reading the rank for anything else is not a
// collective.
__global__ void staleLeader(int *counter, int *out) {
  auto g = cg::coalesced_threads();
  if (threadIdx.x % 32 >= 4) {
    int base = 0;
    if (g.thread_rank() == 0)
      base = atomicAdd(counter, g.num_threads());
    // CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'coalesced_group::thread_rank()' on coalesced group 'g' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
    out[threadIdx.x] = g.thread_rank() + base;
    out[threadIdx.x] += g.thread_rank() > 2 ? 1 : 0;
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'coalesced_group::thread_rank()' on coalesced group 'g' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
  }
}

// Branches the group decides by itself: every member of a labeled partition
// sees the same size(), so a loop over it runs the same trip count for all of
// them (though not for the whole warp); so does a vote of the group. Such a
// branch is stepped over, and a branch around it that splits the group is
// still found.
__global__ void groupByKey(const int *keys, float *values, float *sums,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cg::coalesced_group active = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(active, keys[i]);
  float sum = values[i];
  for (unsigned offset = 1; offset < same.size(); offset <<= 1) {
    float other = same.shfl_down(sum, offset);
    if (same.thread_rank() + offset < same.size())
      sum += other;
  }
  if (same.any(sum > 0.0f))
    same.sync();
  if (same.thread_rank() == 0)
    atomicAdd(&sums[keys[i]], sum);
  if (threadIdx.x % 32 < 8) {
    for (unsigned offset = 1; offset < same.size(); offset <<= 1)
      sum += same.shfl_down(sum, offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'coalesced_group::shfl_down()' on coalesced group 'same' is reached under control flow that diverged after the group was made (branch): lanes that skipped this branch are still members of the group [cuda-divergent-group-creation]
  }
  values[i] = sum;
}

// Quiet: a group made where it is used (coalesced_threads() is exempt where
// it is made), a collective after the branch has joined, a temporary, a loop
// with a uniform trip count, the aggregated-atomic idiom, and a sync after
// lanes returned from the kernel (exited lanes are not waited for).
__global__ void fresh(const int *in, int *out, int *counter, int n) {
  const int v = in[threadIdx.x];
  auto before = cg::coalesced_threads();
  if (v > 0) {
    auto here = cg::coalesced_threads();
    out[threadIdx.x] = cg::reduce(here, v, cg::plus<int>());
    here.sync();
    cg::coalesced_threads().sync();
  }
  out[threadIdx.x] += cg::reduce(before, v, cg::plus<int>());
  for (int k = 0; k < n; ++k)
    before.sync();
  if (v > 2) {
    auto g = cg::coalesced_threads();
    int prev = 0;
    if (g.thread_rank() == 0)
      prev = atomicAdd(counter, g.num_threads());
    prev = g.thread_rank() + g.shfl(prev, 0);
    out[threadIdx.x] = prev;
  }
  if (threadIdx.x >= n)
    return;
  before.sync();
}
