//===--- ProjectIndex.h - cuda-grid-sync-launch across files ----*- C++ -*-===//
//
// The second pass of cuda-grid-sync-launch in the standalone cuda-tidy. While
// the files are analyzed (in any order, by any number of workers) the check
// writes one record per translation unit into the index folder: the kernels
// the file defines that need a cooperative launch, and its launches, not
// cooperative, of kernels it does not define (checks/analysis/launch/LaunchIndex.h).
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

#include "checks/analysis/launch/LaunchIndex.h"

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
/// A finding whose file cannot be read, or no longer has the recorded line
/// and column at the recorded offset (it changed since it was analyzed), is
/// left out; with \p Unplaced, a line saying so is added there for each.
std::vector<ClangTidyError>
toClangTidyErrors(llvm::ArrayRef<CrossFileFinding> Findings,
                  std::unique_ptr<ClangTidyOptionsProvider> Options,
                  const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
                  ClangTidyStats &Stats,
                  std::vector<std::string> *Unplaced = nullptr);

// --index-dir and --join-index: the records of several runs (CI shards,
// compiler-launcher calls, pre-commit runs) in a folder the user names, and
// their join in a later run. The folder holds one file per source file
// (indexFileName), written through a temporary file and a rename, so a
// re-run of a source replaces its record, and shards, which analyze other
// files, never write the same name. Each file carries the format version
// and cuda-tidy's version, and is checked when read.

/// The name of \p MainFile's record file in an --index-dir folder: its
/// base name (letters, digits, `.`, `-`, `_` kept) and a digest of the
/// whole absolute path.
std::string indexFileName(llvm::StringRef MainFile);

/// Makes \p Dir (and the folders above it) when absent, 0700 whatever the
/// umask, as the cache folder is made. An existing \p Dir must be a folder
/// of this user that no other user can write to (records planted there
/// would become findings). Returns the folder's absolute, cleaned path.
llvm::Expected<std::string> prepareIndexFolder(llvm::StringRef Dir);

/// An error unless \p Dir is a folder of this user's that no one else may
/// write: records planted in one would become (or hide) findings. What
/// prepareIndexFolder checks, and --join-index of each folder it reads
/// (issue 38 G9).
llvm::Error checkIndexFolderOwner(llvm::StringRef Dir);

/// Writes, into \p Dir (see prepareIndexFolder), one record file for each
/// of \p MainFiles, holding those of \p Records whose main file it is: one
/// per compile command of the file that recorded something (an arch, a
/// side). A file with no record gets an empty one, which replaces what an
/// earlier run of it recorded.
llvm::Error
writeIndexFolder(llvm::StringRef Dir,
                 llvm::ArrayRef<analysis::TranslationUnitRecord> Records,
                 llvm::ArrayRef<std::string> MainFiles,
                 llvm::StringRef ToolVersion);

/// What --join-index read from its folders.
struct IndexFolders {
  /// Ordered as one run's records are (analysis::orderRecords).
  std::vector<analysis::TranslationUnitRecord> Records;
  /// The source files that have a record file, sorted.
  std::vector<std::string> MainFiles;
  /// "'<path>': <why>" for each entry that was skipped: not a record file,
  /// unreadable, malformed, of another format or cuda-tidy version, or the
  /// record of a source file that no longer exists (the join needs the
  /// sources: their NOLINT comments and .clang-tidy files).
  std::vector<std::string> Skipped;
};

/// Reads the record files of \p Dirs. Names starting with `.` are not
/// read (a record being written). When two folders hold a record of the
/// same source file, the one named later wins (`--join-index full/ new/`).
/// A folder that is missing, or not a folder, is an error.
llvm::Expected<IndexFolders> readIndexFolders(llvm::ArrayRef<std::string> Dirs,
                                              llvm::StringRef ToolVersion);

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

  /// --index-dir: the records the run left, written into \p Dir for a
  /// later --join-index (writeIndexFolder), one file per \p MainFiles.
  llvm::Error exportTo(llvm::StringRef Dir,
                       llvm::ArrayRef<std::string> MainFiles,
                       llvm::StringRef ToolVersion) const;

private:
  std::string Dir;
  std::string Error;
};

} // namespace clang::tidy::cuda::driver

#endif
