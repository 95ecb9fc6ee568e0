//===--- HipPortabilityTest.cpp - which files are also built for HIP ------===//

#include "checks/analysis/api/HipPortability.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

std::string found(llvm::StringRef Text) {
  std::optional<HipEvidence> E = hipEvidenceIn(Text);
  return E ? E->What + (E->IsInclude ? " (include)" : "") : "";
}

TEST(HipPortability, DirectivesThatTestAPlatformMacro) {
  EXPECT_EQ(found("#ifdef USE_ROCM\n#endif\n"), "USE_ROCM");
  EXPECT_EQ(found("#ifndef __HIP_PLATFORM_AMD__\n#endif\n"),
            "__HIP_PLATFORM_AMD__");
  EXPECT_EQ(found("#if defined(__HIPCC__) && X\n#endif\n"), "__HIPCC__");
  EXPECT_EQ(found("#if A\n#elif defined __HIP__\n#endif\n"), "__HIP__");
  EXPECT_EQ(found("  #  if !defined(GGML_USE_HIP)\n#endif\n"), "GGML_USE_HIP");
  EXPECT_EQ(found("#elifdef __HIP_DEVICE_COMPILE__\n"),
            "__HIP_DEVICE_COMPILE__");
  // A continued directive is read whole.
  EXPECT_EQ(found("#if defined(A) || \\\n    defined(USE_ROCM)\n#endif\n"),
            "USE_ROCM");
}

TEST(HipPortability, IncludesOfHipHeaders) {
  EXPECT_EQ(found("#include <hip/hip_runtime.h>\n"),
            "hip/hip_runtime.h (include)");
  EXPECT_EQ(found("#include \"hip/hip_fp16.h\"\n"), "hip/hip_fp16.h (include)");
  EXPECT_EQ(found("#include <cuda_runtime.h>\n#include <chip/x.h>\n"), "");
}

TEST(HipPortability, WhatIsNotATest) {
  // Not a directive: code, comments, strings, other macro names.
  EXPECT_EQ(found("int USE_ROCM = 1;\n"), "");
  EXPECT_EQ(found("// #ifdef USE_ROCM\n"), "");
  EXPECT_EQ(found("/* a comment\n#ifdef USE_ROCM\n*/\n"), "");
  EXPECT_EQ(found("#define USE_ROCM 1\n"), "");
  EXPECT_EQ(found("#ifdef USE_ROCM_EXTRA\n#endif\n"), "");
  EXPECT_EQ(found("#if MY__HIP__ > 0\n#endif\n"), "");
  EXPECT_EQ(found("#include \"a//hip/b.h\"\n"), "");
  EXPECT_EQ(found("#error \"needs USE_ROCM\"\n"), "");
  // The comment ends on the directive's line.
  EXPECT_EQ(found("#if 1 /* USE_ROCM */\n#endif\n"), "");
}

TEST(HipPortability, TheFirstPlaceIsReported) {
  std::optional<HipEvidence> E =
      hipEvidenceIn("int x;\n#include <hip/a.h>\n#ifdef USE_ROCM\n#endif\n");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->Offset, 7u);
  EXPECT_TRUE(E->IsInclude);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
