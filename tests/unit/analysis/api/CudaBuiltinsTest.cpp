//===--- CudaBuiltinsTest.cpp - the warp intrinsics the model names -------===//
//
// The masked warp intrinsics are known by their declarations in CUDA's
// headers (global functions whose first parameter is an integer mask), the
// shuffles among them by kind; __activemask, the bit counts and the
// device-side stops clang declares without noreturn are known by name.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/api/CudaBuiltins.h"
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

/// The callee of every call in \p Function, by its name (the first call of
/// each name).
std::map<std::string, const FunctionDecl *> calleesOf(ParsedCuda &P,
                                                      llvm::StringRef Function) {
  std::map<std::string, const FunctionDecl *> Out;
  const FunctionDecl *FD = P.function(Function);
  for (const auto &Node :
       match(functionDecl(equalsNode(FD),
                          forEachDescendant(callExpr().bind("c"))),
             P.context()))
    if (const auto *Call = Node.getNodeAs<CallExpr>("c"))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        Out.emplace(Callee->getNameAsString(), Callee);
  return Out;
}

TEST(CudaBuiltins, MaskedWarpIntrinsicsByDeclaration) {
  ParsedCuda P(R"cu(
struct Tile { __device__ int __shfl_sync(unsigned m, int v, int l); };
__device__ int __ballot_sync(float *p, int v);
__global__ void k(int *out, float v, Tile t) {
  unsigned m = __activemask();
  out[0] = __shfl_sync(m, 1, 0);
  out[1] = __shfl_up_sync(m, 1, 1);
  out[2] = __shfl_down_sync(m, v, 1, 16);
  out[3] = __shfl_xor_sync(m, 1, 1);
  out[4] = __ballot_sync(m, 1) + __any_sync(m, 1) + __all_sync(m, 1);
  out[5] = __match_any_sync(m, 1);
  out[6] = __reduce_add_sync(m, 1);
  __syncwarp();
  out[7] = __popc(m) + __ffs(m) + __clz(m) + __brev(m);
  out[8] = t.__shfl_sync(m, 1, 0);
  out[9] = __ballot_sync((float *)0, 1);
  if (m == 0) __trap();
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Callees = calleesOf(P, "k");
  for (const char *Name :
       {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
        "__ballot_sync", "__any_sync", "__all_sync", "__match_any_sync",
        "__reduce_add_sync", "__syncwarp"}) {
    ASSERT_TRUE(Callees.count(Name)) << Name;
  }
  // __shfl_down_sync on a float and the int overload of __reduce_add_sync:
  // one name for each overload; __syncwarp's mask is its default argument.
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__shfl_down_sync"]),
            "__shfl_down_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__syncwarp"]), "__syncwarp");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__reduce_add_sync"]),
            "__reduce_add_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__shfl_sync"]), "__shfl_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__ballot_sync"]), "__ballot_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__match_any_sync"]),
            "__match_any_sync");
  // Not a masked intrinsic: a bit count, no callee, a member that happens
  // to share the name.
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__popc"]), "");
  EXPECT_EQ(maskedWarpIntrinsicName(nullptr), "");
  const FunctionDecl *Member = nullptr;
  for (const auto &Node :
       match(cxxMethodDecl(hasName("__shfl_sync")).bind("m"), P.context()))
    Member = Node.getNodeAs<FunctionDecl>("m");
  ASSERT_NE(Member, nullptr);
  EXPECT_EQ(maskedWarpIntrinsicName(Member), "");
  // The user's own __ballot_sync whose first parameter is no integer.
  const FunctionDecl *Own = nullptr;
  for (const auto &Node :
       match(functionDecl(hasName("__ballot_sync"),
                          hasParameter(0, hasType(pointerType())))
                 .bind("f"),
             P.context()))
    Own = Node.getNodeAs<FunctionDecl>("f");
  ASSERT_NE(Own, nullptr);
  EXPECT_EQ(maskedWarpIntrinsicName(Own), "");

  EXPECT_TRUE(isActiveMaskFunction(Callees["__activemask"]));
  EXPECT_FALSE(isActiveMaskFunction(Callees["__ballot_sync"]));
  EXPECT_FALSE(isActiveMaskFunction(nullptr));
  for (const char *Name : {"__popc", "__ffs", "__clz", "__brev"})
    EXPECT_TRUE(isBitCountFunction(Callees[Name])) << Name;
  EXPECT_FALSE(isBitCountFunction(Callees["__activemask"]));
  EXPECT_FALSE(isBitCountFunction(nullptr));
  EXPECT_TRUE(isUnmarkedDeviceStop(Callees["__trap"]));
  EXPECT_FALSE(isUnmarkedDeviceStop(Callees["__syncwarp"]));
  EXPECT_FALSE(isUnmarkedDeviceStop(nullptr));
}

TEST(CudaBuiltins, ShufflesAndOtherIntrinsicNames) {
  EXPECT_EQ(maskedShuffleKind("__shfl_sync"), ShuffleKind::Idx);
  EXPECT_EQ(maskedShuffleKind("__shfl_up_sync"), ShuffleKind::Up);
  EXPECT_EQ(maskedShuffleKind("__shfl_down_sync"), ShuffleKind::Down);
  EXPECT_EQ(maskedShuffleKind("__shfl_xor_sync"), ShuffleKind::Xor);
  EXPECT_FALSE(maskedShuffleKind("__shfl").has_value());
  EXPECT_FALSE(maskedShuffleKind("__ballot_sync").has_value());
  EXPECT_FALSE(maskedShuffleKind("").has_value());
  EXPECT_TRUE(isSyncWarpName("__syncwarp"));
  EXPECT_FALSE(isSyncWarpName("__syncthreads"));
  EXPECT_TRUE(isBallotSyncName("__ballot_sync"));
  EXPECT_FALSE(isBallotSyncName("__ballot"));
  EXPECT_FALSE(isBallotSyncName("__any_sync"));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
