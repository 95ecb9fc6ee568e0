//===--- GroupByValueCheckTest.cpp - cuda-group-by-value in memory --------===//

#include "tests/unit/CheckTestHarness.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::test {
namespace {

constexpr llvm::StringLiteral Check = "-*,cuda-group-by-value";
constexpr llvm::StringLiteral Message =
    "cooperative-groups handle 't' of type 'cg::thread_block_tile<32>' is "
    "passed by value; pass group handles by reference";

TEST(GroupByValueCheck, FlagsTileByValueAndFixesToConstReference) {
  CheckRun Run = runChecks(R"cu(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int rank(cg::thread_block_tile<32> t) { return t.thread_rank(); }
)cu",
                           Check);
  ASSERT_TRUE(Run.ParsedCleanly);
  ASSERT_EQ(Run.Findings.size(), 1u);
  EXPECT_EQ(Run.Findings[0],
            (Finding{3, 47, "warning", "cuda-group-by-value", Message.str()}))
      << toString(Run.Findings[0]);
  EXPECT_NE(Run.FixedCode.find("__device__ int rank(const "
                               "cg::thread_block_tile<32> &t)"),
            std::string::npos)
      << Run.FixedCode;
}

TEST(GroupByValueCheck, FixesEveryRedeclarationTogether) {
  CheckRun Run = runChecks(R"cu(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void work(cg::thread_block b);
__device__ void work(cg::thread_block b) { b.sync(); }
)cu",
                           Check);
  ASSERT_EQ(Run.Findings.size(), 1u);
  EXPECT_EQ(Run.Findings[0].Line, 4u);
  EXPECT_NE(Run.FixedCode.find("__device__ void work(const cg::thread_block "
                               "&b);\n__device__ void work(const "
                               "cg::thread_block &b) {"),
            std::string::npos)
      << Run.FixedCode;
}

TEST(GroupByValueCheck, IgnoresReferencesPointersAndFunctors) {
  CheckRun Run = runChecks(R"cu(#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ void a(const cg::thread_block &b) { b.sync(); }
__device__ void c(cg::thread_block *b) { b->sync(); }
__device__ int d(cg::plus<int> op, int x) { return op(x, x); }
__device__ int e(cg::greater<int> op, int x) { return op(x, x) ? 1 : 0; }
)cu",
                           Check);
  EXPECT_TRUE(Run.ParsedCleanly);
  EXPECT_TRUE(Run.Findings.empty()) << toString(Run.Findings.front());
}

TEST(GroupByValueCheck, NoFixWhenTheCopyIsModified) {
  CheckRun Run = runChecks(R"cu(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void adopt(cg::thread_group &g);
__device__ void f(cg::thread_group g) {
  adopt(g);
}
)cu",
                           Check);
  ASSERT_EQ(Run.Findings.size(), 2u);
  EXPECT_EQ(Run.Findings[1],
            (Finding{4, 36, "note", "cuda-group-by-value",
                     "no fix offered: the function modifies its copy of the "
                     "handle"}))
      << toString(Run.Findings[1]);
  EXPECT_EQ(Run.FixedCode.find("const cg::thread_group"), std::string::npos);
}

} // namespace
} // namespace clang::tidy::cuda::test
