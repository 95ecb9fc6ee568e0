//===--- ParallelRun.cpp - clang-tidy over many files, N at a time --------===//

#include "tool/driver/run/ParallelRun.h"

#include <algorithm>
#include "tool/driver/report/Findings.h"
#include "tool/driver/config/CudaCompilationDatabase.h"

#include "tool/driver/config/HeaderPairing.h"
#include "tool/driver/support/MemoryBudget.h"
#include "tool/driver/config/NvccSpellingRepair.h"
#include "tool/driver/report/Reporters.h"
#include "tool/driver/run/PerArchFindings.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <condition_variable>
#include <deque>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <pthread.h>
#include <unistd.h>
#include <tuple>

namespace clang::tidy::cuda::driver {

FileSchedule::FileSchedule(std::vector<std::vector<size_t>> Plan) {
  for (std::vector<size_t> &Files : Plan)
    if (!Files.empty())
      Groups.push_back(Group{std::move(Files)});
}

FileSchedule::FileSchedule(std::vector<std::vector<size_t>> First,
                           PlanAfter Second)
    : FileSchedule(std::move(First)) {
  for (const Group &G : Groups)
    FirstLeft += G.Files.size();
  if (FirstLeft)
    Then = std::move(Second);
  else if (Second) // nothing to wait for
    for (std::vector<size_t> &Files : Second())
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
  // The first step's last files still run: the second's plan waits for them.
  return Then ? Step::Wait : Step::Finished;
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
    // Every call before the second step is about a file of the first (it
    // leads no group of the second, even when it leads one there).
    if (Then) {
      if (--FirstLeft == 0) {
        PlanAfter Next = std::move(Then);
        Then = nullptr;
        Groups.clear();
        for (std::vector<size_t> &Files : Next())
          if (!Files.empty())
            Groups.push_back(Group{std::move(Files)});
      }
      File = SIZE_MAX;
    }
  }
  preambleReady(File);
}

void FileSchedule::preambleReady(size_t File) {
  {
    std::scoped_lock Lock(Mutex);
    for (Group &G : Groups)
      if (!G.Ready && G.Files.front() == File)
        G.Ready = true;
  }
  Changed.notify_all();
}

namespace {

/// The error a parse gets for a file that is not a regular one; clang
/// prints its message at the #include ("cannot open file 'x': ...").
class NotRegularFileCategory : public std::error_category {
public:
  const char *name() const noexcept override { return "cuda-tidy"; }
  std::string message(int) const override {
    return "not a regular file (a FIFO or a device would block or never "
           "end the parse)";
  }
};

std::error_code notRegularFile() {
  static const NotRegularFileCategory Category;
  return {1, Category};
}

/// A thread started without ending the process when it cannot be: llvm::thread
/// reports a failed pthread_create as a fatal error (issue 38 G3: under
/// `ulimit -v`, the worker that replaced an abandoned one could not get its
/// stack, and the run aborted with every file's findings).
class WorkerThread {
public:
  /// 0, or pthread_create's error.
  int start(std::function<void()> Body, size_t StackBytes) {
    auto Owned = std::make_unique<std::function<void()>>(std::move(Body));
    pthread_attr_t Attr;
    if (int Error = ::pthread_attr_init(&Attr))
      return Error;
    int Error = ::pthread_attr_setstacksize(&Attr, StackBytes);
    if (!Error)
      Error = ::pthread_create(&Handle, &Attr, &WorkerThread::entry,
                               Owned.get());
    ::pthread_attr_destroy(&Attr);
    if (!Error)
      (void)Owned.release(); // the thread's now
    return Error;
  }
  void join() const { ::pthread_join(Handle, nullptr); }
  void detach() const { ::pthread_detach(Handle); }

private:
  static void *entry(void *Arg) {
    std::unique_ptr<std::function<void()>> Body(
        static_cast<std::function<void()> *>(Arg));
    (*Body)();
    return nullptr;
  }
  pthread_t Handle{};
};

/// A file whose contents are always read into memory the process owns,
/// never mapped (issue 38 G4). clang maps a large file, so the bytes it lexes
/// and the bytes --fix's snapshot hashes (issue 16 F3) were the file on disk
/// at each moment: an edit in place during the run, same size, went unseen
/// and the fixes landed at stale offsets, and a file truncated under the
/// mapping ended the whole process with SIGBUS. A copy is what the parse
/// read, once; the snapshot then differs from the file on disk and the fix
/// is refused ("changed since it was analyzed").
class OwnedBufferFile : public llvm::vfs::File {
public:
  explicit OwnedBufferFile(std::unique_ptr<llvm::vfs::File> Inner)
      : Inner(std::move(Inner)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override {
    return Inner->status();
  }
  llvm::ErrorOr<std::string> getName() override { return Inner->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
  getBuffer(const llvm::Twine &Name, int64_t FileSize,
            bool /*RequiresNullTerminator*/, bool /*IsVolatile*/) override {
    // MemoryBuffer::getOpenFile reads a volatile file that must end in a
    // null byte; it maps any other (the extra byte is not in the buffer).
    return Inner->getBuffer(Name, FileSize, /*RequiresNullTerminator=*/true,
                            /*IsVolatile=*/true);
  }
  std::error_code close() override { return Inner->close(); }

protected:
  void setPath(const llvm::Twine &Path) override {
    if (auto Renamed = File::getWithPath(std::move(Inner), Path))
      Inner = std::move(*Renamed);
  }

private:
  std::unique_ptr<llvm::vfs::File> Inner;
};

/// Opens regular files only. clang reads an #include'd FIFO until a writer
/// closes it, that is forever, and a device such as /dev/zero never ends
/// (issue 16 F12); status() does not open the file, so it cannot block.
/// What it opens is read into owned memory (OwnedBufferFile).
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override {
    using llvm::sys::fs::file_type;
    llvm::ErrorOr<llvm::vfs::Status> Status = status(Path);
    if (Status && (Status->getType() == file_type::fifo_file ||
                   Status->getType() == file_type::character_file ||
                   Status->getType() == file_type::block_file ||
                   Status->getType() == file_type::socket_file))
      return notRegularFile();
    auto Opened = ProxyFileSystem::openFileForRead(Path);
    if (!Opened)
      return Opened;
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<OwnedBufferFile>(std::move(*Opened)));
  }
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
workerFileSystem(llvm::StringRef WorkingDir) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS(
      llvm::makeIntrusiveRefCnt<RegularFilesOnly>(
          llvm::vfs::createPhysicalFileSystem()));
  if (!WorkingDir.empty())
    (void)FS->setCurrentWorkingDirectory(WorkingDir); // else the process's
  return FS;
}

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> Absolute(Path);
  if (!llvm::sys::path::is_absolute(Absolute) && !Base.empty())
    llvm::sys::path::make_absolute(Base, Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
  return Absolute.str().str();
}

static void addStats(ClangTidyStats &Sum, const ClangTidyStats &S) {
  Sum.ErrorsDisplayed += S.ErrorsDisplayed;
  Sum.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
  Sum.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
  Sum.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
  Sum.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
}

bool planEachAlone(size_t Answered, size_t Parsed) {
  return Parsed <= 1 || (Answered > 0 && Parsed <= MaxPlannedAlone);
}

std::string errorFileIdentity(const ClangTidyError &Error) {
  if (Error.Message.FilePath.empty())
    return {};
  return fileIdentity(Error.Message.FilePath, Error.BuildDirectory);
}

bool isCompilerError(const ClangTidyError &Error) {
  return Error.DiagLevel == ClangTidyError::Error &&
         llvm::StringRef(Error.DiagnosticName).starts_with("clang-diagnostic-");
}

namespace {

/// A file's options, with the header it stands in for always reported: the
/// user named that header, as if it were the main file.
class FocusedOptionsProvider : public ClangTidyOptionsProvider {
public:
  FocusedOptionsProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner,
                         llvm::StringRef Header)
      : Inner(std::move(Inner)) {
    Focus.HeaderFilterRegex =
        "(^|/)" + llvm::Regex::escape(llvm::sys::path::filename(Header)) + "$";
    Focus.ExcludeHeaderFilterRegex = "";
  }
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(FileName);
    Sources.emplace_back(Focus, "the header named on the command line");
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
  ClangTidyOptions Focus;
};

/// A configuration's ExtraArgs and ExtraArgsBefore pass through
/// sanitizeCompileArguments too: a repository's .clang-tidy must not make
/// the compiler write files (issue 16 F11) or nest deeper than the stack
/// holds (F7).
class SafeArgsOptionsProvider : public ClangTidyOptionsProvider {
public:
  explicit SafeArgsOptionsProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner)
      : Inner(std::move(Inner)) {}
  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Inner->getGlobalOptions();
  }
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(FileName);
    for (OptionsSource &Source : Sources)
      for (std::optional<std::vector<std::string>> *Args :
           {&Source.first.ExtraArgs, &Source.first.ExtraArgsBefore}) {
        if (!*Args || (*Args)->empty())
          continue;
        std::vector<std::string> Checked = {"clang"};
        llvm::append_range(Checked, **Args);
        warnSanitizedArguments("in ExtraArgs of " + Source.second,
                               sanitizeCompileArguments(Checked,
                                                        /*FromBuild=*/false));
        (*Args)->assign(Checked.begin() + 1, Checked.end());
      }
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
};

} // namespace

RunResult runFiles(const std::vector<std::string> &GivenFiles,
                   const tooling::CompilationDatabase &Compilations,
                   const OptionsProviderFactory &MakeOptions,
                   const RunSettings &Settings) {
  const RunCaches *Caches = Settings.Caches;
  // The process's working folder, read once here, before any worker runs.
  // Each worker's file system has a working folder of its own, starting
  // there: clang's ClangTool enters a compile command's "directory" by
  // setting its file system's working folder, and on the process-wide real
  // file system that is a chdir(), which moved the other workers' relative
  // paths to another folder mid-run (issue 15). Nothing in a worker changes
  // the process's working folder, and every file is named absolutely before
  // the workers start.
  llvm::SmallString<256> StartDir;
  if (llvm::sys::fs::current_path(StartDir))
    StartDir.clear();
  std::vector<std::string> Files;
  Files.reserve(GivenFiles.size());
  for (const std::string &Given : GivenFiles)
    Files.push_back(absolutePath(Given, StartDir));
  std::vector<std::string> FocusIds(Files.size());
  for (size_t I = 0; I < Settings.FocusHeaders.size() && I < Files.size(); ++I)
    if (!Settings.FocusHeaders[I].empty())
      FocusIds[I] = fileIdentity(Settings.FocusHeaders[I], StartDir);
  // The order files are analyzed in; findings are still kept by input
  // position. The preamble cache groups files that share a preamble, so
  // each lives in memory only while its group runs.
  std::vector<std::vector<size_t>> Plan;
  // With a result cache, every file is first asked of it alone (RunCaches::
  // ResultOnly), and the preambles are planned over the files it did not
  // answer: those are what the run parses. In a warm run after an edit
  // that is one file (or a few), and it is planned as a run of it alone
  // would be: it builds the preamble of all its include lines, user headers
  // included, which the next run of it alone (an editor, a pre-commit hook)
  // finds in the folder. Planned with the files the cache answered, it
  // got the shorter preamble they share, which that run does not use.
  const bool Probe = Caches && Caches->Preambles && Caches->Results &&
                     !Caches->TimeChecks && Files.size() > 1;
  std::mutex ProbeMutex;
  std::vector<char> NeedsParse(Files.size(), 0); // under ProbeMutex
  size_t Answered = 0;                           // under ProbeMutex
  auto PlanParses = [&] {
    std::vector<size_t> Parsed;
    size_t Replayed = 0;
    {
      std::scoped_lock Lock(ProbeMutex);
      for (size_t I = 0; I < Files.size(); ++I)
        if (NeedsParse[I])
          Parsed.push_back(I);
      Replayed = Answered;
    }
    std::vector<std::string> Names;
    Names.reserve(Parsed.size());
    for (size_t I : Parsed)
      Names.push_back(Files[I]);
    std::vector<std::vector<size_t>> Groups = Caches->Preambles->planRun(
        Names, /*EachAlone=*/planEachAlone(Replayed, Parsed.size()),
        /*Relint=*/Replayed > 0);
    for (std::vector<size_t> &Group : Groups)
      for (size_t &Position : Group)
        Position = Parsed[Position];
    return Groups;
  };
  if (Caches && Caches->Preambles && !Probe) {
    Plan = Caches->Preambles->planRun(Files);
  } else {
    for (size_t I = 0; I < Files.size(); ++I)
      Plan.push_back({I});
  }
  FileSchedule Schedule(std::move(Plan), Probe ? FileSchedule::PlanAfter(
                                                     PlanParses)
                                               : FileSchedule::PlanAfter());
  std::vector<std::vector<ClangTidyError>> PerFile(Files.size());
  std::vector<ClangTidyStats> StatsPerFile(Files.size());
  std::vector<char> Finished(Files.size(), 0);
  std::vector<char> Failed(Files.size(), 0);
  std::vector<std::vector<std::string>> NotesPerFile(Files.size());

  RunResult Result;
  std::mutex ResultMutex;
  size_t Done = 0;
  size_t NextToReport = 0;
  // A header included by several files yields the same finding once per
  // file; it is reported once, where the first file in input order saw it.
  // The header is the same file under every spelling (`../include/h.cuh`,
  // `-Iinclude` and `h.cuh`, a symlinked folder): by identity, not by name.
  std::set<std::tuple<std::string, std::string, unsigned, std::string>> Seen;
  // Under ResultMutex: moves every finished file at the front of the input
  // order into the result, and reports it.
  auto ReportReadyFiles = [&] {
    for (; NextToReport < Files.size() && Finished[NextToReport];
         ++NextToReport) {
      const size_t I = NextToReport;
      addStats(Result.Stats, StatsPerFile[I]);
      const size_t First = Result.Errors.size();
      for (ClangTidyError &Error : PerFile[I])
        if (Seen.emplace(Error.DiagnosticName, errorFileIdentity(Error),
                         Error.Message.FileOffset, Error.Message.Message)
                .second)
          Result.Errors.push_back(std::move(Error));
      PerFile[I].clear();
      if (!NotesPerFile[I].empty()) {
        if (Settings.FileNotes) {
          Settings.FileNotes(I, NotesPerFile[I]);
        } else {
          std::string Lines;
          for (const std::string &Note : NotesPerFile[I])
            Lines += "cuda-tidy: note: " + escapeForTerminal(Note) + "\n";
          llvm::errs() << Lines; // one write
        }
      }
      if (Settings.FileDone)
        Settings.FileDone(I, llvm::ArrayRef(Result.Errors).drop_front(First),
                          Failed[I] != 0);
      else if (Failed[I])
        // One write: a line other threads cannot split.
        llvm::errs() << ("Error while processing " + escapeForTerminal(Files[I]) +
                         ".\n");
    }
  };

  // The time limit's bookkeeping, on the heap: a timed-out file's thread
  // reads it after this function may have returned.
  struct Watch {
    std::mutex Mutex;
    std::vector<char> Running, Abandoned;
    std::vector<std::chrono::steady_clock::time_point> Started;
    std::vector<unsigned> ThreadOf;   ///< Per file.
    std::vector<char> ThreadAbandoned; ///< Per thread.
    /// Per file: what its thread allocated (MemoryBudget.h). Made before
    /// any worker runs; a thread stopped over the limit uses its account
    /// until the process ends.
    std::vector<std::unique_ptr<MemoryAccount>> Memory;
    /// What the abandoned files' threads may hold for good: the sum of
    /// their limits (issue 38 G3).
    std::uint64_t HeldByAbandoned = 0;
    size_t Completed = 0;
    /// Signalled when a file completes, so that the watch ends as soon as
    /// the last one does rather than at its next poll (a single edited
    /// file's re-lint is 0.1 to 0.2 s: a 20 ms poll was a tenth of it).
    std::condition_variable CompletedChanged;
  };
  auto Watched = std::make_shared<Watch>();
  Watched->Running.assign(Files.size(), 0);
  Watched->Abandoned.assign(Files.size(), 0);
  Watched->Started.resize(Files.size());
  Watched->ThreadOf.assign(Files.size(), 0);
  const bool LimitMemory =
      Settings.FileMemoryLimitBytes > 0 && memoryBudgetEnforced();
  // Crash recovery (llvm::CrashRecoveryContext), enabled once per process:
  // a signal in a worker's parse costs that file, not the run. Not in a
  // sanitizer build, whose runtime reports the crash itself.
  static const bool RecoverFromCrashes = [] {
    if (!memoryBudgetEnforced())
      return false;
    llvm::CrashRecoveryContext::Enable();
    return true;
  }();
  // Every file's analysis together stays within the process's budget too:
  // the running files (up to -j of them, each to its own limit) as well as
  // what abandoned ones keep (issue 38 G3). A file whose allocation would
  // pass it stops as at its own limit.
  if (LimitMemory && Settings.ProcessMemoryBudgetBytes)
    setProcessMemoryLimit(static_cast<std::int64_t>(std::min<std::uint64_t>(
        Settings.ProcessMemoryBudgetBytes, INT64_MAX)));
  if (LimitMemory)
    for (size_t I = 0; I < Files.size(); ++I) {
      Watched->Memory.push_back(std::make_unique<MemoryAccount>());
      Watched->Memory.back()->Limit =
          static_cast<std::int64_t>(std::min<std::uint64_t>(
              Settings.FileMemoryLimitBytes, INT64_MAX));
    }

  // A file that failed with no findings: \p Message printed (one write, a
  // line other threads cannot split) and the file counted in \p Counter.
  auto FailFile = [&](size_t I, const std::string &Message,
                      unsigned &Counter) {
    std::scoped_lock Lock(ResultMutex);
    llvm::errs() << Message;
    PerFile[I].clear();
    Finished[I] = 1;
    Failed[I] = 1;
    ++Counter;
    ReportReadyFiles();
    if (Settings.Progress)
      Settings.Progress(++Done, Result.Errors.size());
  };
  // A file never started: failed with no findings, and why.
  auto NotAnalyzed = [&](size_t I, const std::string &Why) {
    {
      std::scoped_lock Lock(Watched->Mutex);
      ++Watched->Completed;
    }
    Watched->CompletedChanged.notify_all();
    Schedule.done(I);
    FailFile(I,
             "cuda-tidy: error: '" + escapeForTerminal(Files[I]) +
                 "' was not analyzed: " + Why + "\n",
             Result.NotStarted);
  };
  // The least a file is started with under the process's memory budget: an
  // ordinary file with the CUDA headers holds 100 to 200 MB.
  constexpr std::uint64_t MinFileMemoryBytes = 256ULL << 20;

  auto Worker = [&, Watched](unsigned Thread) {
    while (std::optional<size_t> Next = Schedule.next()) {
      const size_t I = *Next;
      // What the files abandoned over the limits still hold counts against
      // the process's budget (issue 38 G3): each file may take what is
      // left, up to its own limit; with too little left it is not started.
      std::uint64_t Left = UINT64_MAX;
      {
        std::scoped_lock Lock(Watched->Mutex);
        if (LimitMemory && Settings.ProcessMemoryBudgetBytes) {
          const std::uint64_t Budget = Settings.ProcessMemoryBudgetBytes;
          Left = Budget > Watched->HeldByAbandoned
                     ? Budget - Watched->HeldByAbandoned
                     : 0;
          Watched->Memory[I]->Limit = static_cast<std::int64_t>(std::min<
              std::uint64_t>({Settings.FileMemoryLimitBytes, Left,
                              static_cast<std::uint64_t>(INT64_MAX)}));
        }
        if (Left >= MinFileMemoryBytes) {
          Watched->Running[I] = 1;
          Watched->Started[I] = std::chrono::steady_clock::now();
          Watched->ThreadOf[I] = Thread;
        }
      }
      if (Left < MinFileMemoryBytes) {
        NotAnalyzed(
            I, "the files abandoned over --file-memory-limit or "
               "--file-time-limit may hold " +
                   std::to_string(
                       (Settings.ProcessMemoryBudgetBytes - Left) >> 20) +
                   " MiB until the run ends, which leaves less than " +
                   std::to_string(MinFileMemoryBytes >> 20) +
                   " MiB of the process's budget of " +
                   std::to_string(Settings.ProcessMemoryBudgetBytes >> 20) +
                   " MiB");
        continue;
      }
      // Its own copy: the run's list may be gone when a timed-out file
      // returns.
      // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
      const std::string File = Files[I];
      // Each parse of the file gets a context of its own: a repaired parse
      // (below) must not see the first one's diagnostics.
      auto MakeFileOptions = [&] {
        std::unique_ptr<ClangTidyOptionsProvider> Options = MakeOptions();
        if (Options)
          Options =
              std::make_unique<SafeArgsOptionsProvider>(std::move(Options));
        if (!FocusIds[I].empty() && Options)
          Options = std::make_unique<FocusedOptionsProvider>(
              std::move(Options), Settings.FocusHeaders[I]);
        return Options;
      };
      // Only the file's own analysis is counted; what the run does with
      // its results afterwards is not.
      MemoryAccount *Account = LimitMemory ? Watched->Memory[I].get() : nullptr;
      // The signal that ended the file's last parse (crash recovery), or 0.
      int CrashSignal = 0;
      // One parse and analysis of the file over \p FS; false when the file
      // was abandoned meanwhile (then nothing of the run may be touched).
      auto Analyze = [&](const llvm::IntrusiveRefCntPtr<
                             llvm::vfs::OverlayFileSystem> &FS,
                         const RunCaches *With, FileRun &Run) {
        auto Parse = [&] {
          ClangTidyContext Context(MakeFileOptions(), false, false, false);
          setThreadMemoryAccount(Account);
          if (With) {
            Run = runFileWithCaches(Context, Compilations, File, FS,
                                    Settings.FixNotes, *With);
          } else {
            Run.Errors = runClangTidy(Context, Compilations, {File}, FS,
                                      Settings.FixNotes, false, "",
                                      /*Quiet=*/true);
            Run.Stats = Context.getStats();
          }
          // Headers named as a PCH names them (Findings.h), in both ways,
          // and the findings in the order of those names (issue 38 G11;
          // runFileWithCaches did both for each command).
          absoluteFileNames(Run.Errors);
          if (!With)
            sortAsClangTidy(Run.Errors);
        };
        if (RecoverFromCrashes) {
          // A crash in the compiler (a bug, or input it was never meant
          // to see) costs this file only: the parse is left where it
          // stopped, its memory with it, and the worker goes on.
          llvm::CrashRecoveryContext Recovery;
          if (!Recovery.RunSafely(Parse)) {
            CrashSignal = Recovery.RetCode > 128 ? Recovery.RetCode - 128
                                                 : Recovery.RetCode;
            Run = FileRun();
          }
        } else {
          Parse();
        }
        setThreadMemoryAccount(nullptr);
        std::scoped_lock Lock(Watched->Mutex);
        return !Watched->Abandoned[I];
      };
      // A crashed file: reported by name with no findings. What its parse
      // held stays allocated until the process ends, as an abandoned
      // file's does, and counts against the process's budget. A crash
      // while the worker held a lock the others take cannot be recovered
      // from: the run ends, as it would have without recovery.
      auto Crashed = [&] {
        if (memoryStopDeferredOnThisThread()) {
          llvm::errs() << ("cuda-tidy: error: the compiler crashed (" +
                           std::string(strsignal(CrashSignal)) +
                           ") while analysing '" + escapeForTerminal(File) +
                           "' and holding a lock of the run; the run "
                           "cannot go on\n");
          llvm::errs().flush();
          ::_exit(128 + CrashSignal);
        }
        {
          std::scoped_lock Lock(Watched->Mutex);
          Watched->Running[I] = 0;
          ++Watched->Completed;
          if (LimitMemory)
            Watched->HeldByAbandoned += static_cast<std::uint64_t>(std::max<
                std::int64_t>(0, Watched->Memory[I]->Bytes.load()));
        }
        Watched->CompletedChanged.notify_all();
        Schedule.done(I);
        FailFile(I,
                 "cuda-tidy: error: the compiler crashed (" +
                     std::string(strsignal(CrashSignal)) +
                     ") while analysing '" + escapeForTerminal(File) +
                     "'; it has no findings\n",
                 Result.Crashed);
      };
      FileRun Run;
      // The files that share this one's preamble may start as soon as it
      // has it: waiting for the whole file left the other workers idle
      // for as long as a group's first file ran.
      std::optional<RunCaches> WithSignal;
      // The first step (Probe): the file only asked of the result cache.
      bool Probing = false;
      bool Probed = false; // the second step, for a file the cache missed
      if (Probe) {
        std::scoped_lock Lock(ProbeMutex);
        Probed = NeedsParse[I] != 0;
        Probing = !Probed;
      }
      if (Caches) {
        WithSignal.emplace(*Caches);
        WithSignal->ResultOnly = Probing;
        WithSignal->ResultLookedUp = Probed;
        // Under the watch's lock, and only while the file is not
        // abandoned: an abandoned worker may outlive the run's schedule.
        WithSignal->PreambleAcquired = [&Schedule, Watched, I] {
          std::scoped_lock Lock(Watched->Mutex);
          if (!Watched->Abandoned[I])
            Schedule.preambleReady(I);
        };
      }
      if (!Analyze(llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
                       workerFileSystem(StartDir)),
                   WithSignal ? &*WithSignal : nullptr, Run))
        return; // reported as timed out; nothing of the run is touched
      if (CrashSignal) {
        Crashed();
        continue;
      }
      if (Run.NeedsParse) {
        // Its turn comes in the second step, with its preamble planned.
        {
          std::scoped_lock Lock(Watched->Mutex);
          Watched->Running[I] = 0;
        }
        {
          std::scoped_lock Lock(ProbeMutex);
          NeedsParse[I] = 1;
        }
        Schedule.done(I);
        continue;
      }
      if (Probing) {
        std::scoped_lock Lock(ProbeMutex);
        ++Answered;
      }
      if (Caches && Settings.Snapshots)
        for (const auto &[Path, Hash] : Run.UserFilesRead)
          Settings.Snapshots->recordParsed(Path, Hash);
      // nvcc spellings clang rejects (NvccSpellingRepair.h): the file is
      // parsed again with them rewritten in memory, the same length, so
      // every finding keeps its place. A repair can uncover the next error
      // (clang stops an asm statement at its first), hence a few rounds.
      // The snapshots above keep the bytes on disk, which --fix edits. The
      // reference run (no caches: clang-tidy's own runClangTidy) repairs
      // nothing: it is plain clang-tidy, and has printed clang's "Error
      // while processing" line already.
      // The notes printed with the file: the repairs, then the functions no
      // check analyzed.
      std::vector<std::string> Repairs;
      if (Settings.RepairNvccSpellings && Caches) {
        std::map<std::string, std::string> Repaired;
        for (unsigned Round = 0; Round < 3; ++Round) {
          llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Disk =
              workerFileSystem(StartDir);
          RepairPlan Plan = planSpellingRepairs(Run.Errors, *Disk, Repaired);
          if (Plan.empty())
            break;
          for (auto &[Path, Text] : Plan.Files)
            Repaired[Path] = std::move(Text);
          llvm::append_range(Repairs, Plan.Notes);
          // No preamble: one built from repaired headers must not serve
          // another file's parse of the bytes on disk. No result either:
          // the entry of the bytes on disk is the failed parse's (kept since
          // issue 39), which would answer again, and one of the repaired
          // bytes could never be asked for.
          RunCaches NoPreamble = *Caches;
          NoPreamble.Preambles = nullptr;
          NoPreamble.Results = nullptr;
          FileRun Again;
          if (!Analyze(repairedFileSystem(Disk, Repaired), &NoPreamble, Again))
            return;
          if (CrashSignal)
            break; // reported below, after the repair rounds
          Run.Errors = std::move(Again.Errors);
          Run.Stats = Again.Stats;
          Run.Failed = Again.Failed;
          Run.FunctionsNotAnalyzed = std::move(Again.FunctionsNotAnalyzed);
        }
      }
      if (CrashSignal) {
        Crashed();
        continue;
      }
      llvm::append_range(Repairs, Run.FunctionsNotAnalyzed);
      std::vector<ClangTidyError> Errors = std::move(Run.Errors);
      ClangTidyStats Stats = Run.Stats;
      const bool FileFailed = Run.Failed;
      {
        std::scoped_lock Lock(Watched->Mutex);
        Watched->Running[I] = 0;
        ++Watched->Completed;
      }
      Watched->CompletedChanged.notify_all();
      if (!FocusIds[I].empty()) {
        llvm::erase_if(Errors, [&](const ClangTidyError &Error) {
          return !isCompilerError(Error) &&
                 errorFileIdentity(Error) != FocusIds[I];
        });
        // What the stand-in file's run suppressed is about that file, not
        // about the header the user named.
        Stats = ClangTidyStats();
      }
      Schedule.done(I);
      std::scoped_lock Lock(ResultMutex);
      PerFile[I] = std::move(Errors);
      StatsPerFile[I] = Stats;
      NotesPerFile[I] = std::move(Repairs);
      Finished[I] = 1;
      Failed[I] = FileFailed ? 1 : 0;
      ReportReadyFiles();
      if (Settings.Progress)
        Settings.Progress(++Done, Result.Errors.size());
    }
  };
  // Every worker, -j 1 included, runs on a thread with a large stack: the
  // AST matchers recurse once per nesting level, and 2,000 nested
  // parentheses overflow the default 8 MB (clang-tidy itself crashes there).
  // Only touched pages are committed, so the reservation costs nothing.
  constexpr unsigned WorkerStackBytes = 512u << 20;
  const unsigned Jobs = std::max(
      1u, std::min<unsigned>(Settings.Jobs, static_cast<unsigned>(Files.size())));
  // (A deque: a started thread's handle never moves.)
  std::deque<WorkerThread> Threads;
  // Starts a worker; when none can be started and none is left running,
  // the files not started yet are failed by name instead.
  auto Start = [&] {
    const unsigned Thread = Threads.size();
    {
      std::scoped_lock Lock(Watched->Mutex);
      Watched->ThreadAbandoned.push_back(0);
    }
    Threads.emplace_back();
    // A smaller stack if the large one cannot be reserved (an address-space
    // limit): deep nesting may then overflow it, most files do not.
    int Error = 0;
    for (size_t Stack :
         {static_cast<size_t>(WorkerStackBytes), static_cast<size_t>(64) << 20}) {
      Error = Threads.back().start([Worker, Thread] { Worker(Thread); }, Stack);
      if (Error == 0)
        return;
    }
    Threads.pop_back();
    bool AnyLeft = false;
    {
      std::scoped_lock Lock(Watched->Mutex);
      Watched->ThreadAbandoned.pop_back();
      AnyLeft = llvm::is_contained(Watched->ThreadAbandoned, 0);
    }
    if (AnyLeft)
      return; // the workers left take the files
    const std::string Why =
        std::string("no worker thread could be started (") +
        std::strerror(Error) + ")";
    while (std::optional<size_t> Next = Schedule.next())
      NotAnalyzed(*Next, Why);
  };
  for (unsigned J = 0; J < Jobs; ++J)
    Start();
  if (Settings.FileTimeLimitSeconds > 0 || LimitMemory) {
    const auto Limit = std::chrono::duration<double>(Settings.FileTimeLimitSeconds);
    for (;;) {
      std::vector<std::pair<size_t, bool>> Late; // file, over memory
      {
        std::unique_lock Lock(Watched->Mutex);
        // The limits are checked every 20 ms, or at once when the last
        // file completes.
        Watched->CompletedChanged.wait_for(
            Lock, std::chrono::milliseconds(20),
            [&] { return Watched->Completed == Files.size(); });
        if (Watched->Completed == Files.size())
          break;
        const auto Now = std::chrono::steady_clock::now();
        for (size_t I = 0; I < Files.size(); ++I) {
          if (!Watched->Running[I])
            continue;
          const bool OverMemory =
              LimitMemory &&
              Watched->Memory[I]->Exceeded.load(std::memory_order_acquire);
          if (OverMemory || (Settings.FileTimeLimitSeconds > 0 &&
                             Now - Watched->Started[I] > Limit)) {
            Watched->Running[I] = 0;
            Watched->Abandoned[I] = 1;
            // A thread stopped over memory keeps what it holds now (its
            // limit, or less when the process's bound stopped it first);
            // one over time goes on, up to its limit.
            if (LimitMemory)
              Watched->HeldByAbandoned += static_cast<std::uint64_t>(
                  OverMemory
                      ? std::clamp<std::int64_t>(
                            Watched->Memory[I]->Bytes.load(), 0,
                            Watched->Memory[I]->Limit)
                      : Watched->Memory[I]->Limit);
            Watched->ThreadAbandoned[Watched->ThreadOf[I]] = 1;
            ++Watched->Completed;
            Late.emplace_back(I, OverMemory);
          }
        }
      }
      for (const auto &[I, OverMemory] : Late) {
        // Its group's other files need not wait for it (its preamble, if it
        // was building one, is never finished: they parse without it).
        Schedule.done(I);
        std::string Message;
        llvm::raw_string_ostream OS(Message);
        if (OverMemory && Watched->Memory[I]->OverProcessLimit.load())
          OS << "cuda-tidy: error: '" << escapeForTerminal(Files[I])
             << "' needed more memory than the run's budget of "
             << Settings.ProcessMemoryBudgetBytes / (1024ULL * 1024)
             << " MiB left it (the files being analyzed and those abandoned "
                "hold the rest); its analysis was abandoned and it has no "
                "findings\n";
        else if (OverMemory)
          OS << "cuda-tidy: error: '" << escapeForTerminal(Files[I])
             << "' needed more than "
             // Its own limit: less than the flag's where the process's
             // budget had less left (issue 38 G3).
             << static_cast<std::uint64_t>(Watched->Memory[I]->Limit) /
                    (1024ULL * 1024)
             << " MiB of memory (--file-memory-limit); its analysis was "
                "abandoned and it has no findings\n";
        else
          OS << "cuda-tidy: error: '" << escapeForTerminal(Files[I])
             << "' took longer than "
             << llvm::format("%g", Settings.FileTimeLimitSeconds)
             << " s (--file-time-limit); its analysis was abandoned and it "
                "has no findings\n";
        FailFile(I, Message, OverMemory ? Result.OverMemory : Result.TimedOut);
        Start(); // the other files keep their workers
      }
    }
  }
  for (unsigned J = 0; J < Threads.size(); ++J) {
    bool Left;
    {
      std::scoped_lock Lock(Watched->Mutex);
      Left = Watched->ThreadAbandoned[J];
    }
    if (Left) {
      Threads[J].detach();
      ++Result.LeftRunning;
    } else {
      Threads[J].join();
    }
  }
  return Result;
}

} // namespace clang::tidy::cuda::driver
