//===--- WarpMasksTest.cpp - masks as values and as parameters ------------===//
//
// A mask is a full warp mask when its value converted to 32 bits has every
// bit set; a mask that is a parameter of the function is decided at each
// call, by the argument or by the default the call leaves.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/lanes/WarpMasks.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include "gtest/gtest.h"

#include <map>
#include <string>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

TEST(WarpMasks, ParametersAndWhatCallsBindToThem) {
  ParsedCuda P(R"cu(
#define MEMBERMASK 0xffffffff
const unsigned kGlobal = ~0u;
__device__ int wrapBallot(int p, unsigned mask = MEMBERMASK) { return __ballot_sync(mask, p); }
__device__ int wrapNarrowed(int p, unsigned mask) { mask &= 0xffff; return __ballot_sync(mask, p); }
__device__ int wrapWidened(int p, unsigned long long mask) { return __ballot_sync((unsigned)mask, p); }
__device__ int wrapFixed(int p) { return __ballot_sync(0xffffffff, p); }
__global__ void k(int *out, unsigned m) {
  out[0] = wrapBallot(1);
  out[1] = wrapBallot(1, kGlobal);
  out[2] = wrapBallot(1, 0xffffu);
  out[3] = wrapBallot(1, m);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  ASTContext &Ctx = P.context();
  auto MaskParam = [&](const char *Function) {
    const FunctionDecl *FD = P.function(Function);
    auto Calls = match(functionDecl(equalsNode(FD),
                                    forEachDescendant(
                                        callExpr(callee(functionDecl(
                                                     hasName("__ballot_sync"))))
                                            .bind("c"))),
                       Ctx);
    if (Calls.empty()) {
      ADD_FAILURE() << "no __ballot_sync in " << Function;
      return std::optional<unsigned>();
    }
    const auto *Call = Calls.front().getNodeAs<CallExpr>("c");
    return maskParameter(Call->getArg(0), FD, Ctx);
  };
  EXPECT_EQ(MaskParam("wrapBallot"), std::optional<unsigned>(1));
  EXPECT_FALSE(MaskParam("wrapNarrowed").has_value()) << "changed before use";
  EXPECT_EQ(MaskParam("wrapWidened"), std::optional<unsigned>(1));
  EXPECT_FALSE(MaskParam("wrapFixed").has_value());

  const FunctionDecl *Kernel = P.function("k");
  auto Calls = match(functionDecl(equalsNode(Kernel),
                                  forEachDescendant(
                                      callExpr(callee(functionDecl(
                                                   hasName("wrapBallot"))))
                                          .bind("c"))),
                     Ctx);
  ASSERT_EQ(Calls.size(), 4u);
  MaskEvaluator Evaluator(Kernel, Ctx);
  std::map<std::string, int> Full;
  int FullCount = 0;
  int Unknown = 0;
  for (const auto &Node : Calls) {
    const auto *Call = Node.getNodeAs<CallExpr>("c");
    const Expr *Bound = boundArgument(Call, 1);
    ASSERT_NE(Bound, nullptr);
    std::optional<llvm::APSInt> V = Evaluator.value(Bound);
    if (!V)
      ++Unknown;
    else if (isFullWarpMask(*V))
      ++FullCount;
  }
  EXPECT_EQ(FullCount, 2) << "the default and the const global";
  EXPECT_EQ(Unknown, 1) << "a parameter of the caller";
  EXPECT_EQ(boundArgument(Calls.front().getNodeAs<CallExpr>("c"), 2), nullptr);
}

TEST(WarpMasks, FullMeansAll32LanesAfterConversion) {
  EXPECT_TRUE(isFullWarpMask(llvm::APSInt(llvm::APInt(32, 0xffffffffu), true)));
  EXPECT_TRUE(isFullWarpMask(llvm::APSInt(llvm::APInt(64, ~0ull), true)));
  EXPECT_FALSE(isFullWarpMask(llvm::APSInt(llvm::APInt(32, 0xffffu), true)));
  EXPECT_FALSE(isFullWarpMask(llvm::APSInt(llvm::APInt(16, 0xffffu), true)));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
