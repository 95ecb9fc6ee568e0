//===--- CompileErrorsTest.cpp - which definitions do not compile ---------===//

#include "checks/analysis/core/CompileErrors.h"

#include "tests/unit/ParsedCuda.h"

namespace clang::tidy::cuda::analysis {
namespace {

/// The line of \p Name's first compile error; 0 when it compiles.
unsigned errorLine(ParsedCuda &Parsed, llvm::StringRef Name) {
  const FunctionDecl *FD = Parsed.function(Name);
  if (!FD)
    return 0;
  SourceLocation At = firstCompileError(*FD);
  if (At.isInvalid())
    return 0;
  return Parsed.context().getSourceManager().getPresumedLineNumber(At);
}

TEST(CompileErrors, FunctionsThatCompileHaveNone) {
  // Two lines come first (ParsedCuda's prelude).
  ParsedCuda Parsed(R"(
__device__ int helper(int x) { return x * 2; }
__global__ void fine(int *out) {
  __shared__ int tile[32];
  tile[threadIdx.x % 32] = helper(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[0];
}
__global__ void broken(int *out) {
  int ok = 1;
  out[0] = ok + undeclared(out);
  out[1] = 2;
}
__global__ void badLocal(int *out) {
  int ok = 1;
  auto missing = nosuch::thing;
  out[0] = ok;
}
struct S { int a; };
__device__ int badMember(S s) { return s.b; }
)");
  EXPECT_FALSE(Parsed.parsedCleanly());
  EXPECT_EQ(errorLine(Parsed, "helper"), 0u);
  EXPECT_EQ(errorLine(Parsed, "fine"), 0u);
  EXPECT_TRUE(compiles(*Parsed.function("fine")));
  // The first statement that does not compile, not the function's line.
  EXPECT_EQ(errorLine(Parsed, "broken"), 13u);
  EXPECT_FALSE(compiles(*Parsed.function("broken")));
  EXPECT_EQ(errorLine(Parsed, "badLocal"), 18u);
  EXPECT_EQ(errorLine(Parsed, "badMember"), 22u);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
