//===--- LaunchIndex.h - per-TU records for cross-TU launches ---*- C++ -*-===//
//
// A kernel that synchronizes the whole grid is often defined in one file and
// launched from another. cuda-grid-sync-launch, run by the standalone
// cuda-tidy, writes one record per translation unit into a folder the driver
// names (the check option ProjectIndexDir):
//  - the kernels the TU defines that need a cooperative launch, by mangled
//    name, with the way to the grid sync as ready-made notes;
//  - the launches, not cooperative, of kernels the TU does not define.
// After every file ran, the driver joins the records (tool/driver/
// ProjectIndex.h) and reports each launch of a kernel that needs a
// cooperative launch, at the launch, with the same message the check gives
// when kernel and launch share a file.
//
// Each record is written to a fresh temporary file and renamed into place,
// so parallel workers need no lock and a reader never sees half a record.
//
// The option can come from a repository's .clang-tidy, which must not choose
// a folder to write into or read records from (issue 16 F22). A folder is
// used only when it is trusted: the one the standalone cuda-tidy of this
// process made for its run (trustIndexFolder), or the one the user named in
// the environment variable CUDA_TIDY_INDEX_DIR. Any other value is ignored
// with a warning.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_LAUNCHINDEX_H
#define CUDA_TIDY_CHECKS_ANALYSIS_LAUNCHINDEX_H

#include "checks/analysis/core/StrictJson.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda::analysis {

inline constexpr llvm::StringLiteral GridSyncLaunchCheckName =
    "cuda-grid-sync-launch";

/// The check option that names the record folder.
inline constexpr llvm::StringLiteral ProjectIndexDirOption = "ProjectIndexDir";

/// The environment variable in which a user names an index folder the
/// check may write into (for the plugin, where no driver makes one).
inline constexpr llvm::StringLiteral IndexDirEnvironmentVariable =
    "CUDA_TIDY_INDEX_DIR";

/// Marks \p Dir, a folder this process made (or will make) for its run, as
/// one the check and the driver may write records into and read them from.
void trustIndexFolder(llvm::StringRef Dir);
/// Undoes trustIndexFolder(\p Dir) (the run's folder is gone).
void forgetIndexFolder(llvm::StringRef Dir);
/// Whether \p Dir (a ProjectIndexDir value) names a trusted folder: one
/// given to trustIndexFolder, or the folder CUDA_TIDY_INDEX_DIR names (the
/// same path once made absolute and cleaned of `.`/`..`, or the same real
/// folder).
bool isTrustedIndexFolder(llvm::StringRef Dir);

/// The error for a ProjectIndexDir that is not trusted.
llvm::Error untrustedFolderError(llvm::StringRef Dir);

struct IndexLocation {
  std::string File; ///< Absolute path.
  unsigned Offset = 0;
  unsigned Line = 0;
  unsigned Column = 0;
};

struct IndexNote {
  IndexLocation Where;
  std::string Message;
};

/// A kernel defined in the TU that needs a cooperative launch.
struct IndexedKernel {
  std::string MangledName;
  std::string SyncSpelling; ///< "grid_group::sync()", ...
  /// From the kernel's first call on the way to the grid sync itself.
  std::vector<IndexNote> Chain;
};

/// A launch, not cooperative, of a kernel the TU declares but does not
/// define.
struct IndexedLaunch {
  std::string MangledName;
  std::string KernelName; ///< As messages print it.
  std::string Form;       ///< "<<<...>>>", "cudaLaunchKernel", ...
  IndexLocation Where;
  std::vector<IndexNote> Notes; ///< About the launch (its configuration).
};

struct TranslationUnitRecord {
  std::string MainFile;
  std::vector<IndexedKernel> Kernels;
  std::vector<IndexedLaunch> Launches;
};

llvm::json::Value toJSON(const TranslationUnitRecord &Record);
bool fromJSON(const llvm::json::Value &Value, TranslationUnitRecord &Record,
              llvm::json::Path Path);

/// Records are read and written without building llvm::json's tree, whose
/// objects cost several kilobytes each: a 119 MB record held 8 GB (issue 38
/// G10). What follows reads and writes the same JSON as toJSON and fromJSON,
/// in memory proportional to the text.

/// Writes \p Record as `OS << json::Value(toJSON(Record))` would, byte for
/// byte (keys in order), without the tree.
void writeJSON(llvm::json::OStream &OS, const TranslationUnitRecord &Record);

/// isStrictJson as an error: `not JSON (invalid at line L, column C)`.
llvm::Error checkStrictJson(llvm::StringRef Text);

/// For a \p Object that isStrictJson accepted and that is an object: calls
/// \p Member with each key (escapes decoded) and the text of its value, in
/// the order of the text; duplicates are all passed (llvm::json keeps the
/// last).
void forEachMember(
    llvm::StringRef Object,
    llvm::function_ref<void(llvm::StringRef Key, llvm::StringRef Value)>
        Member);

/// For an \p Array that isStrictJson accepted and that is an array: calls
/// \p Element with the text of each element until it returns false.
void forEachElement(llvm::StringRef Array,
                    llvm::function_ref<bool(llvm::StringRef Value)> Element);

/// fromJSON of the record whose JSON text is \p Value (text isStrictJson
/// accepted, or a value within it), reading the text in place: the same
/// record, and the same errors reported at \p Path.
bool fromJSONText(llvm::StringRef Value, TranslationUnitRecord &Record,
                  llvm::json::Path Path);

/// The record of a record file's text \p Text: isStrictJson, then
/// fromJSONText; an error says why it is not one.
llvm::Expected<TranslationUnitRecord> parseRecord(llvm::StringRef Text);

/// Writes \p Record as a new file in \p Dir, atomically; creates \p Dir if
/// need be. An untrusted \p Dir (isTrustedIndexFolder) is an error and is
/// not touched.
llvm::Error writeRecord(llvm::StringRef Dir,
                        const TranslationUnitRecord &Record);

/// Every record in \p Dir, ordered by orderRecords. No folder: none.
/// An untrusted \p Dir is an error and is not read.
llvm::Expected<std::vector<TranslationUnitRecord>>
readRecords(llvm::StringRef Dir);

/// Orders records by main file, then by their JSON text, so the join does
/// not depend on which worker finished first, nor on whether the records
/// came from one run's folder or from the --index-dir folders of several.
void orderRecords(std::vector<TranslationUnitRecord> &Records);

/// The warning for a kernel that needs a cooperative launch and is
/// launched without one, in one TU or across two.
std::string needsCooperativeLaunchMessage(llvm::StringRef KernelName,
                                          llvm::StringRef SyncSpelling,
                                          llvm::StringRef Form);

} // namespace clang::tidy::cuda::analysis

#endif
