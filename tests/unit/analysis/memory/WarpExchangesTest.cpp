//===--- WarpExchangesTest.cpp - lanes of one warp through __shared__ -----===//
//
// The facts cuda-implicit-warp-sync reports from (WarpExchanges.h), read
// through AnalysisManager::sharedAccessSites as the rules read them: which
// reads race with another lane's write of the same warp, which intervals
// are left to the block rule, and that the block and warp analyses of one
// kernel are built once and share their evaluations.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/memory/WarpExchanges.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

struct Exchanges {
  ParsedCuda P;
  AnalysisManager Manager;
  std::vector<WarpExchange> Found;
  /// Every site's exchanges, the kernel's own first.
  Exchanges(llvm::StringRef Code, llvm::StringRef Kernel)
      : P(Code), Manager(P.context(), AnalysisOptions()) {
    for (const SharedAccessSite &Site :
         Manager.sharedAccessSites(P.function(Kernel), Scope::Warp))
      for (WarpExchange &E : warpExchanges(*Site.Accesses, P.context()))
        Found.push_back(std::move(E));
  }
};

TEST(WarpExchanges, VolatileLastWarpReduction) {
  Exchanges X(R"cu(
__global__ void k(float *out) {
  __shared__ volatile float s[64];
  unsigned t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
  }
  if (t == 0)
    out[0] = s[0];
}
void host(float *out) { k<<<1, 64>>>(out); }
)cu",
              "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.Found.size(), 1u) << "one unsynchronized sequence";
  const WarpExchange &E = X.Found.front();
  EXPECT_EQ(E.Var->getName(), "s");
  ASSERT_GE(E.Reads.size(), 3u);
  EXPECT_FALSE(E.Reads.front().Witness.CrossWarp);
  EXPECT_LT(E.Reads.front().Witness.First[0], 32u);
  EXPECT_LT(E.Reads.front().Witness.Second[0], 32u);
  // The second step's read races with the first step's update, in an
  // earlier statement: a __syncwarp() before it orders them.
  EXPECT_TRUE(E.Reads[2].WriteBefore || E.Reads[3].WriteBefore);
}

TEST(WarpExchanges, SyncwarpBetweenStepsIsQuiet) {
  Exchanges X(R"cu(
__global__ void k(float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  if (t < 32) {
    float v = s[t] + s[t + 16];
    __syncwarp();
    s[t] = v;
    __syncwarp();
    v = s[t] + s[t + 8];
    __syncwarp();
    s[t] = v;
  }
}
void host(float *out) { k<<<1, 64>>>(out); }
)cu",
              "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.Found.empty());
}

TEST(WarpExchanges, ThreadsOfTwoWarpsAreTheBlockRules) {
  Exchanges X(R"cu(
__global__ void k(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = out[t];
  out[t] = s[(t + 1) % 256];
}
void host(float *out) { k<<<1, 256>>>(out); }
)cu",
              "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.Found.empty()) << "thread 31 reads what thread 32 writes";
}

TEST(WarpExchanges, PerWarpScratchAndOwnSlot) {
  Exchanges X(R"cu(
__global__ void k(float *out) {
  __shared__ float scratch[8][32];
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  scratch[w][l] = out[threadIdx.x];
  out[threadIdx.x] = scratch[w][l];       // own slot
  out[threadIdx.x] += scratch[w][l ^ 1];  // the partner lane's
}
void host(float *out) { k<<<1, 256>>>(out); }
)cu",
              "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.Found.size(), 1u);
  ASSERT_EQ(X.Found.front().Reads.size(), 1u) << "the own-slot read is not one";
  EXPECT_TRUE(X.Found.front().Reads.front().WriteBefore);
  EXPECT_EQ(X.Found.front().Members.size(), 3u);
}

TEST(WarpExchanges, CallSiteContextOfTheFirstWarp) {
  Exchanges X(R"cu(
__device__ void step(volatile float *s, unsigned t) {
  s[t] += s[t + 16];
  s[t] += s[t + 8];
}
__global__ void k(float *out) {
  __shared__ float sums[64];
  sums[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32)
    step(sums, threadIdx.x);
}
void host(float *out) { k<<<1, 64>>>(out); }
)cu",
              "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.Found.size(), 1u) << "found in the callee, for the call";
  EXPECT_EQ(X.Found.front().Var->getName(), "sums");
}

TEST(WarpExchanges, SitesAreBuiltOncePerKernelAndScope) {
  ParsedCuda P(R"cu(
__device__ void fillOwnSlot(float *s) { s[threadIdx.x] = 1.0f; }
__global__ void k(float *out) {
  __shared__ float s[64];
  fillOwnSlot(s);
  out[threadIdx.x] = s[threadIdx.x];
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  AnalysisManager Manager(P.context(), AnalysisOptions());
  const FunctionDecl *K = P.function("k");
  llvm::ArrayRef<SharedAccessSite> Block = Manager.sharedAccessSites(K, Scope::Block);
  llvm::ArrayRef<SharedAccessSite> Warp = Manager.sharedAccessSites(K, Scope::Warp);
  ASSERT_EQ(Block.size(), 2u) << "the kernel and the call to fillOwnSlot";
  ASSERT_EQ(Warp.size(), 2u);
  EXPECT_EQ(Block.front().Call, nullptr);
  EXPECT_NE(Block[1].Call, nullptr);
  EXPECT_NE(Block.front().Accesses, Warp.front().Accesses) << "one per scope";
  EXPECT_EQ(Manager.sharedAccessSites(K, Scope::Block).data(), Block.data())
      << "cached";
  // Asked first, before any kernel, and after: a function that is not a
  // kernel has no sites (an early `return {}` once gave one dangling site).
  AnalysisManager Fresh(P.context(), AnalysisOptions());
  EXPECT_TRUE(
      Fresh.sharedAccessSites(P.function("fillOwnSlot"), Scope::Block).empty());
  EXPECT_TRUE(
      Manager.sharedAccessSites(P.function("fillOwnSlot"), Scope::Block)
          .empty())
      << "a device function's sites come from its kernels";
}

TEST(WarpExchanges, ThreadNames) {
  EXPECT_EQ(threadName({3, 0, 0}, {64, 1, 1}), "thread 3");
  EXPECT_EQ(threadName({3, 1, 0}, {16, 16, 1}), "thread (3, 1)");
  EXPECT_EQ(threadName({3, 1, 1}, {8, 8, 2}), "thread (3, 1, 1)");
}

} // namespace
} // namespace clang::tidy::cuda::analysis
