//===--- ProjectIndex.h - cuda-grid-sync-launch across files ----*- C++ -*-===//
//
// The second pass of cuda-grid-sync-launch in the standalone cuda-tidy. While
// the files are analyzed (in any order, by any number of workers) the check
// writes one record per translation unit into the index folder: the kernels
// the file defines that need a cooperative launch, and its launches, not
// cooperative, of kernels it does not define (checks/analysis/LaunchIndex.h).
// After the run the driver joins the records by mangled kernel name and
// reports each such launch at the launch, in the launch's file, as an
// ordinary clang-tidy finding of cuda-grid-sync-launch: NOLINT, the line and
// header filters, --warnings-as-errors and every output format apply.
//
// No global state: the folder reaches the check as a check option
// (cuda-grid-sync-launch.ProjectIndexDir) of each file's options.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PROJECTINDEX_H
#define CUDA_TIDY_TOOL_DRIVER_PROJECTINDEX_H

#include "checks/analysis/LaunchIndex.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// A launch, found by the join, of a kernel that needs a cooperative launch.
struct CrossFileFinding {
  std::string MainFile; ///< The translation unit the launch was seen in.
  analysis::IndexLocation Where;
  std::string Message;
  /// The kernel's way to its grid sync, then the notes about the launch.
  std::vector<analysis::IndexNote> Notes;
};

/// Joins the records: every recorded launch of a kernel some record says
/// needs a cooperative launch. When several files define the kernel (a
/// template or inline kernel), the first record in order gives the chain.
std::vector<CrossFileFinding>
joinLaunchRecords(llvm::ArrayRef<analysis::TranslationUnitRecord> Records);

/// Turns findings into ClangTidyErrors the way clang-tidy turns a check's
/// diagnostics into them, with the options \p Options gives for each file:
/// NOLINT comments, the line and header filters, the check globs, and
/// --warnings-as-errors. Suppressed findings are counted in \p Stats.
std::vector<ClangTidyError>
toClangTidyErrors(llvm::ArrayRef<CrossFileFinding> Findings,
                  std::unique_ptr<ClangTidyOptionsProvider> Options,
                  const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
                  ClangTidyStats &Stats);

/// The index folder of one run, in the system's temporary folder: created
/// by the first record written into it, removed with its records when the
/// index goes away.
class ProjectIndex {
public:
  /// Picks a fresh folder name. On failure the index is disabled (the
  /// cross-file part of the check is skipped) and error() says why.
  ProjectIndex();
  ~ProjectIndex();
  ProjectIndex(const ProjectIndex &) = delete;
  ProjectIndex &operator=(const ProjectIndex &) = delete;

  bool enabled() const { return !Dir.empty(); }
  llvm::StringRef directory() const { return Dir; }
  llvm::StringRef error() const { return Error; }

  /// \p Options, with cuda-grid-sync-launch.ProjectIndexDir set to this
  /// folder over every other source of options.
  std::unique_ptr<ClangTidyOptionsProvider>
  withIndexOption(std::unique_ptr<ClangTidyOptionsProvider> Options) const;

  /// Reads and joins the records the run left, and returns the findings
  /// (see toClangTidyErrors). When the records cannot be read it says so
  /// on stderr and reports nothing.
  std::vector<ClangTidyError>
  report(std::unique_ptr<ClangTidyOptionsProvider> Options,
         ClangTidyStats &Stats) const;

private:
  std::string Dir;
  std::string Error;
};

} // namespace clang::tidy::cuda::driver

#endif
