//===--- Gates.h - which findings a CI gate or a pre-commit hook shows ----===//
//
// A baseline hides findings a team has already accepted (by fingerprint, so
// unrelated edits do not bring them back); a diff limits findings to the
// lines a change touched.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_GATES_H
#define CUDA_TIDY_TOOL_DRIVER_GATES_H

#include "tool/driver/report/Findings.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

namespace clang::tidy::cuda::driver {

/// The fingerprints of a baseline file written by writeBaseline.
llvm::Expected<llvm::StringSet<>> readBaseline(llvm::StringRef Path);
/// The same from the baseline's text (\p Path names it in messages). Text
/// that isValidJson accepts is read in place, without building a tree
/// (issue 16 F18); any other goes through llvm::json::parse, for its
/// message.
llvm::Expected<llvm::StringSet<>> parseBaseline(llvm::StringRef Text,
                                                llvm::StringRef Path);
/// Writes the findings (compiler errors excluded) atomically.
llvm::Error writeBaseline(llvm::StringRef Path,
                          const std::vector<Finding> &Findings,
                          llvm::StringRef Root);

/// Added or changed lines of the new side of a diff, per file.
class ChangedLines {
public:
  /// Reads a unified diff (git diff -U0 style); paths are resolved against
  /// \p Root and a/ b/ prefixes are dropped.
  static llvm::Expected<ChangedLines> fromUnifiedDiff(llvm::StringRef Diff,
                                                      llvm::StringRef Root);
  bool contains(llvm::StringRef AbsoluteFile, unsigned Line) const;
  size_t fileCount() const { return Ranges.size(); }

private:
  llvm::StringMap<std::vector<std::pair<unsigned, unsigned>>> Ranges;
};

/// Runs `git diff -U0 <Ref>` in \p Directory (no external diff drivers or
/// text conversions: nothing from the repository's configuration runs) and
/// returns the diff and the repository root.
llvm::Expected<std::pair<std::string, std::string>>
gitDiffAgainst(llvm::StringRef Ref, llvm::StringRef Directory);

} // namespace clang::tidy::cuda::driver

#endif
