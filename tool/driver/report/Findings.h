//===--- Findings.h - findings as the driver's reporters see them ---------===//
//
// clang-tidy hands back ClangTidyError objects with file offsets. Reporters,
// baselines and the changed-lines filter want lines, columns and a stable
// fingerprint; this is that one conversion, done once per run.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_FINDINGS_H
#define CUDA_TIDY_TOOL_DRIVER_FINDINGS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

struct SourcePoint {
  std::string File; ///< As clang-tidy reported it (absolute).
  unsigned Line = 0; ///< 1-based; 0 when the file could not be read.
  unsigned Column = 0;
};

struct FindingNote {
  SourcePoint Where;
  std::string Message;
};

struct FindingFix {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Replacement;
  SourcePoint Begin, End;
};

struct Finding {
  std::string Check;
  enum class Severity { Warning, Error } Level = Severity::Warning;
  bool IsCompilerError = false; ///< clang-diagnostic-error: not a finding.
  SourcePoint Where;
  std::string Message;
  std::vector<FindingNote> Notes;
  std::vector<FindingFix> Fixes;
  /// Stable across unrelated edits: check, file (relative), the trimmed
  /// text of the flagged line, and which occurrence of that triple it is.
  std::string Fingerprint;
};

/// Maps file offsets to lines and columns, reading each file once.
class SourceLines {
public:
  SourcePoint locate(llvm::StringRef File, unsigned Offset);
  /// The text of a 1-based line, without its line break; empty if unknown.
  llvm::StringRef lineText(llvm::StringRef File, unsigned Line);

private:
  struct FileLines {
    std::string Text;
    std::vector<unsigned> LineStarts;
    bool Readable = false;
  };
  FileLines &load(llvm::StringRef File);
  llvm::StringMap<FileLines> Files;
};

/// Converts clang-tidy's errors one by one, in the order they are reported,
/// and assigns fingerprints relative to \p Root (paths outside it keep their
/// absolute form). The fingerprint counts the earlier occurrences of the
/// same check, file and line text, so a run converts through one maker.
class FindingMaker {
public:
  FindingMaker(SourceLines &Lines, llvm::StringRef Root)
      : Lines(Lines), Root(Root.str()) {}
  Finding make(const ClangTidyError &Error);

private:
  SourceLines &Lines;
  std::string Root;
  std::map<std::string, unsigned> Occurrences;
};

/// Converts clang-tidy's errors, in their order (one FindingMaker).
std::vector<Finding> toFindings(const std::vector<ClangTidyError> &Errors,
                                SourceLines &Lines, llvm::StringRef Root);

/// \p Path as a reader opens it: absolute, a relative name (a header found
/// through a relative -I) taken from \p BuildDirectory (the compile
/// command's directory, not ours), without `.` parts. This is the name a
/// PCH gives the file too, so a finding in a header prints the same name
/// whether the parse started from a preamble or not.
std::string absoluteFileName(llvm::StringRef Path,
                             llvm::StringRef BuildDirectory);
/// Renames each message's, note's and range's file by absoluteFileName (not
/// the fixes': FixApplier resolves those against the build directory).
void absoluteFileNames(std::vector<ClangTidyError> &Errors);

/// \p Path relative to \p Root when it lies below it.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);

} // namespace clang::tidy::cuda::driver

#endif
