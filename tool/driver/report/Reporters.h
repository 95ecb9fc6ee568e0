//===--- Reporters.h - findings for machines and for review ---------------===//
#ifndef CUDA_TIDY_TOOL_DRIVER_REPORTERS_H
#define CUDA_TIDY_TOOL_DRIVER_REPORTERS_H

#include "tool/driver/report/Findings.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <utility>
#include <vector>

namespace clang::tidy::cuda::driver {

enum class OutputFormat {
  Text,
  Json,
  Sarif,
  GitHub,
  RdJson,      ///< reviewdog's diagnostic format
  CodeQuality, ///< GitLab's Code Quality report
  JUnit,       ///< JUnit XML, a test case per file
  Html,        ///< a static report folder (HtmlReport.h)
};

struct ReportContext {
  std::string Root;        ///< Paths in the report are relative to this.
  std::string ToolVersion; ///< cuda-tidy's version.
  /// Base of the documentation links in SARIF rules' helpUri.
  std::string DocsBaseUri =
      "https://github.com/cuda-tidy/cuda-tidy/blob/main/";
  /// The files the run analyzed (absolute): JUnit has a test case for each,
  /// passed or not.
  std::vector<std::string> Inputs;
};

/// How sure a finding is, as every report names it: "compiler error" (the
/// file did not compile), "advisory" (an opt-in check that reports correct
/// code), "guideline" (a Programming Guide recommendation, not a hazard:
/// cuda-group-by-value), "potential" (a finding that rests on a fact the
/// tool could not see, its message says "potential:"), else "definite".
/// The review formats' severities follow it (severityOf).
llvm::StringRef tierOf(const Finding &F);

/// A finding's severity in the review formats, from its tier and whether
/// --warnings-as-errors promoted it: Blocker for a compiler error (Minor
/// under --compile-errors=warn, which sets its level to warning), Error for
/// a promoted definite or potential finding, Warning for a definite one,
/// Minor for a potential one, Note for a guideline or advisory finding,
/// promoted or not (a recommendation is never shown as an error; it still
/// fails the gate when promoted).
enum class ReviewSeverity { Note, Minor, Warning, Error, Blocker };
ReviewSeverity severityOf(const Finding &F);

/// The page of \p Check's documentation under \p Context.DocsBaseUri; empty
/// for a check that is not cuda-tidy's (a compiler diagnostic).
std::string checkDocumentationUri(llvm::StringRef Check,
                                  const ReportContext &Context);

/// How to fix a finding of \p Check, in words (a clause, no final stop);
/// empty for a check that is not cuda-tidy's (a compiler diagnostic).
llvm::StringRef checkFixAdvice(llvm::StringRef Check);

/// The line the text format prints after a finding (issue 37 §3), in the
/// form of clang's notes so that editors' parsers take it as one:
/// "<File>:<line>:<col>: note: how to fix: <advice>[; --fix applies the
/// suggested fix-it]; see <documentation URI>". \p File is the name as the
/// finding was printed. Empty for a diagnostic that is not cuda-tidy's.
std::string explanationLine(const Finding &F, llvm::StringRef File,
                            const ReportContext &Context);

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

/// reviewdog's rdjson (DiagnosticResult): one diagnostic per finding, its
/// notes as related locations and in the message, fix-its in the finding's
/// file as suggestions.
void writeRdJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 const ReportContext &Context);
/// GitLab Code Quality (the Code Climate issue fields GitLab reads), with
/// the baseline's fingerprints.
void writeCodeQuality(llvm::raw_ostream &OS,
                      const std::vector<Finding> &Findings,
                      const ReportContext &Context);
/// JUnit XML: a test suite with one test case per file (each input, and
/// each other file with a finding); a file with findings fails, one that
/// did not compile is an error (skipped, "not analyzed", under
/// --compile-errors=warn).
void writeJUnit(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const ReportContext &Context);

/// \p Text for XML and HTML character data and attribute values: the five
/// markup characters as entities, and every byte forEachUnsafeByte names
/// written `\xHH` as text (XML 1.0 has no way to carry C0 controls, not even
/// as character references, and the output must be UTF-8).
std::string escapeMarkup(llvm::StringRef Text);

/// Calls \p Byte for each byte of \p Text a terminal or a log viewer would
/// act on, or that is not UTF-8 (issue 16 F19): C0 controls (ESC, BEL, CR,
/// LF, ...), DEL, the two-byte UTF-8 C1 controls (U+0080 to U+009F: the
/// 8-bit CSI and OSC), and each byte of an invalid UTF-8 sequence; calls
/// \p Copy with each run of the other bytes.
void forEachUnsafeByte(llvm::StringRef Text,
                       llvm::function_ref<void(llvm::StringRef)> Copy,
                       llvm::function_ref<void(unsigned char)> Byte);
/// \p Text with each of those bytes written `\xHH` (a file name in text
/// output and on standard error).
std::string escapeForTerminal(llvm::StringRef Text);
/// Whether \p Text has any of those bytes.
bool needsTerminalEscape(llvm::StringRef Text);

/// For the text format, which clang's printer writes: \p Errors with every
/// file name that needs escaping (message, notes, fix-its) replaced by its
/// escapeForTerminal spelling, and \p Base with each such file's bytes
/// served under that name as well, so clang still shows its lines.
std::pair<std::vector<ClangTidyError>,
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>>
withPrintableFileNames(llvm::ArrayRef<ClangTidyError> Errors,
                       llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

/// Escaping of workflow-command data and property values, exposed for tests.
std::string escapeGitHubData(llvm::StringRef Text);
std::string escapeGitHubProperty(llvm::StringRef Text);

} // namespace clang::tidy::cuda::driver

#endif
