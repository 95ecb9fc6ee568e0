//===--- FullWarpMaskCheckTest.cpp - cuda-full-warp-mask in memory --------===//
//
// Each test states, from the CUDA execution model, which calls name lanes
// that may not be there; expectations are written from the source, not
// copied from the check's output.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/CheckTestHarness.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::test {
namespace {

constexpr llvm::StringLiteral Check = "-*,cuda-full-warp-mask";
/// The convergent advisory is a check of its own, off by default.
constexpr llvm::StringLiteral Advisory = "-*,cuda-prefer-tile-collectives";

std::string divergent(llvm::StringRef Intrinsic, llvm::StringRef Kind,
                      llvm::StringRef Missing) {
  return ("'" + Intrinsic +
          "' is called with a full warp mask under control flow that "
          "diverges within the warp (" +
          Kind + "): " + Missing + " are named in the mask")
      .str();
}

std::string convergent(llvm::StringRef Intrinsic) {
  return ("'" + Intrinsic +
          "' is called with a full warp mask, which assumes the whole warp is "
          "converged here; a cooperative-groups tile "
          "(cg::tiled_partition<32>(block) with cg::reduce or "
          "tile.shfl_down) carries its own membership")
      .str();
}

std::vector<Finding> warningsOf(const CheckRun &Run) {
  std::vector<Finding> Warnings;
  for (const Finding &F : Run.Findings)
    if (F.Level == "warning")
      Warnings.push_back(F);
  return Warnings;
}

TEST(FullWarpMaskCheck, HalfWarpShuffleIsADefiniteBugWithNotes) {
  CheckRun Run = runChecks(R"cu(
__global__ void k(int *out) {
  int lane = threadIdx.x % 32;
  int v = out[threadIdx.x];
  if (lane < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
)cu",
                           Check);
  ASSERT_TRUE(Run.ParsedCleanly);
  ASSERT_EQ(Run.Findings.size(), 3u);
  EXPECT_EQ(Run.Findings[0],
            (Finding{6, 27, "warning", "cuda-full-warp-mask",
                     divergent("__shfl_down_sync", "branch",
                               "lanes that skipped this branch")}));
  EXPECT_EQ(Run.Findings[1],
            (Finding{5, 7, "note", "cuda-full-warp-mask",
                     "this condition is not uniform across the warp"}));
  EXPECT_EQ(Run.Findings[2], (Finding{3, 7, "note", "cuda-full-warp-mask",
                                      "'lane' depends on 'threadIdx.x'"}));
}

TEST(FullWarpMaskCheck, ConvergentFullMaskGetsTheSuggestion) {
  CheckRun Run = runChecks(R"cu(
__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
)cu",
                           Advisory);
  ASSERT_TRUE(Run.ParsedCleanly);
  ASSERT_EQ(Run.Findings.size(), 1u);
  EXPECT_EQ(Run.Findings[0], (Finding{4, 26, "warning", "cuda-prefer-tile-collectives",
                                      convergent("__shfl_xor_sync")}));
}

TEST(FullWarpMaskCheck, ReportsOnlyDefiniteBugs) {
  CheckRun Run = runChecks(R"cu(
__device__ unsigned votes(bool p) { return __ballot_sync(0xffffffff, p); }
__global__ void k(unsigned *out) {
  if (threadIdx.x % 32 == 0)
    out[0] = __ballot_sync(0xffffffff, out[1] != 0);
  __syncwarp(); // the lanes that skipped stay in the kernel: definite
}
)cu",
                           Check);
  ASSERT_TRUE(Run.ParsedCleanly);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0],
            (Finding{5, 28, "warning", "cuda-full-warp-mask",
                     divergent("__ballot_sync", "branch",
                               "lanes that skipped this branch")}));
}

// Every intrinsic the issue names, each in a convergent function of its own:
// one finding per intrinsic, at its mask.
TEST(FullWarpMaskCheck, RecognisesEveryMaskedIntrinsic) {
  CheckRun Run = runChecks(R"cu(
__device__ void k(int *o, float f, double d, long long l, unsigned u) {
  int v = o[threadIdx.x]; int p = 0;
  o[0] = __shfl_sync(0xffffffff, v, 0);
  o[1] = __shfl_up_sync(0xffffffff, f, 1);
  o[2] = __shfl_down_sync(0xffffffff, d, 1);
  o[3] = __shfl_xor_sync(0xffffffff, l, 1);
  o[5] = __any_sync(0xffffffff, v);
  o[6] = __all_sync(0xffffffff, v);
  o[7] = __uni_sync(0xffffffff, v);
  o[8] = __match_any_sync(0xffffffff, v);
  o[9] = __match_all_sync(0xffffffff, u, &p);
  __syncwarp(0xffffffff);
  o[10] = __reduce_add_sync(0xffffffff, u);
  o[11] = __reduce_min_sync(0xffffffff, v);
  o[12] = __reduce_max_sync(0xffffffff, u);
  o[13] = __reduce_and_sync(0xffffffff, u);
  o[14] = __reduce_or_sync(0xffffffff, u);
  o[15] = __reduce_xor_sync(0xffffffff, u);
}
)cu",
                           Advisory);
  ASSERT_TRUE(Run.ParsedCleanly);
  const char *Expected[] = {
      "__shfl_sync",       "__shfl_up_sync",    "__shfl_down_sync",
      "__shfl_xor_sync",   "__any_sync",
      "__all_sync",        "__uni_sync",        "__match_any_sync",
      "__match_all_sync",  "__syncwarp",        "__reduce_add_sync",
      "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
      "__reduce_or_sync",  "__reduce_xor_sync"};
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), std::size(Expected));
  for (size_t I = 0; I < std::size(Expected); ++I) {
    EXPECT_EQ(Warnings[I].Line, 4 + I) << Expected[I];
    EXPECT_EQ(Warnings[I].Message, convergent(Expected[I]));
  }
}

TEST(FullWarpMaskCheck, RecognisesEverySpellingAndNothingElse) {
  CheckRun Run = runChecks(R"cu(#include <climits>
#define FULL 0xffffffff
constexpr unsigned kFull = ~0u;
__device__ void k(unsigned *o, unsigned param, bool b) {
  int local = 0xffffffff;
  unsigned changed = 0xffffffff;
  changed &= param;
  o[0] = __any_sync(0xffffffff, b);
  o[1] = __any_sync(0xFFFFFFFFu, b);
  o[2] = __any_sync(~0u, b);
  o[3] = __any_sync(~0, b);
  o[4] = __any_sync(-1, b);
  o[5] = __any_sync(UINT_MAX, b);
  o[6] = __any_sync((unsigned)-1, b);
  o[7] = __any_sync(0xffffffffull, b);
  o[8] = __any_sync(FULL, b);
  o[9] = __any_sync(kFull, b);
  o[10] = __any_sync(local, b);
  o[11] = __any_sync(changed, b);
  o[12] = __any_sync(param, b);
  o[13] = __any_sync(__activemask(), b);
  o[14] = __any_sync(0xfffffffe, b);
  o[15] = __any_sync(0x0000ffff, b);
}
)cu",
                           Advisory);
  ASSERT_TRUE(Run.ParsedCleanly);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 11u);
  for (unsigned I = 0; I < 11; ++I) {
    EXPECT_EQ(Warnings[I].Line, 8 + I);
    EXPECT_EQ(Warnings[I].Message, convergent("__any_sync"));
  }
}

TEST(FullWarpMaskCheck, NotesTheVariableThatHoldsTheMask) {
  CheckRun Run = runChecks(R"cu(
__device__ unsigned k(bool b) {
  int mask = 0xffffffff;
  return __any_sync(mask, b);
}
)cu",
                           Advisory);
  ASSERT_EQ(Run.Findings.size(), 2u);
  EXPECT_EQ(Run.Findings[0].Line, 4u);
  EXPECT_EQ(Run.Findings[0].Column, 21u);
  EXPECT_EQ(Run.Findings[1], (Finding{3, 7, "note", "cuda-prefer-tile-collectives",
                                      "'mask' holds a full warp mask"}));
}

TEST(FullWarpMaskCheck, DefaultSyncwarpMaskIsFull) {
  CheckRun Run = runChecks(R"cu(
__global__ void k(int *o) {
  if (threadIdx.x % 32 < 8) {
    o[threadIdx.x] = 1;
    __syncwarp();
  }
  o[threadIdx.x] += __shfl_sync(0xffffffff, 1, 0); // the others stay
}
)cu",
                           Check);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0],
            (Finding{5, 5, "warning", "cuda-full-warp-mask",
                     "'__syncwarp' is called with its default full warp mask "
                     "under control flow that diverges within the warp "
                     "(branch): lanes that skipped this branch are named in "
                     "the mask"}));
}

// `if (wid == 0) val = warpReduceSum(val);`, `if (tid < 32)`, a ballot under
// a block-uniform condition: whole warps either enter or skip.
TEST(FullWarpMaskCheck, WarpUniformBranchesAreNotDefiniteBugs) {
  CheckRun Run = runChecks(R"cu(
__device__ float warpReduceSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
__global__ void k(float *data, int n) {
  int wid = threadIdx.x / 32;
  float val = data[threadIdx.x];
  if (wid == 0) val = warpReduceSum(val);
  if (threadIdx.x < 32) val = warpReduceSum(val);
  if (threadIdx.x >= 64) val = warpReduceSum(val);
  if (blockIdx.x < n) data[0] = __ballot_sync(0xffffffff, val > 0);
  data[threadIdx.x] = val;
}
)cu",
                           Check);
  ASSERT_TRUE(Run.ParsedCleanly);
  EXPECT_TRUE(Run.Findings.empty()) << toString(Run.Findings.front());
}

// Not warp-aligned: 16, 48 and a runtime bound split warps.
TEST(FullWarpMaskCheck, UnalignedBoundsSplitTheWarp) {
  CheckRun Run = runChecks(R"cu(
__global__ void k(unsigned *o, unsigned n) {
  if (threadIdx.x < 48) o[0] = __ballot_sync(0xffffffff, 1);
  if (threadIdx.x <= 32) o[1] = __ballot_sync(0xffffffff, 1);
  if (threadIdx.x < n) o[2] = __ballot_sync(0xffffffff, 1);
  if (threadIdx.x <= 31) o[3] = __ballot_sync(0xffffffff, 1);
  if (threadIdx.x > 63) o[4] = __ballot_sync(0xffffffff, 1);
  if (32 > threadIdx.x) o[5] = __ballot_sync(0xffffffff, 1);
}
)cu",
                           Check);
  ASSERT_TRUE(Run.ParsedCleanly);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 3u);
  EXPECT_EQ(Warnings[0].Line, 3u);
  EXPECT_EQ(Warnings[1].Line, 4u);
  EXPECT_EQ(Warnings[2].Line, 5u);
}

TEST(FullWarpMaskCheck, CallUnderLaneBranchIsReportedAtTheCall) {
  CheckRun Run = runChecks(R"cu(
__device__ unsigned vote(bool p) { return __ballot_sync(0xffffffff, p); }
__global__ void k(unsigned *o) {
  if (threadIdx.x & 1)
    o[threadIdx.x] = vote(true);
  __syncwarp(); // the lanes that skipped stay in the kernel: definite
}
)cu",
                           Check);
  ASSERT_TRUE(Run.ParsedCleanly);
  ASSERT_EQ(Run.Findings.size(), 3u);
  EXPECT_EQ(Run.Findings[0],
            (Finding{5, 22, "warning", "cuda-full-warp-mask",
                     "call to 'vote' reaches '__ballot_sync' with a full warp "
                     "mask under control flow that diverges within the warp "
                     "(branch): lanes that skipped this branch are named in "
                     "the mask"}));
  EXPECT_EQ(Run.Findings[1].Line, 4u);
  EXPECT_EQ(Run.Findings[2],
            (Finding{2, 57, "note", "cuda-full-warp-mask",
                     "'__ballot_sync' is called here with a full warp mask"}));
}

// Lanes that returned from the kernel have exited: a vote after that is well
// defined, a shuffle reads an exited lane.
TEST(FullWarpMaskCheck, KernelReturnExitsLanesForVotesNotShuffles) {
  CheckRun Run = runChecks(R"cu(
__global__ void k(int *o, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;
  o[0] = __any_sync(0xffffffff, o[threadIdx.x]);
  o[1] = __shfl_sync(0xffffffff, o[threadIdx.x], 0);
}
)cu",
                           Check);
  std::vector<Finding> Warnings = warningsOf(Run);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0], (Finding{5, 22, "warning", "cuda-full-warp-mask",
                                  divergent("__shfl_sync", "early exit",
                                            "lanes that left early")}));
}

TEST(FullWarpMaskCheck, ExitOnlyAnOversizedBlockTakesIsPotential) {
  // `threadIdx.x >= n` with n the kernel's own bound: lanes leave only if
  // the block is launched wider than n (BlockExtentGuards.h).
  llvm::StringRef Code = R"cu(
__global__ void k(int *o, int n) {
  if (threadIdx.x >= n) return;
  o[1] = __shfl_sync(0xffffffff, o[threadIdx.x], 0);
}
)cu";
  EXPECT_EQ(warningsOf(runChecks(Code, Check)).size(), 0u);
  std::vector<Finding> Potential = warningsOf(runChecks(
      Code, Check,
      "CheckOptions:\n  cuda-full-warp-mask.ReportPotential: true\n"));
  ASSERT_EQ(Potential.size(), 1u);
  EXPECT_NE(Potential[0].Message.find(
                "potential: only threads with threadIdx.x at or beyond 'n' "
                "return, so lanes leave only if the kernel is launched with a "
                "block wider than that in x"),
            std::string::npos)
      << Potential[0].Message;
}

TEST(FullWarpMaskCheck, RowsOfWholeWarpsOption) {
  llvm::StringRef Code = R"cu(
__global__ void k(float *o) {
  if (threadIdx.y == 1) o[0] = __shfl_sync(0xffffffff, o[threadIdx.x], 0);
}
)cu";
  // No launch shows the block's width: the finding is potential, off by
  // default, and names the fact it rests on when asked for.
  EXPECT_EQ(warningsOf(runChecks(Code, Check)).size(), 0u);
  std::vector<Finding> Potential = warningsOf(runChecks(
      Code, Check,
      "CheckOptions:\n  cuda-full-warp-mask.ReportPotential: true\n"));
  ASSERT_EQ(Potential.size(), 1u);
  EXPECT_NE(Potential[0].Message.find("potential: the condition depends on "
                                      "threadIdx.y or .z"),
            std::string::npos);
  CheckRun Rows =
      runChecks(Code, Check,
                "CheckOptions:\n"
                "  cuda-full-warp-mask.AssumeBlockDimXMultipleOf32: true\n");
  EXPECT_TRUE(Rows.Findings.empty()) << toString(Rows.Findings.front());
}

} // namespace
} // namespace clang::tidy::cuda::test
