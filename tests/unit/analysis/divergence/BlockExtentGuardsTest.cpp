//===--- BlockExtentGuardsTest.cpp - exits only an oversized block takes --===//

#include "checks/analysis/divergence/BlockExtentGuards.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

/// The guard of the first `return` in \p Name, judged on its enclosing if.
std::optional<BlockExtentGuard> guardOf(ParsedCuda &P, llvm::StringRef Name) {
  const FunctionDecl *F = P.function(Name);
  if (!F)
    return std::nullopt;
  auto Nodes = match(
      functionDecl(equalsNode(F),
                   forEachDescendant(
                       ifStmt(hasDescendant(returnStmt().bind("r"))).bind("if"))),
      P.context());
  if (Nodes.empty()) {
    ADD_FAILURE() << "no if with a return in " << Name.str();
    return std::nullopt;
  }
  FunctionDivergence D(F, P.context(), AnalysisOptions(), nullptr);
  return blockExtentGuard(Nodes.front().getNodeAs<Stmt>("if"),
                          Nodes.front().getNodeAs<Stmt>("r"), D, P.context());
}

TEST(BlockExtentGuards, PlainThreadIndexAgainstAUniformBound) {
  ParsedCuda P(R"cu(
__global__ void direct(int n) { if (threadIdx.x >= n) return; }
__global__ void viaLocal(int n) { int col = threadIdx.y; if (col >= n) return; }
__global__ void viaConst(int n) { const int row = threadIdx.z; if (n <= row) return; }
__global__ void strictly(unsigned n) { if (threadIdx.x > n - 1) return; }
__global__ void elseSide(unsigned n) { if (threadIdx.x < n) { } else { return; } }
__global__ void negated(unsigned n) { if (!(threadIdx.x < n)) return; }
template <int K> __global__ void templated() { if (threadIdx.y >= K) return; }
template __global__ void templated<8>();
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto G = guardOf(P, "direct");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Dimension, 'x');
  EXPECT_EQ(G->Index, nullptr);
  G = guardOf(P, "viaLocal");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Dimension, 'y');
  ASSERT_NE(G->Index, nullptr);
  EXPECT_EQ(G->Index->getName(), "col");
  G = guardOf(P, "viaConst");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Dimension, 'z');
  EXPECT_TRUE(guardOf(P, "strictly"));
  EXPECT_TRUE(guardOf(P, "elseSide"));
  EXPECT_TRUE(guardOf(P, "negated"));
  // A template argument is the kernel's bound, not a literal in the code.
  EXPECT_TRUE(guardOf(P, "templated"));
}

TEST(BlockExtentGuards, WarpIndicesAndChainsWithUniformOperands) {
  ParsedCuda P(R"cu(
__global__ void warpLocal(long groups) {
  const int warp_id = threadIdx.x / 32;
  const int n = static_cast<int>(groups);
  const int num_warps = blockDim.x / 32;
  if (warp_id >= n || num_warps < n) return;
}
__global__ void shifted(int n) { if ((threadIdx.x >> 5) >= n) return; }
__global__ void rows(int n) { if (n <= threadIdx.y / 4) return; }
__global__ void both(int n, int m) { if (m > 2 && threadIdx.x >= n) return; }
__global__ void elseChain(unsigned n, int m) {
  if (threadIdx.x < n && m > 0) { } else { return; }
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto G = guardOf(P, "warpLocal");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Dimension, 'x');
  EXPECT_EQ(G->Scale, 32u);
  ASSERT_NE(G->Index, nullptr);
  EXPECT_EQ(G->Index->getName(), "warp_id");
  EXPECT_EQ(boundSpelling(*G, P.context()), "32 * n");
  G = guardOf(P, "shifted");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Scale, 32u);
  G = guardOf(P, "rows");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Dimension, 'y');
  EXPECT_EQ(G->Scale, 4u);
  G = guardOf(P, "both");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Scale, 1u);
  EXPECT_TRUE(guardOf(P, "elseChain"));
}

TEST(BlockExtentGuards, NotAGuard) {
  ParsedCuda P(R"cu(
__global__ void literal() { if (threadIdx.x >= 32) return; }
__global__ void global(int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return; }
__global__ void lowSide(int n) { if (threadIdx.x < n) return; }
__global__ void thenOfLess(int n) { if (threadIdx.x < n) { return; } }
__global__ void modified(int n) { int t = threadIdx.x; t *= 2; if (t >= n) return; }
__global__ void varyingBound(int *b) { if (threadIdx.x >= b[threadIdx.x]) return; }
__global__ void otherIndex(int n) { if (blockIdx.x >= n) return; }
__device__ void deviceTail(int n) { if (threadIdx.x >= n) return; }
__global__ void twoIndices(int n) { if (threadIdx.x >= n || threadIdx.y >= n) return; }
__global__ void varyingDivisor(int n, int *d) { if (threadIdx.x / d[threadIdx.x] >= n) return; }
__global__ void lowWarps(int n) { const int w = threadIdx.x / 32; if (w < n) return; }
__global__ void laneOperand(int n) { if (threadIdx.x >= n || threadIdx.x % 32 == 0) return; }
__global__ void laneRemainder(int n) { if (threadIdx.x % 32 >= n) return; }
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  for (const char *Name : {"literal", "global", "lowSide", "thenOfLess",
                           "modified", "varyingBound", "otherIndex",
                           "deviceTail", "twoIndices", "varyingDivisor",
                           "lowWarps", "laneOperand", "laneRemainder"})
    EXPECT_FALSE(guardOf(P, Name)) << Name;
}

} // namespace
} // namespace clang::tidy::cuda::analysis
