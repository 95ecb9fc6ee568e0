//===--- Reporters.h - findings for machines: JSON, SARIF, GitHub ---------===//
#ifndef CUDA_TIDY_TOOL_DRIVER_REPORTERS_H
#define CUDA_TIDY_TOOL_DRIVER_REPORTERS_H

#include "tool/driver/Findings.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::cuda::driver {

enum class OutputFormat { Text, Json, Sarif, GitHub };

struct ReportContext {
  std::string Root;        ///< Paths in the report are relative to this.
  std::string ToolVersion; ///< cuda-tidy's version.
  /// Base of the documentation links in SARIF rules' helpUri.
  std::string DocsBaseUri =
      "https://github.com/cuda-tidy/cuda-tidy/blob/main/";
};

/// The schema is documented in docs/output-formats.md.
void writeJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               const ReportContext &Context);
/// SARIF 2.1.0, as GitHub code scanning reads it.
void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const ReportContext &Context);
/// GitHub Actions workflow commands (::warning file=...::message).
void writeGitHubAnnotations(llvm::raw_ostream &OS,
                            const std::vector<Finding> &Findings,
                            const ReportContext &Context);

/// Escaping of workflow-command data and property values, exposed for tests.
std::string escapeGitHubData(llvm::StringRef Text);
std::string escapeGitHubProperty(llvm::StringRef Text);

} // namespace clang::tidy::cuda::driver

#endif
