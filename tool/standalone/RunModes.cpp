//===--- RunModes.cpp - what a run analyzes -------------------------------===//
//
// The middle steps of a run (StandaloneRun.h): the files and the commands
// each is parsed with, or the index folders of --join-index; the gates
// (baseline, diff) read before anything is parsed; the analysis.
//
//===----------------------------------------------------------------------===//

#include "tool/standalone/StandaloneRun.h"

#ifndef CUDA_TIDY_CLANG_RESOURCE_DIR
#define CUDA_TIDY_CLANG_RESOURCE_DIR ""
#endif
#ifndef CUDA_TIDY_BUNDLED_RESOURCE_DIR
#define CUDA_TIDY_BUNDLED_RESOURCE_DIR ""
#endif

namespace cuda_tidy_standalone {

namespace {

/// Why \p Path, which is not a regular file, cannot be analyzed: what
/// stat() says (a symlink loop, a permission, no such file), or that it is
/// something else than a file.
std::string whyNotAFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    if (EC == std::errc::no_such_file_or_directory)
      return "no such file";
    return EC.message();
  }
  return llvm::sys::fs::is_directory(Status) ? "a directory"
                                             : "not a regular file";
}

} // namespace

/// Which files are analyzed, each with the commands it is parsed with.
/// --export-compile-commands ends the run here, with those commands written.
StandaloneRun::Stop StandaloneRun::planFiles() {
  // Made before the files are chosen: a shard with no file still leaves
  // its (empty) folder for the join.
  if (!IndexDir.empty()) {
    llvm::Expected<std::string> Prepared = prepareIndexFolder(IndexDir);
    if (!Prepared) {
      error("--index-dir: " + llvm::toString(Prepared.takeError()));
      return ExitUsageError;
    }
    IndexFolder = std::move(*Prepared);
  }
  if (Stop Code = selectFiles())
    return Code;
  if (Stop Code = configureCommands())
    return Code;

  // A missing file is reported here, by name, and the rest still run.
  for (const std::string &Path : SourcePaths)
    planInput(Path);

  if (!ExportCompileCommands.empty()) {
    llvm::Expected<size_t> Written =
        exportCompileCommands(*Compilations, Analyzed, ExportCompileCommands);
    if (!Written) {
      error("--export-compile-commands: " +
            llvm::toString(Written.takeError()));
      return ExitUsageError;
    }
    llvm::errs() << "cuda-tidy: wrote " << *Written << " compile command"
                 << (*Written == 1 ? "" : "s") << " to "
                 << ExportCompileCommands << "/compile_commands.json\n";
    return AnalysisFailed ? ExitAnalysisFailed : ExitSuccess;
  }
  if (llvm::sys::fs::current_path(Root))
    Root = ".";
  return std::nullopt;
}

/// The inputs: the files named, or with -p and none named every CUDA file
/// of the database; then --source-filter and --shard.
StandaloneRun::Stop StandaloneRun::selectFiles() {
  InputsNamed = !SourcePaths.empty();
  if (SourcePaths.empty() && !BuildPath.empty()) {
    auto Loaded = loadProjectDatabase("");
    if (!Loaded) {
      error(llvm::toString(Loaded.takeError()));
      return ExitUsageError;
    }
    std::vector<std::string> All = (*Loaded)->getAllFiles();
    llvm::sort(All);
    for (const std::string &File : All)
      if (isCudaSourcePath(File) ||
          llvm::any_of((*Loaded)->getCompileCommands(File),
                       [](const tooling::CompileCommand &C) {
                         return clang::tidy::cuda::compdb::isNvccCommand(C.CommandLine) ||
                                llvm::is_contained(C.CommandLine, "cuda");
                       }))
        SourcePaths.push_back(File);
  }
  // --source-filter: the files (named, or the database's) whose absolute
  // path matches, as run-clang-tidy selects them.
  if (SourceFilterRegex && !SourcePaths.empty()) {
    const size_t Before = SourcePaths.size();
    std::vector<std::string> Kept;
    for (const std::string &Path : SourcePaths) {
      llvm::SmallString<256> Absolute(Path);
      (void)llvm::sys::fs::make_absolute(Absolute);
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
      if (SourceFilterRegex->match(Absolute))
        Kept.push_back(Path);
    }
    SourcePaths.clear();
    for (std::string &Path : Kept)
      SourcePaths.push_back(Path);
    if (SourcePaths.empty()) {
      error("no input files: --source-filter '" + SourceFilter +
            "' matches none of the files (" +
            countOf(static_cast<unsigned>(Before), "file") + ")");
      return ExitUsageError;
    }
  }
  if (SourcePaths.empty()) {
    error("no input files (usage: cuda-tidy [options] <file>... [-- "
          "<compile flags>])");
    return ExitUsageError;
  }
  if (!Shard.empty()) {
    unsigned K = 0;
    unsigned N = 0;
    auto [KText, NText] = llvm::StringRef(Shard).split('/');
    if (KText.getAsInteger(10, K) || NText.getAsInteger(10, N) || N == 0 ||
        K == 0 || K > N) {
      error("--shard takes K/N with 1 <= K <= N, not '" + Shard + "'");
      return ExitUsageError;
    }
    // Shares are taken over the sorted list, so every job agrees on them
    // whatever order the files were given in.
    std::vector<std::string> Sorted(SourcePaths.begin(), SourcePaths.end());
    llvm::sort(Sorted);
    std::set<std::string> Mine;
    for (size_t I = K - 1; I < Sorted.size(); I += N)
      Mine.insert(Sorted[I]);
    std::vector<std::string> Kept;
    for (const std::string &Path : SourcePaths)
      if (Mine.count(Path))
        Kept.push_back(Path);
    SourcePaths.clear();
    for (std::string &Path : Kept)
      SourcePaths.push_back(Path);
    if (SourcePaths.empty())
      return ExitSuccess;
  }
  return std::nullopt;
}

/// The toolkit, the nvcc-compatibility layer, the architectures and the
/// database (or the flags after `--`) every file's commands come from.
StandaloneRun::Stop StandaloneRun::configureCommands() {
  CommandSettings Settings;
  Settings.Toolkit = findCudaToolkit(toolkitSearchFromEnvironment(CudaPath));
  if (!Settings.Toolkit) {
    if (!CudaPath.empty()) {
      error("--cuda-path '" + CudaPath +
            "' is not a CUDA toolkit (no include/cuda.h there)");
      return ExitUsageError;
    }
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << "no CUDA toolkit found (looked at CUDA_PATH, nvcc on PATH, "
           "/usr/local/cuda); point at one with --cuda-path=<dir> or "
           "CUDA_PATH\n";
  }
  Settings.Pass = Pass;
  Settings.GpuArchs = std::move(GpuArchs);
  Settings.GpuArchExplicit = GpuArch.getNumOccurrences() > 0;
  // --extra-arg=--cuda-gpu-arch=X (or --offload-arch=X), clang-tidy's way
  // to pick the arch, is cuda-tidy's --cuda-gpu-arch=X: it replaces the
  // compile command's arch instead of adding a second one that the
  // analysis never sees (issue 37 §3). cuda-tidy's own flag wins.
  std::vector<std::string> ArchesFromExtraArgs;
  for (const std::vector<std::string> *Extra : {&ExtraArgs, &ExtraArgsBefore})
    for (const std::string &Arg : *Extra)
      for (llvm::StringRef Prefix : {"--cuda-gpu-arch=", "--offload-arch="})
        if (llvm::StringRef(Arg).starts_with(Prefix))
          ArchesFromExtraArgs.push_back(Arg.substr(Prefix.size()));
  auto NamesArch = [](const std::string &Arg) {
    return llvm::StringRef(Arg).starts_with("--cuda-gpu-arch=") ||
           llvm::StringRef(Arg).starts_with("--offload-arch=");
  };
  if (!ArchesFromExtraArgs.empty() && Settings.GpuArchExplicit) {
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << "--cuda-gpu-arch=" << GpuArch << " wins over the arch that "
        << "--extra-arg names (" << llvm::join(ArchesFromExtraArgs, ",")
        << ")\n";
  } else if (!ArchesFromExtraArgs.empty()) {
    llvm::Expected<std::vector<std::string>> Archs =
        parseGpuArchList(llvm::join(ArchesFromExtraArgs, ","));
    if (!Archs) {
      error("--extra-arg: " + llvm::toString(Archs.takeError()));
      return ExitUsageError;
    }
    Settings.GpuArchs = std::move(*Archs);
    Settings.GpuArchExplicit = true;
  }
  Settings.ResourceDir = findClangResourceDir(
      Executable, CUDA_TIDY_BUNDLED_RESOURCE_DIR, CUDA_TIDY_CLANG_RESOURCE_DIR);
  if (!NoNvccCompat) {
    NvccCompat Compat =
        findNvccCompat(Executable, CUDA_TIDY_COMPAT_HEADER, Settings.ResourceDir);
    if (Compat.Header.empty())
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << "the nvcc-compatibility header is missing (looked beside the "
             "binary in ../share/cuda-tidy and at '"
          << CUDA_TIDY_COMPAT_HEADER
          << "'); code that relies on nvcc's headers may not parse\n";
    Settings.CompatHeader = std::move(Compat.Header);
    Settings.HostCompilerIncludeDir = std::move(Compat.HostCompilerIncludeDir);
  }
  llvm::copy_if(ExtraArgs, std::back_inserter(Settings.ExtraArgs),
                [&](const std::string &A) { return !NamesArch(A); });
  llvm::copy_if(ExtraArgsBefore, std::back_inserter(Settings.ExtraArgsBefore),
                [&](const std::string &A) { return !NamesArch(A); });

  std::unique_ptr<tooling::CompilationDatabase> Project;
  if (FlagsAfterDoubleDash) {
    Settings.FallbackFlags = *FlagsAfterDoubleDash;
  } else {
    auto Loaded = loadProjectDatabase(SourcePaths.front());
    if (!Loaded) {
      error(llvm::toString(Loaded.takeError()));
      return ExitUsageError;
    }
    Project = std::move(*Loaded);
  }
  Compilations = std::make_unique<CudaCompilationDatabase>(std::move(Project),
                                                           std::move(Settings));
  return std::nullopt;
}

/// One input into the plan, or, when it cannot be analyzed, an error naming
/// it (the other inputs still run).
void StandaloneRun::planInput(const std::string &Path) {
  // clang's tooling makes every input name native (llvm::sys::path::
  // native), which on POSIX turns a lone '\' into '/': `a\b.cu` would be
  // parsed as `a/b.cu`, another file or none. Refused by name instead.
  if (llvm::StringRef(Path).contains('\\') &&
      !llvm::sys::path::is_style_windows(llvm::sys::path::Style::native)) {
    error("cannot analyze '" + escapeForTerminal(Path) +
          "': clang reads a backslash in a file name as a folder "
          "separator; rename the file");
    AnalysisFailed = true;
    return;
  }
  if (ProjectSettings) {
    llvm::SmallString<256> Absolute(Path);
    (void)llvm::sys::fs::make_absolute(Absolute);
    llvm::sys::path::remove_dots(Absolute, true);
    if (ProjectSettings->isExcluded(Absolute)) {
      // A file named on the command line is not dropped without a word
      // (issue 37 §3); the database's files, with -p alone, are.
      if (InputsNamed)
        llvm::WithColor::note(llvm::errs(), "cuda-tidy")
            << "'" << escapeForTerminal(Path)
            << "' is not analyzed: 'exclude:' in "
            << escapeForTerminal(ProjectSettings->Path) << " names it\n";
      return;
    }
  }
  if (!llvm::sys::fs::is_regular_file(Path)) {
    error("cannot analyze '" + escapeForTerminal(Path) +
          "': " + whyNotAFile(Path));
    AnalysisFailed = true;
    return;
  }
  llvm::SmallString<256> WorkingDir;
  if (llvm::sys::fs::current_path(WorkingDir))
    WorkingDir.clear();
  // Named absolutely from here on: clang's database matches absolute names
  // only (a relative one always got an inferred command), and the workers
  // never resolve a name against a working folder.
  const std::string File = absolutePath(Path, WorkingDir);
  std::string Through = File;
  // A CUDA header goes through a CUDA includer only: through a C++ one it
  // would be parsed as C++ (issue 37); with none, the compile database
  // gives it a CUDA command of its own.
  if (Compilations->project() && isHeaderPath(File) &&
      !Compilations->hasProjectCommand(File))
    if (std::optional<std::string> Including = findIncludingFile(
            *Compilations, File, /*CudaIncluderOnly=*/isCudaHeader(File)))
      Through = *Including;
  // clang's tool aborts the whole process when it cannot enter a command's
  // directory; refuse that one file instead.
  for (const tooling::CompileCommand &Command :
       Compilations->getCompileCommands(Through))
    if (!llvm::sys::fs::is_directory(Command.Directory)) {
      error("cannot analyze '" + escapeForTerminal(Path) +
            "': the directory of its compile command, '" +
            escapeForTerminal(Command.Directory) + "', does not exist");
      AnalysisFailed = true;
      return;
    }
  Inputs.push_back(File);
  Analyzed.push_back(Through);
  FocusHeaders.push_back(Through == File ? "" : File);
}

/// The baseline and the diff that findings must pass.
StandaloneRun::Stop StandaloneRun::readGates() {
  if (!Baseline.empty()) {
    auto Read = readBaseline(Baseline);
    if (!Read) {
      error(llvm::toString(Read.takeError()));
      return ExitUsageError;
    }
    BaselineFingerprints = std::move(*Read);
  }
  if (!Diff.empty()) {
    std::string DiffText;
    std::string DiffRoot = Root.str().str();
    if (Diff == "-") {
      auto Stdin = llvm::MemoryBuffer::getSTDIN();
      if (!Stdin) {
        error("cannot read a diff from standard input");
        return ExitUsageError;
      }
      DiffText = (*Stdin)->getBuffer().str();
      // Nothing changed, or the command that was to write the diff failed
      // (`git diff bad-ref | cuda-tidy --diff=-` without pipefail): the two
      // look alike here, and the second would pass the gate with every
      // finding hidden (issue 38 G17). Not an error, but never silent.
      if (llvm::StringRef(DiffText).trim().empty())
        llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
            << "--diff=-: the diff on standard input is empty, so every "
               "finding is on an unchanged line; if the command that writes "
               "it can fail, run the pipeline with 'set -o pipefail'\n";
    } else {
      auto FromGit = gitDiffAgainst(Diff, Root);
      if (!FromGit) {
        error("--diff=" + Diff + ": " + llvm::toString(FromGit.takeError()));
        return ExitUsageError;
      }
      std::tie(DiffText, DiffRoot) = std::move(*FromGit);
    }
    auto Parsed = ChangedLines::fromUnifiedDiff(DiffText, DiffRoot);
    if (!Parsed) {
      error("--diff: " + llvm::toString(Parsed.takeError()));
      return ExitUsageError;
    }
    Changed = std::move(*Parsed);
  }
  return std::nullopt;
}

/// Every planned file parsed and checked by the workers; then the
/// cross-file findings. Each file's findings pass the gates as it finishes.
void StandaloneRun::analyze() {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  // A progress line for people watching a terminal; never in pipes or logs.
  ShowProgress =
      Inputs.size() > 1 && llvm::sys::Process::StandardErrIsDisplayed();
  for (const std::string &Input : Inputs)
    Snapshots.record(Input);
  // Preambles and results (docs/performance.md).
  Cache = std::make_unique<CacheSession>(!NoCache, CacheDir, !NoPreamble,
                                         TimeChecks, CacheBudget);
  if (!Cache->problem().empty())
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << Cache->problem() << "\n";
  prepareReporting();

  RunSettings HowToRun;
  HowToRun.Jobs = Jobs;
  HowToRun.FixNotes = FixNotes;
  HowToRun.Caches = Cache->caches();
  HowToRun.FocusHeaders = FocusHeaders;
  HowToRun.RepairNvccSpellings = !NoNvccCompat;
  HowToRun.FileNotes = [this](size_t, llvm::ArrayRef<std::string> Notes) {
    clearProgress();
    std::string Text;
    for (const std::string &Note : Notes)
      Text += "cuda-tidy: note: " + escapeForTerminal(Note) + "\n";
    llvm::errs() << Text; // one write
  };
  if (Fix || FixErrors || FixNotes)
    HowToRun.Snapshots = &Snapshots;
  if (ShowProgress)
    HowToRun.Progress = [this](size_t Done, size_t Found) {
      showProgress(Done, Found);
    };
  HowToRun.FileDone = [this](size_t I, llvm::ArrayRef<ClangTidyError> New,
                             bool Failed) {
    clearProgress();
    if (std::optional<std::string> From =
            Compilations->commandOrigin(Analyzed[I]))
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << "the compile database has no command for '"
          << escapeForTerminal(FocusHeaders[I].empty() ? Analyzed[I]
                                                       : FocusHeaders[I])
          << "'; analyzed with " << escapeForTerminal(*From) << "\n";
    admit(New);
    const bool DoesNotCompile =
        llvm::any_of(New, [](const ClangTidyError &E) {
          return E.DiagnosticName == "clang-diagnostic-error";
        });
    if (DoesNotCompile && CompileErrors == CompileErrorMode::Warn) {
      ++NotAnalyzed;
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << ("'" +
              escapeForTerminal(FocusHeaders[I].empty() ? Analyzed[I]
                                                        : FocusHeaders[I]) +
              "' was not analyzed in full: it does not compile (the "
              "functions that do were analyzed); --compile-errors=warn "
              "does not fail the run\n");
    } else if (Failed) {
      // One write: a line other threads (a worker's clang diagnostics, the
      // time limit's watchdog) cannot split.
      llvm::errs() << ("Error while processing " +
                       escapeForTerminal(Analyzed[I]) + ".\n");
    }
    llvm::errs().flush();
  };
  HowToRun.FileTimeLimitSeconds = FileTimeLimit;
  {
    const std::uint64_t MiB = FileMemoryLimit.getNumOccurrences()
                                  ? FileMemoryLimit.getValue()
                                  : defaultFileMemoryLimitMiB();
    HowToRun.FileMemoryLimitBytes = MiB * 1024ULL * 1024;
    if (MiB)
      HowToRun.ProcessMemoryBudgetBytes =
          processMemoryBudgetBytes(HowToRun.FileMemoryLimitBytes);
    if (MiB && FileMemoryLimit.getNumOccurrences() && !memoryBudgetEnforced())
      llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
          << "--file-memory-limit is not enforced in a sanitizer build\n";
  }
  Run = runFiles(
      Analyzed, *Compilations,
      [this] { return Index.withIndexOption(createOptionsProvider()); },
      HowToRun);
  AnalysisFailed |= Run.TimedOut > 0 || Run.OverMemory > 0 ||
                    Run.NotStarted > 0 || Run.Crashed > 0;
  Cache->finish(CacheStats);
  // The cross-file findings come once every file is done; with --index-dir
  // from the join instead, which sees every run's records.
  if (IndexFolder.empty()) {
    admit(Index.report(createOptionsProvider(), Run.Stats));
  } else if (llvm::Error E =
                 Index.exportTo(IndexFolder, Analyzed, CUDA_TIDY_VERSION)) {
    error("--index-dir: " + llvm::toString(std::move(E)));
    AnalysisFailed = true;
  }
  FoundCompilerErrors = llvm::any_of(
      Findings, [](const Finding &F) { return F.IsCompilerError; });
  AnalysisFailed |= FoundCompilerErrors &&
                    CompileErrors == CompileErrorMode::Fail;
}

/// The index folders named and the records in them; a record that cannot be
/// joined is named and skipped, and fails the run as a file that cannot be
/// analyzed does.
StandaloneRun::Stop StandaloneRun::planJoin() {
  if (!IndexDir.empty() || !Shard.empty()) {
    error("--join-index analyzes no file: it takes neither --index-dir nor "
          "--shard");
    return ExitUsageError;
  }
  if (SourcePaths.empty()) {
    error("--join-index: name the folders of launch records (cuda-tidy "
          "--join-index DIR...)");
    return ExitUsageError;
  }
  std::vector<std::string> Dirs(SourcePaths.begin(), SourcePaths.end());
  // Folders another user, or anyone, may write are not joined, as
  // --index-dir does not write to them (issue 38 G9: planted records added
  // or hid cross-file findings without a word).
  for (const std::string &Dir : Dirs)
    if (llvm::sys::fs::is_directory(Dir))
      if (llvm::Error E = checkIndexFolderOwner(Dir)) {
        error("--join-index: " + escapeForTerminal(llvm::toString(std::move(E))));
        return ExitUsageError;
      }
  llvm::Expected<IndexFolders> Read = readIndexFolders(Dirs, CUDA_TIDY_VERSION);
  if (!Read) {
    error(llvm::toString(Read.takeError()));
    return ExitUsageError;
  }
  for (const std::string &Why : Read->Skipped)
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << "--join-index: skipped " << escapeForTerminal(Why) << "\n";
  AnalysisFailed |= !Read->Skipped.empty();
  if (Read->MainFiles.empty() && Read->Skipped.empty())
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << "--join-index: no launch records in "
        << escapeForTerminal(llvm::join(Dirs, ", "))
        << "; nothing to join\n";
  Inputs = std::move(Read->MainFiles);
  JoinedRecords = std::move(Read->Records);
  if (llvm::sys::fs::current_path(Root))
    Root = ".";
  return std::nullopt;
}

/// The cross-file findings of the joined records, as a run reports them
/// (toClangTidyErrors reads each source's options and NOLINT comments).
void StandaloneRun::join() {
  prepareReporting();
  std::vector<std::string> Unplaced;
  admit(toClangTidyErrors(joinLaunchRecords(JoinedRecords),
                          createOptionsProvider(),
                          llvm::vfs::getRealFileSystem(), Run.Stats,
                          &Unplaced));
  for (const std::string &Why : Unplaced)
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << "--join-index: " << escapeForTerminal(Why) << "\n";
  AnalysisFailed |= !Unplaced.empty();
}

} // namespace cuda_tidy_standalone
