//===--- RunOptions.cpp - the configuration of a run ----------------------===//
//
// The first step of a run (StandaloneRun.h): the configuration
// (.cuda-tidy.yaml, .clang-tidy, --config) and the checks it enables, with
// --list-checks, --dump-config and --verify-config; `--cache-stats` alone.
//
//===----------------------------------------------------------------------===//

#include "tool/standalone/StandaloneRun.h"

namespace cuda_tidy_standalone {

namespace {

/// Why a file cannot be written at \p Path (through a temporary file in its
/// folder and a rename, as llvm::writeToOutput does), or none: checked
/// before any analysis (issue 37 §3). "-" is standard output.
std::optional<std::string> whyNotWritable(llvm::StringRef Path) {
  if (Path == "-")
    return std::nullopt;
  if (llvm::sys::fs::is_directory(Path))
    return "it is a directory";
  llvm::SmallString<256> Absolute(Path);
  (void)llvm::sys::fs::make_absolute(Absolute);
  llvm::StringRef Folder = llvm::sys::path::parent_path(Absolute);
  if (Folder.empty())
    Folder = "/";
  if (!llvm::sys::fs::is_directory(Folder))
    return ("its folder '" + Folder + "' does not exist").str();
  if (llvm::sys::fs::access(Folder, llvm::sys::fs::AccessMode::Write))
    return ("its folder '" + Folder + "' is not writable").str();
  return std::nullopt;
}

} // namespace

/// The cache folder's listing (printListing), for `cuda-tidy --cache-stats`
/// with no input: exit 0, or 2 when there is no folder to list.
int StandaloneRun::listCacheFolder() const {
  if (NoCache) {
    error("--cache-stats with --no-cache and no input: there is no folder "
          "to list");
    return ExitUsageError;
  }
  std::string Folder = CacheDir.empty() ? defaultCacheDirectory() : CacheDir;
  if (Folder.empty()) {
    error("--cache-stats: no cache folder (set --cache-dir, XDG_CACHE_HOME "
          "or HOME)");
    return ExitUsageError;
  }
  llvm::Expected<std::unique_ptr<CacheStore>> Store = CacheStore::open(Folder);
  if (!Store) {
    error("--cache-stats: " + llvm::toString(Store.takeError()));
    return ExitUsageError;
  }
  (*Store)->setMaxBytes(CacheBudget);
  llvm::outs() << "cuda-tidy: cache: folder " << (*Store)->directory()
               << "\n";
  printListing((*Store)->listing(), CacheBudget, llvm::outs());
  return ExitSuccess;
}

/// The configuration (.cuda-tidy.yaml, .clang-tidy, --config) and the
/// checks it enables; --list-checks and --dump-config end the run here.
StandaloneRun::Stop StandaloneRun::readOptions() {
  // --cuda-gpu-arch=sm_80,sm_90: each element checked before anything runs.
  llvm::Expected<std::vector<std::string>> Archs = parseGpuArchList(GpuArch);
  if (!Archs) {
    error(llvm::toString(Archs.takeError()));
    return ExitUsageError;
  }
  GpuArchs = std::move(*Archs);
  if (FileTimeLimit < 0) {
    error("--file-time-limit must be a number of seconds, 0 for none");
    return ExitUsageError;
  }
  // The cache's budget: the flag, else the environment (CI sets it once for
  // every job), else the default.
  if (CacheMaxSize.getNumOccurrences()) {
    llvm::Expected<uint64_t> Bytes = parseByteSize(CacheMaxSize);
    if (!Bytes) {
      error("--cache-max-size: " + llvm::toString(Bytes.takeError()));
      return ExitUsageError;
    }
    CacheBudget = *Bytes;
  } else if (std::optional<std::string> FromEnv =
                 llvm::sys::Process::GetEnv("CUDA_TIDY_CACHE_MAX_SIZE")) {
    llvm::Expected<uint64_t> Bytes = parseByteSize(*FromEnv);
    if (!Bytes) {
      error("CUDA_TIDY_CACHE_MAX_SIZE: " + llvm::toString(Bytes.takeError()));
      return ExitUsageError;
    }
    CacheBudget = *Bytes;
  }
  if (Format == OutputFormat::Html && OutputFile.empty()) {
    error("--format=html writes a folder of pages: name it with "
          "--output=DIR");
    return ExitUsageError;
  }
  // The text report is printed as each file finishes, to standard output
  // and standard error together as clang-tidy prints it; --output with it
  // was ignored without a word (issue 38 G14).
  if (Format == OutputFormat::Text && OutputFile.getNumOccurrences()) {
    error("--output needs a machine format (--format=json, sarif, github, "
          "rdjson, codequality, junit or html); the text report goes to "
          "standard output: redirect it");
    return ExitUsageError;
  }
  // Before any file is analyzed: a report, baseline or fixes file that
  // cannot be written would fail the run once the work is done (exit 2).
  for (const auto &[Flag, Path] :
       {std::pair{"--output", &OutputFile},
        std::pair{"--write-baseline", &WriteBaseline},
        std::pair{"--export-fixes", &ExportFixes}}) {
    if (Path->empty() || (Format == OutputFormat::Html && Path == &OutputFile))
      continue;
    if (std::optional<std::string> Why = whyNotWritable(*Path)) {
      error(llvm::Twine("cannot write '") + escapeForTerminal(*Path) +
            "': " + escapeForTerminal(*Why) + " (" + Flag + ")");
      return ExitUsageError;
    }
  }
  // Before any file is analyzed: a folder the report may not take (the
  // project's own index.html, a file, report.html) costs no analysis.
  if (Format == OutputFormat::Html)
    if (llvm::Error E = checkHtmlReportFolder(OutputFile)) {
      error("--format=html --output=" + escapeForTerminal(OutputFile) + ": " +
            escapeForTerminal(llvm::toString(std::move(E))));
      return ExitUsageError;
    }

  // .cuda-tidy.yaml, the nearest one above the first input (or here).
  {
    llvm::SmallString<256> Start(".");
    if (namesSources())
      Start = llvm::sys::path::parent_path(SourcePaths.front());
    if (Start.empty())
      Start = ".";
    (void)llvm::sys::fs::make_absolute(Start);
    llvm::sys::path::remove_dots(Start, true);
    auto Found = findProjectConfig(Start);
    if (!Found) {
      error(llvm::toString(Found.takeError()));
      return ExitUsageError;
    }
    ProjectSettings = std::move(*Found);
    if (ProjectSettings) {
      ProjectCheckOptions = ProjectSettings->checkOptions();
      ProjectChecks = ProjectSettings->Checks;
      if (Baseline.empty() && !ProjectSettings->Baseline.empty()) {
        llvm::SmallString<256> B(
            llvm::sys::path::parent_path(ProjectSettings->Path));
        llvm::sys::path::append(B, ProjectSettings->Baseline);
        if (llvm::sys::fs::exists(B))
          Baseline = std::string(B);
      }
    }
  }

  std::unique_ptr<ClangTidyOptionsProvider> OptionsProvider =
      createOptionsProvider();
  if (!OptionsProvider)
    return ExitUsageError;

  // A broken .clang-tidy stops the run (clang-tidy would warn and go on
  // without it); so does a clang-tidy-config diagnostic after it.
  // --verify-config checks the command line's configuration too.
  unsigned ConfigProblems = 0;
  {
    ChecksAndOptions Known = getAllChecksAndOptions(false, false);
    std::vector<std::string> Where;
    if (namesSources())
      Where.assign(SourcePaths.begin(), SourcePaths.end());
    if (Where.empty())
      Where.emplace_back("dummy.cu");
    if (validateClangTidyFiles(Where, Known.Checks, Known.Options,
                               llvm::errs()))
      return ExitUsageError;
    if (VerifyConfig)
      ConfigProblems = verifyCommandLineConfig(Known);
  }

  llvm::SmallString<256> FirstFile(namesSources() ? SourcePaths.front()
                                                 : std::string("dummy.cu"));
  (void)llvm::sys::fs::make_absolute(FirstFile);
  ClangTidyOptions Effective = OptionsProvider->getOptions(FirstFile);
  std::vector<std::string> EnabledChecks = getCheckNames(Effective, false, false);

  if (ListChecks) {
    llvm::outs() << "Enabled checks:";
    for (const std::string &Name : EnabledChecks)
      llvm::outs() << "\n    " << Name;
    llvm::outs() << "\n\n";
    return ExitSuccess;
  }
  if (DumpConfig) {
    const ClangTidyOptions::OptionMap Configured = Effective.CheckOptions;
    Effective.CheckOptions = getCheckOptions(Effective, false, false);
    ClangTidyOptions ToDump = ClangTidyOptions::getDefaults().merge(Effective, 0);
    filterCheckOptions(ToDump, EnabledChecks);
    // Global options (no check prefix) are read by the shared analysis;
    // clang-tidy's filter drops them, so they are put back.
    for (const auto &[Key, Value] : Configured)
      if (!llvm::StringRef(Key).contains('.'))
        ToDump.CheckOptions.insert_or_assign(Key, Value);
    llvm::outs() << configurationAsText(ToDump) << "\n";
    return ExitSuccess;
  }
  // A header filter that is no regex matches nothing, and would hide every
  // header's findings with exit 0 (issue 16 F15).
  for (const auto &[Name, Value] :
       {std::pair{"--header-filter / HeaderFilterRegex",
                  Effective.HeaderFilterRegex},
        std::pair{"--exclude-header-filter / ExcludeHeaderFilterRegex",
                  Effective.ExcludeHeaderFilterRegex}}) {
    std::string Problem;
    if (Value && !Value->empty() && !llvm::Regex(*Value).isValid(Problem)) {
      error("invalid regular expression '" + *Value + "' in " + Name + ": " +
            Problem);
      return ExitUsageError;
    }
  }
  if (SourceFilter.getNumOccurrences()) {
    std::string Problem;
    SourceFilterRegex.emplace(SourceFilter);
    if (!SourceFilterRegex->isValid(Problem)) {
      error("invalid regular expression '" + SourceFilter +
            "' in --source-filter: " + Problem);
      return ExitUsageError;
    }
  }
  if (VerifyConfig && ConfigProblems)
    return ExitUsageError;
  if (EnabledChecks.empty() && AllowNoChecks) {
    // clang-tidy 22's words and status: a project that turns every check
    // off on purpose (a folder's .clang-tidy) is not an error.
    llvm::outs() << "No checks enabled.\n";
    return ExitSuccess;
  }
  if (EnabledChecks.empty()) {
    // Most often a .clang-tidy written for clang-tidy's own checks
    // (`Checks: '-*,bugprone-*'`): name the file and the key that turned
    // cuda-tidy's checks off, the last source that sets Checks.
    std::string Source;
    std::string Value;
    for (const auto &[Options, From] : OptionsProvider->getRawOptions(FirstFile))
      if (Options.Checks) {
        Source = From;
        Value = *Options.Checks;
      }
    llvm::raw_ostream &Error =
        llvm::WithColor::error(llvm::errs(), "cuda-tidy");
    Error << "no checks enabled";
    if (!Source.empty())
      Error << ": 'Checks: " << Value << "' in " << Source
            << " turns every cuda-* check off";
    Error << "; cuda-tidy runs only its own checks (--list-checks): add "
             "'cuda-*' there, pass --checks='cuda-*', or set 'checks: "
             "\"cuda-*\"' in .cuda-tidy.yaml, which cuda-tidy reads over "
             ".clang-tidy\n";
    return ExitUsageError;
  }
  if (VerifyConfig) {
    // clang-tidy 22's words; its exit status for a problem is 1, which is
    // cuda-tidy's for findings, so a problem here is 2 (above).
    llvm::outs() << "No config errors detected.\n";
    return ExitSuccess;
  }
  return std::nullopt;
}

/// --verify-config: what the command line configures, checked as a
/// .clang-tidy file is (unknown cuda-* checks and options, malformed YAML).
/// Returns the number of problems printed.
unsigned StandaloneRun::verifyCommandLineConfig(const ChecksAndOptions &Known) {
  unsigned Problems = 0;
  if (!Config.empty())
    Problems += validateClangTidyConfig(Config, "--config", Known.Checks,
                                        Known.Options, llvm::errs());
  if (ConfigFile.getNumOccurrences()) {
    if (auto Text = readInputFile(ConfigFile, ConfigFileMaxBytes))
      Problems += validateClangTidyConfig((*Text)->getBuffer(), ConfigFile,
                                          Known.Checks, Known.Options,
                                          llvm::errs());
    else
      llvm::consumeError(Text.takeError()); // reported when it was read
  }
  // The globs, as a configuration's Checks (quoted for YAML).
  for (const auto &[Flag, Globs] :
       {std::pair{llvm::StringRef("--checks"), &Checks},
        std::pair{llvm::StringRef("--warnings-as-errors"), &WarningsAsErrors}})
    if (Globs->getNumOccurrences()) {
      std::string Quoted;
      for (const char C : Globs->getValue())
        Quoted += C == '\'' ? std::string("''") : std::string(1, C);
      Problems += validateClangTidyConfig("Checks: '" + Quoted + "'", Flag,
                                          Known.Checks, Known.Options,
                                          llvm::errs());
    }
  return Problems;
}

} // namespace cuda_tidy_standalone
