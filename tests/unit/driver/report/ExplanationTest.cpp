//===--- ExplanationTest.cpp - the text format's how-to-fix line ----------===//

#include "checks/CudaTidyModule.h"
#include "tool/driver/report/Reporters.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::driver {
namespace {

TEST(Explanation, EveryCheckSaysHowToFix) {
  for (const CheckDescription &Check : allCheckDescriptions())
    EXPECT_FALSE(checkFixAdvice(Check.Name).empty()) << Check.Name.str();
  EXPECT_TRUE(checkFixAdvice("clang-diagnostic-error").empty());
}

TEST(Explanation, IsANoteAtTheFinding) {
  Finding F;
  F.Check = "cuda-divergent-barrier";
  F.Where = {"/p/k.cu", 9, 3};
  EXPECT_EQ(explanationLine(F, "/p/k.cu", ReportContext()),
            "/p/k.cu:9:3: note: how to fix: " +
                checkFixAdvice(F.Check).str() +
                "; see https://github.com/cuda-tidy/cuda-tidy/blob/main/"
                "docs/checks/cuda-divergent-barrier.md");
}

TEST(Explanation, NamesTheFixIt) {
  Finding F;
  F.Check = "cuda-group-by-value";
  F.Where = {"/p/k.cu", 3, 42};
  F.Fixes.push_back(FindingFix{"/p/k.cu", 10, 0, "const ", {}, {}});
  EXPECT_NE(explanationLine(F, "k.cu", ReportContext())
                .find("; --fix applies the suggested fix-it; see "),
            std::string::npos);
}

TEST(Explanation, NoneForCompilerDiagnostics) {
  Finding F;
  F.Check = "clang-diagnostic-error";
  F.IsCompilerError = true;
  F.Where = {"/p/k.cu", 1, 1};
  EXPECT_EQ(explanationLine(F, "/p/k.cu", ReportContext()), "");
  F.Check = "clang-diagnostic-unused-variable";
  F.IsCompilerError = false;
  EXPECT_EQ(explanationLine(F, "/p/k.cu", ReportContext()), "");
}

} // namespace
} // namespace clang::tidy::cuda::driver
