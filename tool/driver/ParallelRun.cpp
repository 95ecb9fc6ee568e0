//===--- ParallelRun.cpp - clang-tidy over many files, N at a time --------===//

#include "tool/driver/ParallelRun.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <atomic>
#include <mutex>
#include <numeric>
#include <set>
#include "llvm/Support/thread.h"
#include <tuple>

namespace clang::tidy::cuda::driver {

static void addStats(ClangTidyStats &Sum, const ClangTidyStats &S) {
  Sum.ErrorsDisplayed += S.ErrorsDisplayed;
  Sum.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
  Sum.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
  Sum.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
  Sum.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
}

RunResult runFiles(const std::vector<std::string> &Files,
                   const tooling::CompilationDatabase &Compilations,
                   const OptionsProviderFactory &MakeOptions, unsigned Jobs,
                   bool FixNotes,
                   const std::function<void(size_t, size_t)> &Progress,
                   const RunCaches *Caches) {
  // The order files are analyzed in; findings are still kept by input
  // position. The preamble cache groups files that share a preamble, so
  // each lives in memory only while its group runs.
  std::vector<size_t> Order(Files.size());
  std::iota(Order.begin(), Order.end(), static_cast<size_t>(0));
  if (Caches && Caches->Preambles)
    Order = Caches->Preambles->planRun(Files);
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<ClangTidyStats> StatsPerFile(Files.size());
  std::atomic<size_t> Next{0};
  std::mutex ProgressMutex;
  size_t Done = 0;
  size_t FindingsSoFar = 0;

  auto Worker = [&] {
    for (size_t K = Next++; K < Files.size(); K = Next++) {
      const size_t I = Order[K];
      ClangTidyContext Context(MakeOptions(), false, false, false);
      llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
          new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
      if (Caches) {
        FileRun Run = runFileWithCaches(Context, Compilations, Files[I], FS,
                                        FixNotes, *Caches);
        PerFile[I] = std::move(Run.Errors);
        StatsPerFile[I] = Run.Stats;
      } else {
        PerFile[I] = runClangTidy(Context, Compilations, {Files[I]}, FS,
                                  FixNotes, false, "", /*Quiet=*/true);
        StatsPerFile[I] = Context.getStats();
      }
      if (Progress) {
        std::scoped_lock Lock(ProgressMutex);
        FindingsSoFar += PerFile[I].size();
        Progress(++Done, FindingsSoFar);
      }
    }
  };
  // Every worker, -j 1 included, runs on a thread with a large stack: the
  // AST matchers recurse once per nesting level, and 2,000 nested
  // parentheses overflow the default 8 MB (clang-tidy itself crashes there).
  // Only touched pages are committed, so the reservation costs nothing.
  constexpr unsigned WorkerStackBytes = 512u << 20;
  Jobs = std::max(1u, std::min<unsigned>(Jobs, Files.size()));
  std::vector<llvm::thread> Threads;
  Threads.reserve(Jobs);
  for (unsigned J = 0; J < Jobs; ++J)
    Threads.emplace_back(std::optional<unsigned>(WorkerStackBytes), Worker);
  for (llvm::thread &T : Threads)
    T.join();

  RunResult Result;
  // A header included by several files yields the same finding once per
  // file; report it once, where the first file in input order saw it.
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  for (size_t I = 0; I < Files.size(); ++I) {
    addStats(Result.Stats, StatsPerFile[I]);
    for (ClangTidyError &Error : PerFile[I])
      if (Seen.emplace(Error.DiagnosticName, Error.Message.FilePath,
                       Error.Message.FileOffset, Error.Message.Message)
              .second)
        Result.Errors.push_back(std::move(Error));
  }
  return Result;
}

} // namespace clang::tidy::cuda::driver
