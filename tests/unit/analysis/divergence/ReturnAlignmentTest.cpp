//===--- ReturnAlignmentTest.cpp - the power of two a helper's result keeps ===//

#include "checks/analysis/divergence/ReturnAlignment.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Decl.h"
#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

const FunctionDecl *function(ParsedCuda &P, llvm::StringRef Name) {
  for (const auto &N :
       match(functionDecl(hasName(Name), isDefinition()).bind("f"),
             P.context()))
    if (const auto *F = N.getNodeAs<FunctionDecl>("f"))
      if (!F->isDependentContext())
        return F;
  ADD_FAILURE() << "no function " << Name.str();
  return nullptr;
}

TEST(ReturnAlignment, RoundingHelpersKeepTheirDivisor) {
  ParsedCuda P(R"cu(
template <typename U, typename V>
constexpr __device__ auto divDown(U a, V b) -> decltype(a + b) { return a / b; }
template <typename U, typename V>
constexpr __device__ auto roundDown(U a, V b) -> decltype(a + b) {
  return divDown(a, b) * b;
}
__device__ int roundUp(int a, int b) { return (a + b - 1) / b * b; }
__device__ int alignShift(int n, int s) { return (n >> s) << s; }
__device__ int mask(int n) { return n & ~31; }
__device__ int twoStatements(int n) { int m = n * 32; return m; }
__device__ int half(int n) { return n / 2; }
__device__ int pick(bool c, int a) { return c ? a * 64 : 128; }
template <int size, typename T>
__device__ constexpr T roundUpTo(T len) {
  if (len == 0) {
    return 0;
  }
  return ((len - 1) / size + 1) * size;
}
__device__ int bumped(int n) { n = n + 1; return n; }
__device__ int earlyOdd(int n) { if (n < 0) return 1; return n * 32; }
__global__ void use(int n) {
  roundDown(n, 32); roundUp(n, 32); alignShift(n, 5); mask(n);
  twoStatements(n); half(n); pick(true, n); roundUpTo<32>(n); bumped(n);
  earlyOdd(n);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  const ASTContext &Ctx = P.context();
  // roundDown(n, 32): n unknown (0), 32 is 2^5.
  EXPECT_EQ(returnAlignLog2(function(P, "roundDown"), {0, 5}, {{}, 32}, Ctx),
            5u);
  EXPECT_EQ(returnAlignLog2(function(P, "roundUp"), {0, 5}, {{}, 32}, Ctx), 5u);
  EXPECT_EQ(returnAlignLog2(function(P, "alignShift"), {0, 0}, {{}, 5}, Ctx),
            5u)
      << "a shift by a parameter bound to a constant";
  EXPECT_EQ(returnAlignLog2(function(P, "alignShift"), {0, 0}, {{}, {}}, Ctx),
            0u)
      << "a shift by an unknown amount keeps nothing";
  EXPECT_EQ(returnAlignLog2(function(P, "mask"), {0}, {{}}, Ctx), 5u);
  EXPECT_EQ(returnAlignLog2(function(P, "twoStatements"), {0}, {{}}, Ctx), 0u)
      << "a local is not followed";
  EXPECT_EQ(returnAlignLog2(function(P, "roundUpTo"), {0}, {{}}, Ctx), 5u)
      << "every return keeps the factor: 0 and a multiple of 32";
  EXPECT_EQ(returnAlignLog2(function(P, "bumped"), {5}, {{}}, Ctx), 0u)
      << "a parameter the body changes is not its argument";
  EXPECT_EQ(returnAlignLog2(function(P, "earlyOdd"), {0}, {{}}, Ctx), 0u)
      << "one return of 1 keeps nothing";
  EXPECT_EQ(returnAlignLog2(function(P, "half"), {6}, {{}}, Ctx), 0u)
      << "division is not followed (n/2 of a multiple of 64 is not known "
         "here)";
  EXPECT_EQ(returnAlignLog2(function(P, "pick"), {0, 0}, {{}, {}}, Ctx), 6u);
  EXPECT_EQ(returnAlignLog2(function(P, "pick"), {0, 2}, {{}, {}}, Ctx), 7u);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
