//===--- WarpReductionsTest.cpp - butterfly loops -------------------------===//

#include "checks/analysis/divergence/WarpReductions.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

TEST(WarpReductions, ButterflyLoops) {
  ParsedCuda P(R"cu(
__global__ void k(float *p, int n) {
  float a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6];
  for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(0xffffffff, a, o);     // 0
  for (int o = 1; o < 32; o *= 2) { b = fmaxf(b, __shfl_xor_sync(~0u, b, o)); } // 1
  for (int o = 4; o >= 1; o /= 2) c = c + __shfl_xor_sync(0xffffffff, c, o, 8); // 2
  for (int o = 16; o > 1; o >>= 1) d += __shfl_xor_sync(0xffffffff, d, o);     // 3
  for (int o = 16; o > 0; o >>= 1) e += __shfl_down_sync(0xffffffff, e, o);    // 4
  for (int o = 16; o > 0; o >>= 1) f += __shfl_xor_sync(0xffffffff, g, o);     // 5
  for (int o = 16; o > 0; o >>= 1) { g += __shfl_xor_sync(0xffffffff, g, o); p[o] = g; } // 6
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
  auto L0 = asButterflyLoop(Loops[0], P.context());
  ASSERT_TRUE(L0);
  EXPECT_EQ(L0->Value->getName(), "a");
  EXPECT_EQ(L0->Width, 32u);
  auto L1 = asButterflyLoop(Loops[1], P.context());
  ASSERT_TRUE(L1);
  EXPECT_EQ(L1->Value->getName(), "b");
  auto L2 = asButterflyLoop(Loops[2], P.context());
  ASSERT_TRUE(L2);
  EXPECT_EQ(L2->Width, 8u);
  EXPECT_FALSE(asButterflyLoop(Loops[3], P.context())); // stops at 2
  EXPECT_FALSE(asButterflyLoop(Loops[4], P.context())); // not xor
  EXPECT_FALSE(asButterflyLoop(Loops[5], P.context())); // shuffles another
  EXPECT_FALSE(asButterflyLoop(Loops[6], P.context())); // more than a step
}

} // namespace
} // namespace clang::tidy::cuda::analysis
