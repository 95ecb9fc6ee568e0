//===--- ParallelRun.h - clang-tidy over many files, N at a time ----------===//
//
// Each file runs in its own ClangTidyContext, on one of N worker threads, and
// its findings are kept by input position, so the output order never depends
// on which worker finished first.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PARALLELRUN_H
#define CUDA_TIDY_TOOL_DRIVER_PARALLELRUN_H

#include "tool/driver/report/FixApplier.h"
#include "tool/driver/run/TidyRunner.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

namespace clang::tidy::cuda::driver {

struct RunResult {
  std::vector<ClangTidyError> Errors; ///< In input order, duplicates removed.
  ClangTidyStats Stats;               ///< Summed over the files.
  /// Files that went past RunSettings::FileTimeLimitSeconds.
  unsigned TimedOut = 0;
  /// Files whose analysis went past RunSettings::FileMemoryLimitBytes.
  unsigned OverMemory = 0;
  /// Files never started: too little was left of
  /// RunSettings::ProcessMemoryBudgetBytes, or no worker thread could be
  /// started (issue 38 G3).
  unsigned NotStarted = 0;
  /// Files whose analysis crashed the compiler (a signal in the worker),
  /// recovered: reported by name with no findings, the others go on.
  unsigned Crashed = 0;
  /// Threads of timed-out (or over-memory) files still running, or stopped
  /// for good, when the run returned.
  unsigned LeftRunning = 0;
};

/// Hands the files of a run to its workers, group by group (a group: the
/// files that start from one preamble, PreambleCache::planRun). The first
/// file of a group builds the preamble; the group's other files wait until
/// it is done, and meanwhile an idle worker starts another group or a file
/// of a group that is ready. (Parsing a waiting file without its preamble
/// instead, as cuda-tidy once did, kept the worker busy but doubled that
/// file's cost: 35% more CPU for -j 2 over the benchmark corpus.) A
/// worker waits only when every file left waits for a preamble being built.
///
/// A schedule may come in two steps: \p First, then, once every file of it
/// is done, the plan \p Second returns (called once, under the schedule's
/// lock, by whoever finishes First's last file; the workers wait meanwhile).
/// runFiles asks the result cache about every file first and plans the
/// preambles of the files it did not answer only (PreambleCache::planRun).
class FileSchedule {
public:
  explicit FileSchedule(std::vector<std::vector<size_t>> Plan);
  using PlanAfter = std::function<std::vector<std::vector<size_t>>()>;
  FileSchedule(std::vector<std::vector<size_t>> First, PlanAfter Second);

  enum class Step { Run, Wait, Finished };
  /// What a worker does next, without blocking; with Run, \p File is set.
  Step tryNext(size_t &File);
  /// The next file to run, waiting while none is ready; none when all
  /// have been handed out.
  std::optional<size_t> next();
  /// Says file \p File is done: when it led its group, the group's other
  /// files may run.
  void done(size_t File);
  /// Says file \p File has its preamble (it is in memory, or there is
  /// none to wait for): when it led its group, the group's other files may
  /// run while it is still being analyzed. done() implies it.
  void preambleReady(size_t File);

private:
  Step tryNextLocked(size_t &File);

  struct Group {
    std::vector<size_t> Files;
    size_t Handed = 0;  ///< Files handed out so far (the leader first).
    bool Ready = false; ///< The leader has its preamble, or is done.
  };
  std::vector<Group> Groups;
  /// The second step's plan, until First is done; First's files not done.
  PlanAfter Then;
  size_t FirstLeft = 0;
  std::mutex Mutex;
  std::condition_variable Changed;
};

/// A real file system with a working folder of its own (\p WorkingDir;
/// empty: the process's at the time of the call). Setting its working
/// folder never changes the process's, unlike llvm::vfs::getRealFileSystem()
/// whose setCurrentWorkingDirectory is a chdir() shared by every thread.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
workerFileSystem(llvm::StringRef WorkingDir);

/// \p Path made absolute against \p Base (when relative and \p Base is
/// set), without "." components.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base);

/// Makes the options provider for one file's context (each context owns
/// its provider).
using OptionsProviderFactory =
    std::function<std::unique_ptr<ClangTidyOptionsProvider>()>;

/// How runFiles runs.
struct RunSettings {
  unsigned Jobs = 1;
  bool FixNotes = false;
  /// With caches, files run through runFileWithCaches (preamble and result
  /// caches, --time-checks), else through clang-tidy's runClangTidy.
  const RunCaches *Caches = nullptr;
  /// Per file (empty, or as many as files): a header the file stands in
  /// for (HeaderPairing.h). Only the findings located in that header are
  /// kept, with the file's compiler errors, and the header's findings are
  /// not hidden by the header filter.
  std::vector<std::string> FocusHeaders;
  /// Called with each file's findings (those not already reported for an
  /// earlier file), in input order, as soon as the file and every file
  /// before it are done: from a worker thread, under a lock. \p Failed: a
  /// compile command failed, and clang's "Error while processing" line is
  /// the callback's to print (runs through clang-tidy's runClangTidy, with
  /// no caches, print it themselves).
  std::function<void(size_t File, llvm::ArrayRef<ClangTidyError> New,
                     bool Failed)>
      FileDone;
  /// Rewrite in memory, and parse again, a file whose errors are nvcc
  /// spellings clang rejects (NvccSpellingRepair.h); only with caches (the
  /// reference run is plain clang-tidy). Off with --no-nvcc-compat.
  bool RepairNvccSpellings = true;
  /// Called, before FileDone, with a file's notes ("path:line:column:
  /// what" each): the nvcc spellings repaired, then the functions no check
  /// analyzed because they do not compile (FileRun::FunctionsNotAnalyzed);
  /// from a worker thread under the same lock. Unset, they are printed to
  /// stderr as "cuda-tidy: note:" lines.
  std::function<void(size_t File, llvm::ArrayRef<std::string> Notes)>
      FileNotes;
  /// Called after each file with (files done, findings so far), from a
  /// worker thread under the same lock, after FileDone.
  std::function<void(size_t, size_t)> Progress;
  /// If set, told the bytes each parse read of the user's files (FileRun::
  /// UserFilesRead), for --fix.
  FileSnapshots *Snapshots = nullptr;
  /// Seconds one file may take (0: no limit; --file-time-limit, issue 16
  /// F10). A file past it is reported as failed with no findings, and a new
  /// worker takes its place, so the other files still run. Its thread cannot
  /// be stopped: it is left running, touches nothing of the run once its
  /// file returns, and the process must end with _exit (RunResult::
  /// LeftRunning) rather than destroy what that thread may still use.
  double FileTimeLimitSeconds = 0;
  /// Bytes one file's analysis may hold from the allocator (0: no limit;
  /// --file-memory-limit, issue 16 F6; MemoryBudget.h). A file past it is
  /// stopped at that allocation and reported as failed with no findings,
  /// and a new worker takes its place, as for the time limit.
  std::uint64_t FileMemoryLimitBytes = 0;
  /// What the files abandoned over either limit may hold together (0: no
  /// bound; processMemoryBudgetBytes()). Their threads keep what they hold
  /// until the process ends; a file starts with the limit that is left, and
  /// with less than 256 MiB left is not started (issue 38 G3).
  std::uint64_t ProcessMemoryBudgetBytes = 0;
};

/// Runs the enabled checks on every file. Relative names are made absolute
/// against the working folder before any worker starts.
RunResult runFiles(const std::vector<std::string> &Files,
                   const tooling::CompilationDatabase &Compilations,
                   const OptionsProviderFactory &MakeOptions,
                   const RunSettings &Settings);

/// Whether the files a run parses are planned each as a run of it alone
/// would plan it (PreambleCache::planRun's EachAlone: the preamble of all
/// its include lines, user headers included, kept for the next run of it
/// alone): one file, or up to MaxPlannedAlone when the result cache
/// answered the run's other files (\p Answered of them), as after an edit.
/// More files than that share the preambles of their common first lines.
constexpr size_t MaxPlannedAlone = 4;
bool planEachAlone(size_t Answered, size_t Parsed);

/// The identity of the file an error is located in (HeaderPairing.h's
/// fileIdentity, relative names resolved against the build folder the
/// error was found in). Equal for every spelling of one file.
std::string errorFileIdentity(const ClangTidyError &Error);

/// True for a compiler error (not a finding): it says the file could not
/// be analyzed.
bool isCompilerError(const ClangTidyError &Error);

} // namespace clang::tidy::cuda::driver

#endif
