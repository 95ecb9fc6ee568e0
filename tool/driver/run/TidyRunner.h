//===--- TidyRunner.h - clang-tidy on one file, with the caches --*- C++ -*-===//
//
// What clang-tidy's runClangTidy does for one file (a ClangTool, the
// per-file extra arguments, the plugin-stripping adjuster, the
// __clang_analyzer__ macro, quiet compiler output, clang-tidy's diagnostic
// consumer and its AST consumer), with three hooks between the compile
// command and the parse:
//  - the result cache (ResultCache.h): an unchanged file is replayed, not
//    parsed;
//  - the preamble cache (PreambleCache.h): the leading CUDA headers come
//    from a precompiled preamble;
//  - --time-checks: the time the checks take after the parse is measured
//    and printed.
// With no cache and no timing it behaves as runClangTidy does.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_TIDYRUNNER_H
#define CUDA_TIDY_TOOL_DRIVER_TIDYRUNNER_H

#include "tool/driver/cache/CacheStore.h"
#include "tool/driver/cache/PreambleCache.h"
#include "tool/driver/cache/ResultCache.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <functional>

namespace clang::tidy::cuda::driver {

/// The caches of one run; every member may be null.
struct RunCaches {
  CacheStore *Disk = nullptr;         ///< null with --no-cache
  PreambleCache *Preambles = nullptr; ///< null: parse every header
  ResultCache *Results = nullptr;     ///< null: analyze every file
  ContentHasher *Hasher = nullptr;    ///< digests of the files read
  /// Print, per file, the parse and the checks' time (--time-checks).
  bool TimeChecks = false;
  /// Called once the file's preamble is acquired (built, taken from the
  /// cache, or none), before the parse: the -j scheduler then lets the
  /// files that share it start instead of waiting for this whole file.
  std::function<void()> PreambleAcquired;
  /// Only ask the result cache: a file it does not answer is not parsed
  /// (FileRun::NeedsParse), for a second step whose preambles are planned
  /// over the files that need a parse (runFiles).
  bool ResultOnly = false;
  /// The result cache was asked about this file (ResultOnly) and did not
  /// answer: it is not asked again (its counters count each file once),
  /// the result is stored as usual.
  bool ResultLookedUp = false;
};

struct FileRun {
  std::vector<ClangTidyError> Errors;
  ClangTidyStats Stats;
  /// A compile command failed (clang's "Error while processing <file>.",
  /// which is left to the caller to print, in its order).
  bool Failed = false;
  /// The files outside system folders the parse read (the main file and the
  /// user's headers; absolute), each with contentHash() of the bytes it
  /// read: --fix refuses a file whose bytes differ from these when it
  /// writes (FileSnapshots).
  std::vector<std::pair<std::string, std::string>> UserFilesRead;
  /// The user's function definitions that do not compile, which no check
  /// analyzed ("path:line:column: function 'f' was not analyzed: ...").
  std::vector<std::string> FunctionsNotAnalyzed;
  /// With RunCaches::ResultOnly: the result cache did not answer; nothing
  /// was parsed and the rest of this FileRun is empty.
  bool NeedsParse = false;
};

/// The caches of one cuda-tidy run, made from its flags: the cache folder
/// (unless --no-cache), the preambles (always: without a folder they are
/// shared within the run), the results (with a folder).
class CacheSession {
public:
  /// \p Dir empty: defaultCacheDirectory().
  /// \p MaxBytes: the folder's budget (0: none; CacheStore::setMaxBytes).
  CacheSession(bool UseFolder, llvm::StringRef Dir, bool UsePreambles,
               bool TimeChecks, uint64_t MaxBytes = DefaultMaxFolderBytes);
  ~CacheSession();

  /// For runFiles(); null when nothing is cached or timed (then files run
  /// through clang-tidy's own runClangTidy).
  const RunCaches *caches() const {
    return Caches.Disk || Caches.Preambles || Caches.TimeChecks ? &Caches
                                                                : nullptr;
  }
  /// Why the folder is not used, when --cache-dir named it and it cannot
  /// be (the default folder is skipped silently).
  llvm::StringRef problem() const { return Problem; }
  /// Records the run's uses and prunes the folder to its budget; with
  /// \p PrintStats, prints the counters and what the folder holds, in
  /// eviction order, to stderr.
  void finish(bool PrintStats);

  /// The folder's budget unless --cache-max-size or CUDA_TIDY_CACHE_MAX_SIZE
  /// say otherwise (docs/performance.md, "The cache folder").
  static constexpr uint64_t DefaultMaxFolderBytes = 1ull << 30;

private:
  ContentHasher Hasher;
  CacheCounters LocalCounters;
  std::unique_ptr<CacheStore> Disk;
  std::unique_ptr<PreambleCache> Preambles;
  std::unique_ptr<ResultCache> Results;
  RunCaches Caches;
  std::string Problem;
};

/// What the folder holds, as --cache-stats prints it: totals, then the
/// preambles in eviction order, then the results in one line.
void printListing(llvm::ArrayRef<CacheStore::ListedEntry> Entries,
                  uint64_t MaxBytes, llvm::raw_ostream &OS);

/// Runs the enabled checks on \p File in \p Context (a context of its own).
FileRun runFileWithCaches(
    ClangTidyContext &Context, const tooling::CompilationDatabase &Compilations,
    llvm::StringRef File,
    const llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> &BaseFS,
    bool ApplyAnyFix, const RunCaches &Caches);

} // namespace clang::tidy::cuda::driver

#endif
