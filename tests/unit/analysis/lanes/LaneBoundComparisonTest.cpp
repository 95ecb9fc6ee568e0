//===--- LaneBoundComparisonTest.cpp - `threadIdx.x < 32` and friends -----===//
//
// The divergence analysis on comparisons of a lane-linear index with a bound
// (added for the warp-scope checks). Expectations from the execution model:
// `tid < C` is the same for every thread of an aligned tile of 2^k threads
// when C is a multiple of 2^k, because such a tile lies wholly below C or
// wholly at or above it.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/core/Uniformity.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

#ifndef CUDA_TIDY_TEST_RESOURCE_DIR
#define CUDA_TIDY_TEST_RESOURCE_DIR "/usr/lib/llvm-22/lib/clang/22"
#endif

/// The uniformity of each `probe(x)` argument in kernel `k`, in order.
std::vector<Uniformity> probes(llvm::StringRef Body) {
  std::string Code = ("#include <cooperative_groups.h>\n"
                      "namespace cg = cooperative_groups;\n"
                      "__device__ void probe(bool);\n"
                      "__device__ void probe(unsigned);\n"
                      "__global__ void k(int n, int m) {\n" +
                      Body + "\n}\n")
                         .str();
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-path=/usr/local/cuda",
                                   "-I/usr/local/cuda/include/cccl",
                                   "-Wno-unknown-cuda-version",
                                   "--cuda-gpu-arch=sm_90",
                                   "-std=c++17",
                                   std::string("-resource-dir=") +
                                       CUDA_TIDY_TEST_RESOURCE_DIR};
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, Args, "probe.cu");
  std::vector<Uniformity> Result;
  if (!AST || AST->getDiagnostics().hasErrorOccurred()) {
    ADD_FAILURE() << "snippet does not compile";
    return Result;
  }
  ASTContext &Ctx = AST->getASTContext();
  AnalysisManager Manager(Ctx, AnalysisOptions());
  auto Kernel =
      match(functionDecl(hasName("k"), isDefinition()).bind("k"), Ctx);
  const auto *FD = Kernel.front().getNodeAs<FunctionDecl>("k");
  const FunctionDivergence *D = Manager.divergence(FD);
  auto Calls = match(
      functionDecl(
          equalsNode(FD),
          forEachDescendant(
              callExpr(callee(functionDecl(hasName("probe")))).bind("c"))),
      Ctx);
  std::vector<const CallExpr *> Sorted;
  for (const auto &Node : Calls)
    Sorted.push_back(Node.getNodeAs<CallExpr>("c"));
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Sorted, [&](const CallExpr *A, const CallExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  for (const CallExpr *Call : Sorted)
    Result.push_back(D->uniformityOf(Call->getArg(0)));
  return Result;
}

TEST(LaneBoundComparison, MultiplesOfTheWarpSizeSplitBetweenWarps) {
  std::vector<Uniformity> P = probes(R"cu(
  unsigned tid = threadIdx.x;
  probe(tid < 32);          // 0: warp 0
  probe(tid >= 64);         // 1
  probe(tid <= 31);         // 2: the same bound, inclusive
  probe(tid > 95);          // 3
  probe(32 > tid);          // 4: operands swapped
  probe(tid < 32 * m);      // 5: a runtime multiple of 32
  probe(tid / 32 < n);      // 6: already warp-uniform
  probe(tid < 128);         // 7: four warps
  // The analysis takes blockDim.x to be a multiple of 32 for global indices
  // (docs/design/divergence.md), so a global index splits between warps too.
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  probe(gid < 64);          // 8
)cu");
  ASSERT_EQ(P.size(), 9u);
  for (unsigned I = 0; I < P.size(); ++I)
    EXPECT_TRUE(P[I].isUniformAt(Scope::Warp)) << "probe " << I;
  EXPECT_FALSE(P[0].isUniformAt(Scope::Block));
  EXPECT_TRUE(P[7].isUniformWithinTile(128));
  EXPECT_FALSE(P[7].isUniformAt(Scope::Block));
}

TEST(LaneBoundComparison, OtherBoundsSplitWarps) {
  std::vector<Uniformity> P = probes(R"cu(
  unsigned tid = threadIdx.x;
  probe(tid < 16);          // 0: half a warp: uniform in tiles of 16 only
  probe(tid < 48);          // 1
  probe(tid <= 32);         // 2: 33 threads
  probe(tid < n);           // 3: unknown bound
  probe(tid == 32);         // 4: equality singles out one lane
  probe(tid + 1 < 32);      // 5: shifted index
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  probe(gid < n);           // 6: a bounds check
  probe(tid % 32 < 16);     // 7: a lane index
)cu");
  ASSERT_EQ(P.size(), 8u);
  for (unsigned I = 0; I < P.size(); ++I)
    EXPECT_FALSE(P[I].isUniformAt(Scope::Warp)) << "probe " << I;
  EXPECT_TRUE(P[0].isUniformWithinTile(16));
  EXPECT_TRUE(P[7].isUniformWithinTile(16));
  EXPECT_FALSE(P[7].isUniformWithinTile(32));
}

// A lane term with a period, `tid % 2^k`, against multiples of 2^k: the
// multiples decide for every thread, so the comparison is as uniform as
// they are, not only within tiles of 2^k.
TEST(LaneBoundComparison, PeriodicLaneTermsAgainstMultiplesOfThePeriod) {
  std::vector<Uniformity> P = probes(R"cu(
  unsigned tid = threadIdx.x;
  probe(tid % 32 < 32);               // 0: always true
  probe(tid % 8 + 8 * n < 8 * m);     // 1: n < m, the same everywhere
  probe((tid % 8 + 8 * n) / 8 < m);   // 2: the quotient is n
  probe(tid % 16 + 8 * n < 8 * m);    // 3: the period outgrows the multiples
  probe(tid % 8 + 8 * blockIdx.x < 8 * m); // 4: block-uniform offset
)cu");
  ASSERT_EQ(P.size(), 5u);
  EXPECT_TRUE(P[0].isUniformAt(Scope::Grid));
  EXPECT_TRUE(P[1].isUniformAt(Scope::Grid));
  EXPECT_TRUE(P[2].isUniformAt(Scope::Grid));
  EXPECT_TRUE(P[3].isUniformWithinTile(8));
  EXPECT_FALSE(P[3].isUniformWithinTile(16));
  EXPECT_TRUE(P[4].isUniformAt(Scope::Block));
  EXPECT_FALSE(P[4].isUniformAt(Scope::Grid));
}

// thread_rank() of a block is its linear thread index, of a tile<N> that
// index modulo N: the same lane arithmetic as threadIdx.x and
// threadIdx.x % N.
TEST(LaneBoundComparison, GroupRanksAreLaneIndices) {
  std::vector<Uniformity> P = probes(R"cu(
  auto block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  auto quad = cg::tiled_partition<4>(block);
  probe(block.thread_rank() < 32);     // 0: warp 0
  probe(block.thread_rank() / 32);     // 1: the warp index
  probe(warp.thread_rank() < 16);      // 2: half warps
  probe(warp.thread_rank() / 8);       // 3: index of an 8-lane piece
  probe(quad.thread_rank() < 2);       // 4: pairs
  probe(warp.thread_rank());           // 5: a lane
  probe(warp.thread_rank() == 0);      // 6: one lane
)cu");
  ASSERT_EQ(P.size(), 7u);
  EXPECT_TRUE(P[0].isUniformAt(Scope::Warp));
  EXPECT_FALSE(P[0].isUniformAt(Scope::Block));
  EXPECT_TRUE(P[1].isUniformAt(Scope::Warp));
  EXPECT_TRUE(P[2].isUniformWithinTile(16));
  EXPECT_FALSE(P[2].isUniformWithinTile(32));
  EXPECT_TRUE(P[3].isUniformWithinTile(8));
  EXPECT_FALSE(P[3].isUniformWithinTile(16));
  EXPECT_TRUE(P[4].isUniformWithinTile(2));
  EXPECT_FALSE(P[4].isUniformWithinTile(4));
  EXPECT_EQ(P[5].scope(), Scope::Thread);
  EXPECT_FALSE(P[5].isUniformWithinTile(2));
  EXPECT_FALSE(P[6].isUniformWithinTile(2));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
