//===--- ThreadIndexFormsTest.cpp - loops whose thread term cancels -------===//

#include "checks/analysis/divergence/ThreadIndexForms.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

TEST(ThreadIndexForms, CancellingLoops) {
  ParsedCuda P(R"cu(
__device__ int f(int);
__global__ void k(int n, int c, float *p, const int *len) {
  const int tid = threadIdx.x;
  int moving = threadIdx.x;
  for (int t = n * c + tid; t < (n + 1) * c + tid; t += c) {}      // 0
  for (int t = tid + 4; t <= tid + n; ++t) {}                      // 1
  for (int t = tid; t < n; t += 32) {}                             // 2
  for (int t = moving; t < n + moving; t += 32) { moving += 1; }   // 3
  for (int t = f(tid); t < n + f(tid); t = t + 1) {}               // 4
  for (int t = tid; t < tid + len[0]; t = t + c) {}                // 5
  for (int t = tid; t < n + tid; t *= 2) {}                        // 6
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  std::vector<const ForStmt *> Loops;
  for (const auto &Node :
       match(functionDecl(equalsNode(P.function("k")),
                          forEachDescendant(forStmt().bind("l"))),
             P.context()))
    Loops.push_back(Node.getNodeAs<ForStmt>("l"));
  llvm::sort(Loops, [&](const ForStmt *A, const ForStmt *B) {
    return P.context().getSourceManager().isBeforeInTranslationUnit(
        A->getBeginLoc(), B->getBeginLoc());
  });
  ASSERT_EQ(Loops.size(), 7u);
  std::optional<CancellingLoop> L0 = asCancellingLoop(Loops[0], P.context());
  ASSERT_TRUE(L0);
  // n * c, (n + 1) * c and the step c decide; tid cancels.
  EXPECT_EQ(L0->Deciding.size(), 3u);
  std::optional<CancellingLoop> L1 = asCancellingLoop(Loops[1], P.context());
  ASSERT_TRUE(L1);
  EXPECT_EQ(L1->Deciding.size(), 2u); // 4 and n; ++t has no step expression
  EXPECT_FALSE(asCancellingLoop(Loops[2], P.context()));
  EXPECT_FALSE(asCancellingLoop(Loops[3], P.context()));
  EXPECT_FALSE(asCancellingLoop(Loops[4], P.context()));
  std::optional<CancellingLoop> L5 = asCancellingLoop(Loops[5], P.context());
  ASSERT_TRUE(L5); // len[0] decides (and is judged by the analysis)
  EXPECT_EQ(L5->Deciding.size(), 2u);
  EXPECT_FALSE(asCancellingLoop(Loops[6], P.context()));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
