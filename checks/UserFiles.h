//===--- UserFiles.h - the user's files a translation unit entered ---------===//
//
// Checks that read the text of the user's files (removed CUDA names, the
// HIP platform macros a portable file tests) need to know which files the
// preprocessor entered and which ranges #if skipped. A parse from a
// precompiled preamble enters the preamble's part without calling the
// PP callbacks, so the standalone replays what they would have seen
// (PreambleReplay); the tracker below merges both, in the order a full
// parse enters the files, so that a finding is the same with or without a
// preamble.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_USERFILES_H
#define CUDA_TIDY_CHECKS_USERFILES_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace clang {
class FileEntry;
class PPCallbacks;
class SourceManager;
} // namespace clang

namespace clang::tidy::cuda {

/// What the check's preprocessor callbacks would have seen of a precompiled
/// preamble's part of a file: the user's files it entered and the ranges #if
/// skipped in them. The standalone cuda-tidy parses files from preambles
/// that hold user headers (tool/driver/cache/PreambleCache.h) and sets one for
/// the compiles of a thread; clang-tidy sets none.
class PreambleReplay {
public:
  virtual ~PreambleReplay() = default;
  /// Called once the main file is entered: appends the files, in the order
  /// a full parse enters them, and the ranges skipped in them.
  virtual void replay(const SourceManager &SM, std::vector<FileID> &Files,
                      std::vector<SourceRange> &Skipped) const = 0;
  /// The replay for this thread's compiles from now on (null: none).
  static void set(const PreambleReplay *Replay);
  static const PreambleReplay *current();
};

/// The user (non-system) files a translation unit entered, each once, in the
/// order a full parse enters them, and the ranges #if skipped in them.
struct UserFiles {
  const SourceManager *SM = nullptr;
  std::vector<FileID> Files;
  std::vector<SourceRange> Skipped;
  llvm::DenseSet<const FileEntry *> Seen;

  /// The files, with the main file first if the callbacks never saw it.
  std::vector<FileID> withMainFile() const;
  /// \p Loc lies in a range #if skipped.
  bool isSkipped(SourceLocation Loc) const;
};

/// Callbacks that fill \p Into (its SM is set here).
std::unique_ptr<PPCallbacks> trackUserFiles(const SourceManager &SM,
                                            std::shared_ptr<UserFiles> Into);

} // namespace clang::tidy::cuda

#endif
