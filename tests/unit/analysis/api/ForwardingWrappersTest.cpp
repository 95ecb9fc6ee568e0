//===--- ForwardingWrappersTest.cpp - helpers that pass a call on ---------===//
//
// A call of a one-line helper around a shuffle or a vote is modelled as the
// API call it makes, with the helper call's own arguments and defaults in
// place of the helper's parameters; helpers that compute an operand, do more
// than return, or are member functions are not.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/api/ForwardingWrappers.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include "gtest/gtest.h"

#include <string>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

constexpr const char *Helpers = R"cu(
constexpr int kWidth = 32;
template <typename T>
__device__ T bcast(const T v, int src = 0, int width = kWidth,
                   unsigned mask = 0xffffffffu) {
  return __shfl_sync(mask, v, src, width);
}
template <typename T>
__device__ T bcastFirst(const T v) { return bcast<T>(v, 0, (int)kWidth); }
__device__ int voteAll(int p, unsigned mask = 0xffffffffu) {
  return __all_sync(mask, p);
}
__device__ int nextLane(int v, int src) {
  return __shfl_sync(0xffffffffu, v, (src + 1) % 32);
}
__device__ int twoSteps(int v, int src) {
  int w = v + 1;
  return __shfl_sync(0xffffffffu, w, src);
}
struct Lane {
  __device__ int bcast(int v, int src) { return __shfl_sync(0xffffffffu, v, src); }
};
__global__ void k(int *out, int l, int w) {
  out[0] = bcast(threadIdx.x, l);
  out[1] = bcast(threadIdx.x, l, w);
  out[2] = bcastFirst(threadIdx.x);
  out[3] = voteAll(threadIdx.x > 3);
  out[4] = nextLane(threadIdx.x, l);
  out[5] = twoSteps(threadIdx.x, l);
  Lane lane;
  out[6] = lane.bcast(threadIdx.x, l);
  out[7] = __shfl_sync(0xffffffffu, threadIdx.x, l);
}
)cu";

/// The calls in kernel k, in source order, each with what
/// forwardedResultModel says of it.
struct Calls {
  explicit Calls(ParsedCuda &P) {
    const FunctionDecl *K = P.function("k");
    for (const auto &Node :
         match(findAll(callExpr(unless(cxxConstructExpr())).bind("c")),
               *K->getBody(), P.context()))
      if (const auto *Call = Node.getNodeAs<CallExpr>("c"))
        if (const FunctionDecl *Callee = Call->getDirectCallee();
            Callee && Callee->getName() != "operator[]")
          All.push_back(Call);
  }
  const CallExpr *named(llvm::StringRef Name, unsigned Nth = 0) const {
    for (const CallExpr *Call : All)
      if (Call->getDirectCallee()->getName() == Name && Nth-- == 0)
        return Call;
    ADD_FAILURE() << "no call of " << Name.str();
    return nullptr;
  }
  std::vector<const CallExpr *> All;
};

std::optional<int64_t> valueAt(const ForwardedCall &F, int Index,
                               ASTContext &Ctx) {
  if (Index < 0 || static_cast<unsigned>(Index) >= F.Args.size())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!F.Args[Index] || !F.Args[Index]->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

TEST(ForwardingWrappers, ShuffleHelpersTakeTheCallsArgumentsAndDefaults) {
  ParsedCuda P(Helpers);
  ASSERT_TRUE(P.parsedCleanly());
  Calls C(P);
  // bcast(threadIdx.x, l): width and mask from the defaults, the source
  // lane the caller's `l`.
  std::optional<ForwardedCall> F = forwardedResultModel(C.named("bcast"), false);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Model.Rule, ResultRule::ShuffleIndexed);
  EXPECT_EQ(valueAt(*F, F->Model.WidthArg, P.context()), 32);
  const auto *Source =
      dyn_cast<DeclRefExpr>(F->Args[F->Model.SourceArg]->IgnoreParenImpCasts());
  ASSERT_TRUE(Source);
  EXPECT_EQ(Source->getDecl()->getName(), "l");
  // bcast(threadIdx.x, l, w): the width is the caller's run-time `w`.
  F = forwardedResultModel(C.named("bcast", 1), false);
  ASSERT_TRUE(F);
  EXPECT_EQ(valueAt(*F, F->Model.WidthArg, P.context()), std::nullopt);
  // A helper of a helper with a cast: the constants of the inner helper.
  F = forwardedResultModel(C.named("bcastFirst"), false);
  ASSERT_TRUE(F);
  EXPECT_EQ(valueAt(*F, F->Model.WidthArg, P.context()), 32);
  EXPECT_EQ(valueAt(*F, F->Model.SourceArg, P.context()), 0);
}

TEST(ForwardingWrappers, VoteHelpersKeepTheirDefaultMask) {
  ParsedCuda P(Helpers);
  ASSERT_TRUE(P.parsedCleanly());
  Calls C(P);
  std::optional<ForwardedCall> F =
      forwardedResultModel(C.named("voteAll"), false);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Model.Rule, ResultRule::WarpCollective);
  EXPECT_EQ(valueAt(*F, F->Model.MaskArg, P.context()), 0xffffffffLL);
}

TEST(ForwardingWrappers, ComputedOperandsMoreStatementsAndMembersAreNot) {
  ParsedCuda P(Helpers);
  ASSERT_TRUE(P.parsedCleanly());
  Calls C(P);
  EXPECT_FALSE(forwardedResultModel(C.named("nextLane"), false));
  EXPECT_FALSE(forwardedResultModel(C.named("twoSteps"), false));
  EXPECT_FALSE(forwardedResultModel(C.named("bcast", 2), false)); // member
  // The intrinsic itself is modelled directly, not as a wrapper.
  EXPECT_FALSE(forwardedResultModel(C.named("__shfl_sync"), false));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
