//===--- ParallelRun.cpp - clang-tidy over many files, N at a time --------===//

#include "tool/driver/ParallelRun.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/thread.h"
#include <mutex>
#include <set>
#include <tuple>

namespace clang::tidy::cuda::driver {

FileSchedule::FileSchedule(std::vector<std::vector<size_t>> Plan) {
  for (std::vector<size_t> &Files : Plan)
    if (!Files.empty())
      Groups.push_back(Group{std::move(Files)});
}

FileSchedule::Step FileSchedule::tryNextLocked(size_t &File) {
  // A file whose preamble is ready, earliest group first: a group's
  // preamble leaves memory with its last file.
  for (Group &G : Groups)
    if (G.Ready && G.Handed < G.Files.size()) {
      File = G.Files[G.Handed++];
      return Step::Run;
    }
  // Else lead a group nobody has started.
  for (Group &G : Groups)
    if (G.Handed == 0) {
      File = G.Files[G.Handed++];
      return Step::Run;
    }
  for (const Group &G : Groups)
    if (G.Handed < G.Files.size())
      return Step::Wait;
  return Step::Finished;
}

FileSchedule::Step FileSchedule::tryNext(size_t &File) {
  std::scoped_lock Lock(Mutex);
  return tryNextLocked(File);
}

std::optional<size_t> FileSchedule::next() {
  std::unique_lock Lock(Mutex);
  for (;;) {
    size_t File = 0;
    switch (tryNextLocked(File)) {
    case Step::Run:
      return File;
    case Step::Finished:
      return std::nullopt;
    case Step::Wait:
      Changed.wait(Lock);
    }
  }
}

void FileSchedule::done(size_t File) {
  {
    std::scoped_lock Lock(Mutex);
    for (Group &G : Groups)
      if (!G.Ready && G.Files.front() == File)
        G.Ready = true;
  }
  Changed.notify_all();
}

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
  std::vector<std::vector<size_t>> Plan;
  if (Caches && Caches->Preambles) {
    Plan = Caches->Preambles->planRun(Files);
  } else {
    for (size_t I = 0; I < Files.size(); ++I)
      Plan.push_back({I});
  }
  FileSchedule Schedule(std::move(Plan));
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<ClangTidyStats> StatsPerFile(Files.size());
  std::mutex ProgressMutex;
  size_t Done = 0;
  size_t FindingsSoFar = 0;

  auto Worker = [&] {
    while (std::optional<size_t> Next = Schedule.next()) {
      const size_t I = *Next;
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
      Schedule.done(I);
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
