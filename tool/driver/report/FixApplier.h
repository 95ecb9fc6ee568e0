//===--- FixApplier.h - applies fix-its without ever losing a file --------===//
//
// Each file is rewritten through a temporary file in the same folder and a
// rename, keeps its permissions, and is left alone if it changed since it
// was analyzed. Fixes that overlap another fix are skipped whole.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_FIXAPPLIER_H
#define CUDA_TIDY_TOOL_DRIVER_FIXAPPLIER_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>
#include <optional>

namespace clang::tidy::cuda::driver {

/// What a file looked like when it was analyzed, to tell whether it changed
/// before its fixes were written.
class FileSnapshots {
public:
  /// Before the run: \p Path as it is on disk now.
  void record(llvm::StringRef Path);
  /// During the run, from any thread: \p Path was parsed with bytes of
  /// contentHash() \p Hash. The first parse's bytes replace the snapshot
  /// taken before the run; when two parses read different bytes, the file
  /// changed during the run and gets no fix.
  void recordParsed(llvm::StringRef Path, llvm::StringRef Hash);
  /// True when \p Path was recorded and its bytes differ now (or two parses
  /// read different bytes). \p Bytes: the bytes just read from it, which the
  /// fixes will be applied to (else it is read here).
  bool changedSince(llvm::StringRef Path,
                    std::optional<llvm::StringRef> Bytes = std::nullopt) const;

private:
  struct Snapshot {
    std::string Hash;
    bool FromParse = false;
    bool ChangedDuringRun = false;
  };
  llvm::StringMap<Snapshot> Hashes;
  mutable std::mutex Mutex;
};

/// The digest FileSnapshots compares (SHA-256, hex).
std::string contentHash(llvm::StringRef Bytes);

struct FixSummary {
  unsigned Suggested = 0; ///< Findings that carried a fix (each fix once).
  unsigned Applied = 0;   ///< Of those, written (every file they touch).
  unsigned Overlapping = 0;   ///< Skipped: they overlap an earlier fix.
  unsigned FilesWritten = 0;
  unsigned FilesRefused = 0;  ///< Changed since analysis, or unwritable.
};

/// Applies the fixes of \p Errors (and of their notes when \p FromNotes),
/// reporting problems with file names on \p Log.
FixSummary applyFixes(llvm::ArrayRef<ClangTidyError> Errors, bool FromNotes,
                      const FileSnapshots &Snapshots, llvm::raw_ostream &Log);

/// Writes \p Contents over \p Path atomically, keeping its permissions.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace clang::tidy::cuda::driver

#endif
