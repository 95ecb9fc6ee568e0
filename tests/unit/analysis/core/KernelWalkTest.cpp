//===--- KernelWalkTest.cpp - the frame the kernel-level analyses share ---===//

#include "checks/analysis/core/KernelWalk.h"

#include "tests/unit/ParsedCuda.h"

#include "clang/Analysis/CFG.h"

#include <memory>
#include <utility>
#include <vector>

namespace clang::tidy::cuda::analysis {
namespace {

std::unique_ptr<CFG> cfgOf(ParsedCuda &Parsed, llvm::StringRef Name) {
  const FunctionDecl *FD = Parsed.function(Name);
  if (!FD || !FD->getBody())
    return nullptr;
  return CFG::buildCFG(FD, FD->getBody(), &Parsed.context(),
                       CFG::BuildOptions());
}

/// The user functions a path has called: a() is bit 0, b() bit 1, c() bit 2.
struct Called {
  unsigned Bits = 0;
  bool operator==(const Called &O) const { return Bits == O.Bits; }
};

BlockFlows<Called> calls(const CFG &Cfg) {
  return solveForward<Called>(
      Cfg, blocksInProgramOrder(Cfg),
      [](const CFGBlock *Block, Called &Flow) {
        forEachStmtOf(*Block, [&](const Stmt *S) {
          const auto *Call = dyn_cast<CallExpr>(S);
          llvm::StringRef Name = calleeName(Call);
          if (Name.size() == 1 && Name[0] >= 'a' && Name[0] <= 'c')
            Flow.Bits |= 1u << (Name[0] - 'a');
        });
      },
      [](Called &Into, const Called &From) { Into.Bits |= From.Bits; });
}

TEST(KernelWalk, BlocksInProgramOrderRunFromTheEntryToTheExit) {
  ParsedCuda Parsed(R"(
__device__ void a();
__device__ void b();
__global__ void k(int n) { a(); if (n) b(); }
)");
  std::unique_ptr<CFG> Cfg = cfgOf(Parsed, "k");
  ASSERT_TRUE(Cfg);
  std::vector<const CFGBlock *> Order = blocksInProgramOrder(*Cfg);
  ASSERT_EQ(Order.size(), Cfg->size());
  EXPECT_EQ(Order.front(), &Cfg->getEntry());
  EXPECT_EQ(Order.back(), &Cfg->getExit());
}

TEST(KernelWalk, SolveForwardJoinsThePathsByUnion) {
  ParsedCuda Parsed(R"(
__device__ void a();
__device__ void b();
__device__ void c();
__global__ void k(int n) {
  if (n)
    a();
  else
    b();
  c();
}
__global__ void loop(int n) {
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      c();
    a();
  }
}
)");
  std::unique_ptr<CFG> Cfg = cfgOf(Parsed, "k");
  ASSERT_TRUE(Cfg);
  BlockFlows<Called> Flows = calls(*Cfg);
  // A block the walk does not reach reads as ~0.
  const Called Unreached{~0u};
  EXPECT_EQ(Flows.In[Cfg->getExit().getBlockID()].value_or(Unreached).Bits,
            7u);
  EXPECT_EQ(Flows.In[Cfg->getEntry().getBlockID()].value_or(Unreached).Bits,
            0u);

  // Around a loop, what the body calls on a later trip reaches its head.
  std::unique_ptr<CFG> Loop = cfgOf(Parsed, "loop");
  ASSERT_TRUE(Loop);
  BlockFlows<Called> LoopFlows = calls(*Loop);
  EXPECT_EQ(
      LoopFlows.In[Loop->getExit().getBlockID()].value_or(Unreached).Bits,
      5u);
}

TEST(KernelWalk, BodyReachesFollowsCallsAndStopsAtRecursion) {
  ParsedCuda Parsed(R"(
__device__ void barrier();
__device__ void leaf() { barrier(); }
__device__ void middle(int n) { if (n) leaf(); }
__device__ void none() {}
__device__ void ping(int n);
__device__ void pong(int n) { if (n) ping(n - 1); }
__device__ void ping(int n) { pong(n); }
)");
  auto IsBarrier = [](const Stmt *S) {
    return calleeName(dyn_cast<CallExpr>(S)) == "barrier";
  };
  llvm::DenseMap<const FunctionDecl *, bool> Cache;
  EXPECT_TRUE(bodyReaches(Parsed.function("middle"), Cache, IsBarrier));
  EXPECT_TRUE(Cache.lookup(Parsed.function("leaf")));
  EXPECT_FALSE(bodyReaches(Parsed.function("none"), Cache, IsBarrier));
  EXPECT_FALSE(bodyReaches(Parsed.function("ping"), Cache, IsBarrier));
  // No function: nothing to search.
  EXPECT_FALSE(bodyReaches(nullptr, Cache, IsBarrier));
}

TEST(KernelWalk, SortKeepingOrderKeepsEqualElementsInPlace) {
  std::vector<std::pair<int, char>> Items = {
      {2, 'a'}, {1, 'b'}, {2, 'c'}, {1, 'd'}, {0, 'e'}};
  sortKeepingOrder(Items, [](const std::pair<int, char> &L,
                             const std::pair<int, char> &R) {
    return L.first < R.first;
  });
  std::vector<std::pair<int, char>> Expected = {
      {0, 'e'}, {1, 'b'}, {1, 'd'}, {2, 'a'}, {2, 'c'}};
  EXPECT_EQ(Items, Expected);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
