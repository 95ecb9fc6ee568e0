//===--- ResultCache.h - unchanged files are not analyzed again --*- C++ -*-===//
//
// A file whose contents, included files, compile flags, clang-tidy
// configuration and tool version are all unchanged since a run analyzed it
// is not analyzed again: that run's findings (with their notes and fixes),
// its suppression counters, and the cross-file launch records its
// translation unit wrote are replayed from the cache folder.
//
// The key (everything known before parsing): the tool version, the full cc1
// command line, the working directory, the effective configuration of the
// file (less the per-run ProjectIndexDir), the --line-filter and whether
// fixes of notes are kept. The entry then lists every file the analysis
// read with the BLAKE3 digest of its contents, and every path it looked up
// and did not find (LookupRecorder in CacheStore.h: the folders searched
// before each hit, `__has_include` and `#include_next` that found nothing);
// it is replayed only while every file still has those contents and every
// one of those paths still names nothing (issue 16 F2: a new header that
// shadows the old one, or a `__has_include` that flips, is analyzed), and
// while those paths still group into the same files (issue 38 G1: a copy of
// a header that became a link to it changes what `#pragma once` skips).
//
// Not cached: a file that did not compile (its errors may depend on files
// that were missing), one with several compile commands, and runs that
// time the checks.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_RESULTCACHE_H
#define CUDA_TIDY_TOOL_DRIVER_RESULTCACHE_H

#include "tool/driver/cache/CacheStore.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
} // namespace clang

namespace clang::tidy::cuda::driver {

/// What one analysis of one file produced.
struct StoredResult {
  bool Success = true; ///< What the compile reported (false: "Error while
                       ///< processing").
  std::vector<ClangTidyError> Errors;
  ClangTidyStats Stats;
  /// The cross-file launch records (JSON) its translation unit wrote.
  std::vector<std::string> Records;
  /// A compile that failed: the functions the checks left out because they
  /// do not compile, each with its first error (FileRun's, replayed as the
  /// file's notes).
  std::vector<std::string> FunctionsNotAnalyzed;
  std::vector<FileDigest> Dependencies;
  /// The paths its parse (and its preamble's) looked up and did not find,
  /// and those it found without reading them (folders, `__has_include`).
  std::vector<std::string> Missing;
  std::vector<std::string> Found;
  /// How Dependencies and Found group into files (sameFileDigest): the
  /// identity that `#pragma once` goes by.
  Digest SameFiles{};
};

/// Encodes and decodes a result; decode fails on anything malformed.
std::string encodeResult(const StoredResult &Result);
std::optional<StoredResult> decodeResult(llvm::StringRef Payload);

class ResultCache {
public:
  ResultCache(CacheStore &Disk, ContentHasher &Hasher)
      : Disk(Disk), Hasher(Hasher) {}

  /// The key of one compile of \p MainFile with \p Options (the file's
  /// effective clang-tidy options).
  static Digest key(const CompilerInvocation &Invocation,
                    llvm::StringRef MainFile, llvm::StringRef WorkingDir,
                    const ClangTidyOptions &Options,
                    const ClangTidyGlobalOptions &Global, bool ApplyAnyFix);

  /// The stored result, when there is one and every file it read is
  /// unchanged.
  std::optional<StoredResult> lookup(const Digest &Key);
  void store(const Digest &Key, const StoredResult &Result);

private:
  CacheStore &Disk;
  ContentHasher &Hasher;
};

} // namespace clang::tidy::cuda::driver

#endif
