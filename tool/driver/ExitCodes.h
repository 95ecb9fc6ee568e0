//===--- ExitCodes.h - what cuda-tidy's exit status means -------*- C++ -*-===//
#ifndef CUDA_TIDY_TOOL_DRIVER_EXITCODES_H
#define CUDA_TIDY_TOOL_DRIVER_EXITCODES_H

namespace clang::tidy::cuda::driver {

/// Documented in README.md; tests/cli checks each one.
enum ExitCode : int {
  /// Every file analyzed; no finding was promoted to an error.
  ExitSuccess = 0,
  /// Findings promoted to errors by --warnings-as-errors.
  ExitFindingsAsErrors = 1,
  /// Bad usage or configuration: nothing was analyzed.
  ExitUsageError = 2,
  /// A file could not be analyzed (missing, or it does not compile). The
  /// other files were still analyzed and their findings printed.
  ExitAnalysisFailed = 3,
};

} // namespace clang::tidy::cuda::driver

#endif
