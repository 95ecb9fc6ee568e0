//===--- SharedExchangeTest.cpp - shared memory read across a barrier -----===//
//
// SharedAccesses answers whether, after a barrier, a thread reads a
// __shared__ element other than those written between an exit and the
// barrier; partitionKey/isDecidedByPartitionKey whether a branch follows
// the value a partition was split on.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/memory/SharedExchange.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

/// The first `return` and the first __syncthreads() call of \p F.
std::pair<const Stmt *, const Stmt *> exitAndBarrier(ParsedCuda &P,
                                                     const FunctionDecl *F) {
  const Stmt *Exit = nullptr;
  const Stmt *Barrier = nullptr;
  for (const auto &Node :
       match(functionDecl(equalsNode(F),
                          forEachDescendant(returnStmt().bind("r"))),
             P.context()))
    if (!Exit)
      Exit = Node.getNodeAs<Stmt>("r");
  std::vector<const CallExpr *> Barriers = P.callsOf(F, "__syncthreads");
  if (!Barriers.empty())
    Barrier = Barriers.front();
  return {Exit, Barrier};
}

TEST(SharedExchange, ReadsOfOtherElementsAfterTheBarrier) {
  ParsedCuda P(R"cu(
__global__ void own(float *o, int n) {
  __shared__ float t[256];
  if (threadIdx.x >= n) return;
  t[threadIdx.x] = 1;
  __syncthreads();
  o[threadIdx.x] = t[threadIdx.x];
}
__global__ void neighbour(float *o, int n) {
  __shared__ float t[256];
  if (threadIdx.x >= n) return;
  t[threadIdx.x] = 1;
  __syncthreads();
  o[threadIdx.x] = t[threadIdx.x + 1];
}
__global__ void twoDims(float *o, int n) {
  __shared__ float t[16][16];
  if (threadIdx.x >= n) return;
  t[threadIdx.y][threadIdx.x] = 1;
  __syncthreads();
  o[0] = t[threadIdx.x][threadIdx.y];
}
__global__ void atomics(int *o, int n) {
  __shared__ int h[64];
  if (threadIdx.x >= n) return;
  atomicAdd(&h[o[threadIdx.x] % 64], 1);
  __syncthreads();
  o[threadIdx.x] = h[threadIdx.x % 64];
}
__global__ void writtenBeforeExit(float *o, int n) {
  __shared__ float t[256];
  t[threadIdx.x] = 1;
  if (threadIdx.x >= n) return;
  __syncthreads();
  o[threadIdx.x] = t[threadIdx.x + 1];
}
__global__ void carvedBuffer(float *o, int n, int c) {
  extern __shared__ float shared[];
  if (blockIdx.x * 8 + threadIdx.x / 32 >= n) return;
  float *bias = shared;
  float *weight = shared + c;
  for (int i = threadIdx.x; i < c; i += blockDim.x) { bias[i] = 0; weight[i] = 0; }
  __syncthreads();
  for (int j = threadIdx.x; j < c; j += blockDim.x) o[j] = bias[j] + weight[j];
}
__global__ void noShared(float *o, int n) {
  if (threadIdx.x >= n) return;
  __syncthreads();
  o[threadIdx.x] = 1;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Exchanges = [&](llvm::StringRef Name) {
    const FunctionDecl *F = P.function(Name);
    auto [Exit, Barrier] = exitAndBarrier(P, F);
    return SharedAccesses(F, P.context()).readsWrittenByOthers(Exit, Barrier);
  };
  EXPECT_FALSE(Exchanges("own"));
  EXPECT_TRUE(Exchanges("neighbour"));
  EXPECT_TRUE(Exchanges("twoDims"));
  EXPECT_TRUE(Exchanges("atomics"));
  EXPECT_FALSE(Exchanges("writtenBeforeExit"));
  EXPECT_TRUE(Exchanges("carvedBuffer"));
  EXPECT_FALSE(Exchanges("noShared"));
}

TEST(PartitionKey, BranchesThatFollowTheSplit) {
  ParsedCuda P(R"cu(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void use(bool);
__global__ void k(const int *in, int n) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  int label = v % 4;
  auto sub = cg::binary_partition(tile, v & 1);
  auto part = cg::labeled_partition(tile, label);
  use(v & 1);
  use(!(v & 1));
  use(label == 2);
  use(label == 2 && n > 0);
  use(label == v);
  use(threadIdx.x % 2);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  const FunctionDecl *K = P.function("k");
  auto Calls = match(
      functionDecl(equalsNode(K),
                   forEachDescendant(callExpr(callee(functionDecl(hasAnyName(
                                                  "binary_partition",
                                                  "labeled_partition", "use"))))
                                         .bind("c"))),
      P.context());
  std::vector<const CallExpr *> Partitions, Uses;
  for (const auto &Node : Calls) {
    const auto *C = Node.getNodeAs<CallExpr>("c");
    (C->getDirectCallee()->getName() == "use" ? Uses : Partitions).push_back(C);
  }
  auto ByLocation = [&](const CallExpr *A, const CallExpr *B) {
    return P.context().getSourceManager().isBeforeInTranslationUnit(
        A->getBeginLoc(), B->getBeginLoc());
  };
  llvm::sort(Partitions, ByLocation);
  llvm::sort(Uses, ByLocation);
  ASSERT_EQ(Partitions.size(), 2u);
  ASSERT_EQ(Uses.size(), 6u);
  const Expr *Binary = partitionKey(Partitions[0]);
  const Expr *Label = partitionKey(Partitions[1]);
  ASSERT_NE(Binary, nullptr);
  ASSERT_NE(Label, nullptr);
  // Uniform stand-in: expressions of `n` and constants only.
  std::function<bool(const Stmt *)> IsUniformStmt = [&](const Stmt *S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      return Ref->getDecl()->getName() == "n";
    return llvm::all_of(S->children(), [&](const Stmt *Child) {
      return !Child || IsUniformStmt(Child);
    });
  };
  auto IsUniform = [&](const Expr *E) { return IsUniformStmt(E); };
  auto Decided = [&](unsigned Use, const Expr *Key) {
    return isDecidedByPartitionKey(Uses[Use]->getArg(0), Key, K, P.context(),
                                   IsUniform);
  };
  EXPECT_TRUE(Decided(0, Binary));
  EXPECT_TRUE(Decided(1, Binary));
  EXPECT_TRUE(Decided(2, Label));
  EXPECT_TRUE(Decided(3, Label));
  EXPECT_FALSE(Decided(4, Label));
  EXPECT_FALSE(Decided(5, Label));
  EXPECT_FALSE(Decided(2, Binary));
  EXPECT_EQ(partitionKey(Uses[0]), nullptr);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
