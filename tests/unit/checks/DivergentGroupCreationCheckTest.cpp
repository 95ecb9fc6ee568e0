//===--- DivergentGroupCreationCheckTest.cpp - cuda-divergent-group-creation //
//
// Partitions and implicit handles made where only part of the parent group
// is, and collectives on coalesced groups after the code diverged again.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/CheckTestHarness.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::test {
namespace {

constexpr llvm::StringLiteral Check = "-*,cuda-divergent-group-creation";
constexpr llvm::StringLiteral Prelude = R"cu(#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
)cu";
constexpr unsigned PreludeLines = 3;

CheckRun run(llvm::StringRef Body) {
  return runChecks((Prelude + Body).str(), Check);
}

std::vector<Finding> warningsOf(const CheckRun &Run) {
  std::vector<Finding> Warnings;
  for (const Finding &F : Run.Findings)
    if (F.Level == "warning")
      Warnings.push_back(F);
  return Warnings;
}

TEST(DivergentGroupCreationCheck, PartitionUnderBlockDivergentBranch) {
  CheckRun Run = run(R"cu(
__global__ void k(int *out, int active) {
  auto block = cg::this_thread_block();
  if (threadIdx.x / 32 < active) {
    auto tile = cg::tiled_partition<32>(block);
    out[threadIdx.x] = tile.thread_rank();
  }
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  ASSERT_EQ(Run.Findings.size(), 3u);
  EXPECT_EQ(
      Run.Findings[0],
      (Finding{PreludeLines + 5, 17, "warning", "cuda-divergent-group-creation",
               "'tiled_partition<32>' partitions thread_block 'block' "
               "under control flow that diverges within the block "
               "(branch); every thread of the parent group must reach "
               "it"}));
  EXPECT_EQ(Run.Findings[1],
            (Finding{PreludeLines + 3, 16, "note",
                     "cuda-divergent-group-creation", "'block' is made here"}));
  EXPECT_EQ(
      Run.Findings[2],
      (Finding{PreludeLines + 4, 7, "note", "cuda-divergent-group-creation",
               "this condition is not uniform across the block"}));
}

// A branch on the warp index is uniform within a warp tile but not within
// the block: partitioning the tile is fine, partitioning the block is not.
TEST(DivergentGroupCreationCheck, ParentScopeDecides) {
  CheckRun Run = run(R"cu(
__global__ void k(int *out, const int *keys) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  if (warp.meta_group_rank() == 1) {
    auto a = cg::tiled_partition<8>(warp);
    auto b = cg::labeled_partition(warp, keys[threadIdx.x]);
    auto c = cg::binary_partition(warp, keys[threadIdx.x] > 0);
    auto d = cg::tiled_partition(block, 64);
    out[threadIdx.x] = a.thread_rank() + b.thread_rank() + c.thread_rank() +
                       d.thread_rank();
  }
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0].Line, PreludeLines + 9);
  EXPECT_EQ(Warnings[0].Column, 14u);
}

TEST(DivergentGroupCreationCheck, EveryPartitionApiUnderALaneBranch) {
  CheckRun Run = run(R"cu(
__global__ void k(int *out, const int *keys) {
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  if (warp.thread_rank() < 20) {
    auto a = cg::tiled_partition<16>(warp);
    auto b = cg::labeled_partition(warp, keys[threadIdx.x]);
    auto c = cg::binary_partition(warp, keys[threadIdx.x] > 0);
    auto d = cg::tiled_partition(block, 32);
    auto e = cg::tiled_partition<32>(block);
    out[threadIdx.x] = a.thread_rank() + b.thread_rank() + c.thread_rank() +
                       d.thread_rank() + e.thread_rank();
  }
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 5u);
  const char *Prefixes[] = {
      "'tiled_partition<16>' partitions thread_block_tile<32> 'warp' under "
      "control flow that diverges within the warp",
      "'labeled_partition' partitions thread_block_tile<32> 'warp' under "
      "control flow that diverges within the warp",
      "'binary_partition' partitions thread_block_tile<32> 'warp' under "
      "control flow that diverges within the warp",
      "'tiled_partition' partitions thread_block 'block' under control flow "
      "that diverges within the block",
      "'tiled_partition<32>' partitions thread_block 'block' under control "
      "flow that diverges within the block"};
  for (unsigned I = 0; I < 5; ++I) {
    EXPECT_EQ(Warnings[I].Line, PreludeLines + 6 + I);
    EXPECT_EQ(Warnings[I].Message.rfind(Prefixes[I], 0), 0u)
        << Warnings[I].Message;
  }
}

TEST(DivergentGroupCreationCheck, ImplicitHandlesInsideDivergentBranches) {
  CheckRun Run = run(R"cu(
__global__ void k(int *out, int n) {
  if (threadIdx.x < n) {
    auto block = cg::this_thread_block();
    out[threadIdx.x] = block.thread_rank();
  }
  if (blockIdx.x == 1) {
    auto block = cg::this_thread_block();
    auto grid = cg::this_grid();
    out[grid.thread_rank()] = block.thread_rank();
  }
  if (n > 2) {
    auto grid = cg::this_grid();
    out[0] = grid.num_blocks();
  }
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 2u);
  EXPECT_EQ(
      Warnings[0],
      (Finding{PreludeLines + 4, 18, "warning", "cuda-divergent-group-creation",
               "'this_thread_block()' is made under control flow that "
               "diverges within the block (branch); create implicit "
               "group handles before any branching"}));
  EXPECT_EQ(
      Warnings[1],
      (Finding{PreludeLines + 9, 17, "warning", "cuda-divergent-group-creation",
               "'this_grid()' is made under control flow that diverges "
               "within the grid (branch); create implicit group "
               "handles before any branching"}));
}

TEST(DivergentGroupCreationCheck, CoalescedThreadsIsExemptWhereMade) {
  CheckRun Run = run(R"cu(
__global__ void k(int *out) {
  if (threadIdx.x % 3 == 0) {
    auto active = cg::coalesced_threads();
    out[threadIdx.x] = cg::reduce(active, 1, cg::plus<int>());
    active.sync();
  }
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  EXPECT_TRUE(Run.Findings.empty()) << toString(Run.Findings.front());
}

TEST(DivergentGroupCreationCheck, StaleCoalescedGroup) {
  CheckRun Run = run(R"cu(
__global__ void k(const int *in, int *out) {
  const int lane = threadIdx.x % 32;
  auto active = cg::coalesced_threads();
  if (lane < 8) {
    out[threadIdx.x] = active.num_threads();
    out[threadIdx.x] += cg::reduce(active, in[threadIdx.x], cg::plus<int>());
  }
  out[threadIdx.x] += cg::reduce(active, in[threadIdx.x], cg::plus<int>());
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  ASSERT_EQ(Run.Findings.size(), 4u);
  EXPECT_EQ(
      Run.Findings[0],
      (Finding{PreludeLines + 7, 25, "warning", "cuda-divergent-group-creation",
               "'cooperative_groups::reduce' on coalesced group "
               "'active' is reached under control flow that diverged "
               "after the group was made (branch): lanes that skipped "
               "this branch are still members of the group"}));
  EXPECT_EQ(
      Run.Findings[1],
      (Finding{PreludeLines + 4, 17, "note", "cuda-divergent-group-creation",
               "'active' is made here, with the lanes converged at this "
               "point"}));
  EXPECT_EQ(
      Run.Findings[2],
      (Finding{PreludeLines + 5, 7, "note", "cuda-divergent-group-creation",
               "this condition is not uniform across the warp"}));
  EXPECT_EQ(Run.Findings[3], (Finding{PreludeLines + 3, 13, "note",
                                      "cuda-divergent-group-creation",
                                      "'lane' depends on 'threadIdx.x'"}));
}

TEST(DivergentGroupCreationCheck, ReassignedGroupIsNotTracked) {
  CheckRun Run = run(R"cu(
__global__ void k(int *out) {
  auto g = cg::coalesced_threads();
  if (threadIdx.x % 2) {
    g = cg::coalesced_threads();
    g.sync();
  }
}
)cu");
  ASSERT_TRUE(Run.ParsedCleanly);
  EXPECT_TRUE(Run.Findings.empty()) << toString(Run.Findings.front());
}

} // namespace
} // namespace clang::tidy::cuda::test
