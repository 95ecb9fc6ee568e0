//===--- Options.cpp - the standalone's command line ----------------------===//
//
// The flags (Options.h), the options provider and the compile database.
//
//===----------------------------------------------------------------------===//

#include "tool/standalone/Options.h"

namespace cuda_tidy_standalone {

cl::OptionCategory Category("cuda-tidy options");

cl::list<std::string> SourcePaths(cl::Positional,
                                         cl::desc("<source0> [... <sourceN>]"),
                                         cl::cat(Category));
cl::opt<std::string>
    Checks("checks",
           cl::desc("Comma-separated globs of checks to run (default: "
                    "cuda-*); '-' removes, as in clang-tidy."),
           cl::cat(Category));
cl::opt<std::string>
    WarningsAsErrors("warnings-as-errors",
                     cl::desc("Globs of checks whose findings are errors "
                              "(exit code 1)."),
                     cl::cat(Category));
cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("Regex of headers whose findings are shown "
                          "(default: '.*', every header of the project)."),
                 cl::cat(Category));
cl::opt<std::string>
    ExcludeHeaderFilter("exclude-header-filter",
                        cl::desc("Regex of headers whose findings are hidden "
                                 "(default: the CUDA toolkit's and the "
                                 "system's include folders)."),
                        cl::cat(Category));
cl::opt<std::string> SourceFilter(
    "source-filter",
    cl::desc("Regex of the files to analyze, as run-clang-tidy's "
             "-source-filter: of the files named, or with -p and none named "
             "of every CUDA file in the compile database, only those whose "
             "absolute path it matches (anywhere in the path, as "
             "--header-filter)."),
    cl::value_desc("regex"), cl::cat(Category));
cl::opt<bool> SystemHeaders("system-headers",
                                   cl::desc("Show findings in system headers."),
                                   cl::cat(Category));
cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON, as in a .clang-tidy file; "
                    "it replaces the .clang-tidy files and .cuda-tidy.yaml's "
                    "checks. Empty, none (as in clang-tidy: Emacs's "
                    "flycheck-clang-tidy passes an empty one)."),
           cl::cat(Category));
cl::opt<std::string>
    ConfigFile("config-file",
               cl::desc("Read the configuration from this file."),
               cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes."),
                         cl::cat(Category));
cl::opt<bool>
    FixErrors("fix-errors",
              cl::desc("Apply fixes even if the file has compiler errors."),
              cl::cat(Category));
cl::opt<bool> FixNotes("fix-notes",
                              cl::desc("Also apply fixes attached to notes."),
                              cl::cat(Category));
cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("Write the suggested fixes to this YAML file, for "
                         "clang-apply-replacements."),
                cl::value_desc("filename"), cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit."),
                                cl::cat(Category));
cl::opt<bool> AllowNoChecks(
    "allow-no-checks",
    cl::desc("When the configuration enables no check, print \"No checks "
             "enabled.\" and exit 0 instead of failing (exit 2), as "
             "clang-tidy does."),
    cl::cat(Category));
cl::opt<bool> NoExplain(
    "no-explain",
    cl::desc("In the text format, do not print the note after each finding "
             "that says how to fix it and links the check's documentation."),
    cl::cat(Category));
cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration (.cuda-tidy.yaml, the .clang-tidy "
             "files, --config, --config-file, --checks, "
             "--warnings-as-errors) for unknown checks "
             "and options and malformed files, analyze nothing, and exit: 0 "
             "with \"No config errors detected.\", else 2, as clang-tidy "
             "22's flag (which exits 1)."),
    cl::cat(Category));
cl::opt<bool> DumpConfig("dump-config",
                                cl::desc("Print the effective configuration "
                                         "and exit."),
                                cl::cat(Category));
cl::opt<bool> Quiet("quiet",
                           cl::desc("Do not print statistics about "
                                    "suppressed findings."),
                           cl::cat(Category));
cl::opt<std::string> BuildPath(
    "p", cl::desc("Build folder holding compile_commands.json."),
    cl::cat(Category));
cl::list<std::string>
    ExtraArgs("extra-arg",
              cl::desc("Append this argument to every compile command."),
              cl::cat(Category));
cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Prepend this argument to every compile command."),
    cl::cat(Category));
cl::opt<std::string> LineFilter(
    "line-filter",
    cl::desc("JSON list of {name, lines} to limit findings, as in "
             "clang-tidy."),
    cl::cat(Category));
cl::opt<std::string>
    CudaPath("cuda-path", cl::desc("The CUDA toolkit to parse with."),
             cl::cat(Category));
cl::opt<std::string>
    GpuArch("cuda-gpu-arch",
            cl::desc("GPU arch to analyze the device side for, or a "
                     "comma-separated list (sm_80,sm_90: the device side is "
                     "analyzed once per arch and a finding several see is "
                     "reported once). Given, it replaces the compile "
                     "commands' architectures; else the highest a command "
                     "names, or sm_90."),
            cl::init(DefaultGpuArch.str()), cl::cat(Category));
cl::opt<CudaPass> Pass(
    "cuda-pass", cl::desc("Which side of a CUDA file to analyze."),
    cl::values(clEnumValN(CudaPass::Device, "device",
                          "device code (default)"),
               clEnumValN(CudaPass::Host, "host", "host code"),
               clEnumValN(CudaPass::Both, "both",
                          "both sides, for code under __CUDA_ARCH__ "
                          "conditionals (twice the parse; a finding both "
                          "see is reported once)")),
    cl::init(CudaPass::Device), cl::cat(Category));
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format."),
    cl::values(clEnumValN(OutputFormat::Text, "text",
                          "clang's diagnostics with source excerpts (default)"),
               clEnumValN(OutputFormat::Json, "json",
                          "JSON (docs/output-formats.md)"),
               clEnumValN(OutputFormat::Sarif, "sarif", "SARIF 2.1.0"),
               clEnumValN(OutputFormat::GitHub, "github",
                          "GitHub Actions annotations"),
               clEnumValN(OutputFormat::RdJson, "rdjson",
                          "reviewdog's diagnostic format (GitLab, Gerrit, "
                          "Bitbucket through reviewdog)"),
               clEnumValN(OutputFormat::CodeQuality, "codequality",
                          "GitLab Code Quality report"),
               clEnumValN(OutputFormat::JUnit, "junit",
                          "JUnit XML, a test case per file"),
               clEnumValN(OutputFormat::Html, "html",
                          "a static HTML report, written to the folder "
                          "--output names")),
    cl::init(OutputFormat::Text), cl::cat(Category));
cl::opt<std::string>
    OutputFile("output",
               cl::desc("Write the report of a machine format to this "
                        "file (written atomically) instead of standard "
                        "output; with --format=html, the folder of its "
                        "pages (new, empty, or an earlier report's). Not "
                        "with the text format (exit 2)."),
               cl::value_desc("filename"), cl::cat(Category));
cl::opt<CompileErrorMode> CompileErrors(
    "compile-errors",
    cl::desc("What a file clang cannot parse does to the run."),
    cl::values(
        clEnumValN(CompileErrorMode::Fail, "fail",
                   "exit 3, whatever --diff and --baseline hide (default)"),
        clEnumValN(CompileErrorMode::Warn, "warn",
                   "report the file as not analyzed (its errors at warning "
                   "level) and let the findings and the gates set the exit "
                   "code")),
    cl::init(CompileErrorMode::Fail), cl::cat(Category));
cl::opt<std::string> Baseline(
    "baseline",
    cl::desc("Hide findings recorded in this baseline file; only new ones "
             "are reported and gate the exit code."),
    cl::value_desc("filename"), cl::cat(Category));
cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Record every current finding in this baseline file."),
    cl::value_desc("filename"), cl::cat(Category));
cl::opt<std::string> Diff(
    "diff",
    cl::desc("Report only findings on lines changed since this git ref; "
             "'-' reads a unified diff from standard input."),
    cl::value_desc("git-ref|-"), cl::cat(Category));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("K/N: analyze only the K-th of N equal shares of the files "
             "(1 <= K <= N), to split a compile database over CI jobs."),
    cl::value_desc("K/N"), cl::cat(Category));
cl::opt<std::string> IndexDir(
    "index-dir",
    cl::desc("Write the per-file launch records of cuda-grid-sync-launch "
             "into this folder (made 0700; a file's new record replaces its "
             "old one) for a later --join-index, and report no cross-file "
             "finding here: the join reports them all, so shards, launcher "
             "calls or pre-commit runs plus the join find what one whole run "
             "finds."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> JoinIndex(
    "join-index",
    cl::desc("`cuda-tidy --join-index DIR...`: join the launch records that "
             "runs with --index-dir wrote into the folders named (not source "
             "files) and report the cross-file cuda-grid-sync-launch "
             "findings, with the formats, baselines, filters and gates of a "
             "run. The sources must be readable here, at the paths the runs "
             "saw. A missing folder is exit 2; a record skipped (malformed, "
             "another version, its source gone) exit 3."),
    cl::cat(Category));
cl::opt<unsigned>
    Jobs("j", cl::desc("Analyze this many files at once (default 1)."),
         cl::init(1), cl::Prefix, cl::cat(Category));
// A default, so that one hostile file (issue 16 F10: else-if chains that
// are quadratic in clang's own lookup) cannot hang a CI job: the slowest
// real file measured (docs/performance.md) takes seconds, not minutes.
cl::opt<double> FileTimeLimit(
    "file-time-limit",
    cl::desc("Abandon a file whose analysis takes longer than this many "
             "seconds: it is reported as failed (exit 3) with no findings, "
             "and the other files still run (default 300; 0: no limit)."),
    cl::value_desc("seconds"), cl::init(300), cl::cat(Category));
cl::opt<unsigned> FileMemoryLimit(
    "file-memory-limit",
    cl::desc("Abandon a file whose analysis holds more than this many MiB "
             "of memory: it is reported as failed (exit 3) with no "
             "findings, and the other files still run (default 4096, or "
             "half the machine's memory when that is less; 0: no limit)."),
    cl::value_desc("MiB"), cl::init(0), cl::cat(Category));
cl::opt<bool> UseColor("use-color",
                              cl::desc("Use colors in diagnostics."),
                              cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep precompiled CUDA headers and per-file results in this "
             "folder (default: $XDG_CACHE_HOME/cuda-tidy, else "
             "~/.cache/cuda-tidy)."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> ExportCompileCommands(
    "export-compile-commands",
    cl::desc("Write <dir>/compile_commands.json with the clang commands "
             "cuda-tidy analyzes each file with (nvcc lines translated, CUDA "
             "defaults and nvcc-compatibility flags added), for clang-tidy "
             "with the plugin or clangd; then exit without analyzing."),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoNvccCompat(
    "no-nvcc-compat",
    cl::desc("Do not include cuda-tidy's nvcc-compatibility header "
             "(docs/nvcc-compat.md) first in each CUDA file, nor search the "
             "host compiler's own headers (omp.h) last."),
    cl::cat(Category));
cl::opt<bool>
    NoCache("no-cache",
            cl::desc("Use no cache folder: parse and analyze every file."),
            cl::cat(Category));
// Read before the other options (parseLauncherInvocation); declared so that
// --help lists it.
cl::opt<bool> Launcher(
    "launcher",
    cl::desc("Run as CMAKE_CUDA_COMPILER_LAUNCHER: `cuda-tidy [options] "
             "--launcher [options] <compiler> <args>` lints the file with the "
             "compiler's command, then runs the compiler (its exit code "
             "wins; findings fail the step under --warnings-as-errors)."),
    cl::cat(Category));
cl::opt<bool> TimeChecks(
    "time-checks",
    cl::desc("Print, per file, the run's time and the checks' part of it "
             "(the parse excluded); results are not replayed."),
    cl::Hidden, cl::cat(Category));
cl::opt<bool> NoPreamble(
    "no-preamble",
    cl::desc("Parse every file's headers (no precompiled preamble)."),
    cl::Hidden, cl::cat(Category));
cl::opt<bool> CacheStats(
    "cache-stats",
    cl::desc("Print the cache counters, then what the cache folder holds, "
             "in eviction order."),
    cl::cat(Category));
cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc("Keep the cache folder under this size: 400M, 2G, 0 for no "
             "limit (default: $CUDA_TIDY_CACHE_MAX_SIZE, else 1G). The "
             "least used entries go first."),
    cl::value_desc("size"), cl::cat(Category));

cl::extrahelp ExitCodesHelp(R"(
Exit codes:
  0  every file analyzed; no finding promoted to an error
  1  findings promoted to errors by --warnings-as-errors
  2  usage or configuration error (bad flag or configuration, no compile
     database, unwritable --output, no checks enabled); nothing analyzed
  3  a file could not be analyzed (missing, does not compile: see
     --compile-errors, or past --file-time-limit/--file-memory-limit), or
     --fix refused a file; the other files' findings are still reported
)");

/// NO_COLOR (https://no-color.org): set and not empty, no colour on a
/// terminal either, unless --use-color asks for it.
bool noColorRequested() {
  std::optional<std::string> NoColor = llvm::sys::Process::GetEnv("NO_COLOR");
  return NoColor && !NoColor->empty();
}

void printVersion(llvm::raw_ostream &OS) {
  OS << "cuda-tidy " << CUDA_TIDY_VERSION << " (clang-tidy library of LLVM "
     << LLVM_VERSION_STRING << ")\n";
}

/// Splits argv at the first `--`: what follows are compile flags that
/// replace any compile database, as in clang-tidy.
std::optional<std::vector<std::string>>
takeFlagsAfterDoubleDash(int &Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    if (llvm::StringRef(Argv[I]) != "--")
      continue;
    std::vector<std::string> Flags(Argv + I + 1, Argv + Argc);
    Argc = I;
    return Flags;
  }
  return std::nullopt;
}

/// The positional arguments are source files (with --join-index they are
/// index folders: the configuration is then the working folder's).
bool namesSources() { return !SourcePaths.empty() && !JoinIndex; }

/// The headers that are never the project's own: the CUDA toolkit's (as
/// found, and its usual spellings) and the system's include folders.
std::string defaultExcludedHeaders() {
  std::vector<std::string> Roots = {"/usr/include", "/usr/local/include",
                                    "/usr/lib/gcc", "/usr/lib/llvm-[0-9]+",
                                    "/usr/local/cuda(-[0-9.]+)?",
                                    "/opt/nvidia"};
  if (std::optional<CudaToolkit> Toolkit =
          findCudaToolkit(toolkitSearchFromEnvironment(CudaPath)))
    Roots.push_back(llvm::Regex::escape(Toolkit->Path));
  if (std::optional<std::string> Env = llvm::sys::Process::GetEnv("CUDA_PATH"))
    if (!Env->empty())
      Roots.push_back(llvm::Regex::escape(llvm::StringRef(*Env).rtrim('/')));
  return "^(" + llvm::join(Roots, "|") + ")/";
}

/// The CheckOptions of the project's .cuda-tidy.yaml, read once in main()
/// before any options provider is made; .clang-tidy files and --config can
/// still override them.
ClangTidyOptions::OptionMap ProjectCheckOptions;
/// The project's .cuda-tidy.yaml `checks:`, when it has one: cuda-tidy's own
/// checks, over what the .clang-tidy files say (--checks and --config win).
std::optional<std::string> ProjectChecks;

std::unique_ptr<ClangTidyOptionsProvider> createOptionsProvider() {
  ClangTidyGlobalOptions GlobalOptions;
  if (std::error_code Err = parseLineFilter(LineFilter, GlobalOptions)) {
    llvm::WithColor::error(llvm::errs(), "cuda-tidy")
        << "invalid --line-filter: " << Err.message() << "\n";
    return nullptr;
  }
  ClangTidyOptions Defaults;
  // The advisory check is opt-in: it reports code that is correct today.
  Defaults.Checks = "-*,cuda-*,-cuda-prefer-tile-collectives,-cuda-shared-memory-race,-cuda-implicit-warp-sync,-cuda-missing-fence";
  Defaults.WarningsAsErrors = "";
  // The project's own headers are reported, as clang-tidy 22 (and so the
  // plugin) does by default; the toolkit's and the system's stay out.
  // (clang-tidy drops findings in system headers anyway; the exclusion also
  // covers a toolkit named with -I instead of -isystem.) A header included
  // by several files has its findings reported once (runFiles).
  Defaults.HeaderFilterRegex =
      HeaderFilter.getNumOccurrences() ? HeaderFilter : std::string(".*");
  Defaults.ExcludeHeaderFilterRegex = defaultExcludedHeaders();
  Defaults.SystemHeaders = SystemHeaders;
  Defaults.User = llvm::sys::Process::GetEnv("USER");
  Defaults.CheckOptions = ProjectCheckOptions;

  ClangTidyOptions Overrides;
  if (Checks.getNumOccurrences())
    Overrides.Checks = Checks;
  else if (ProjectChecks && Config.empty() &&
           !ConfigFile.getNumOccurrences())
    Overrides.Checks = "-*," + *ProjectChecks;
  if (WarningsAsErrors.getNumOccurrences())
    Overrides.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences())
    Overrides.HeaderFilterRegex = HeaderFilter;
  if (ExcludeHeaderFilter.getNumOccurrences())
    Overrides.ExcludeHeaderFilterRegex = ExcludeHeaderFilter;
  if (SystemHeaders.getNumOccurrences())
    Overrides.SystemHeaders = SystemHeaders;
  if (UseColor.getNumOccurrences())
    Overrides.UseColor = UseColor;
  else if (noColorRequested())
    Overrides.UseColor = false;

  auto FS = llvm::vfs::getRealFileSystem();
  auto FromText = [&](llvm::StringRef Text, llvm::StringRef Source)
      -> std::unique_ptr<ClangTidyOptionsProvider> {
    if (llvm::Error E = checkNestingDepth(Text, Source, InputSyntax::Yaml)) {
      llvm::WithColor::error(llvm::errs(), "cuda-tidy")
          << llvm::toString(std::move(E)) << "\n";
      return nullptr;
    }
    llvm::ErrorOr<ClangTidyOptions> Parsed =
        parseConfiguration(llvm::MemoryBufferRef(Text, Source));
    if (!Parsed) {
      llvm::WithColor::error(llvm::errs(), "cuda-tidy")
          << "invalid configuration in " << Source << ": "
          << Parsed.getError().message() << "\n";
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
        std::move(GlobalOptions), ClangTidyOptions::getDefaults().merge(Defaults, 0),
        std::move(*Parsed), std::move(Overrides), FS);
  };
  if (ConfigFile.getNumOccurrences()) {
    if (!Config.empty()) {
      llvm::WithColor::error(llvm::errs(), "cuda-tidy")
          << "--config-file and --config are mutually exclusive\n";
      return nullptr;
    }
    auto Text = readInputFile(ConfigFile, ConfigFileMaxBytes);
    if (!Text) {
      llvm::WithColor::error(llvm::errs(), "cuda-tidy")
          << "--config-file: " << llvm::toString(Text.takeError()) << "\n";
      return nullptr;
    }
    return FromText((*Text)->getBuffer(), ConfigFile);
  }
  if (!Config.empty())
    return FromText(Config, "<command-line-config>");
  return std::make_unique<FileOptionsProvider>(
      std::move(GlobalOptions), std::move(Defaults), std::move(Overrides), FS);
}

/// The project's compile database: the one -p names (an error if absent),
/// else one found above the first source file, else none.
llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
loadProjectDatabase(llvm::StringRef FirstSource) {
  std::string Error;
  if (!BuildPath.empty()) {
    if (!llvm::sys::fs::is_directory(BuildPath))
      return llvm::createStringError("cannot load a compile database from '" +
                                     BuildPath + "': no such directory");
    // clang's loader reads the file as YAML and skips what it cannot
    // understand; a truncated or malformed database must be an error.
    llvm::SmallString<256> JsonPath(BuildPath);
    llvm::sys::path::append(JsonPath, "compile_commands.json");
    if (llvm::sys::fs::exists(JsonPath)) {
      auto Text = readInputFile(JsonPath, DataFileMaxBytes);
      if (!Text)
        return llvm::createStringError(
            "cannot load a compile database from '" + BuildPath +
            "': " + llvm::toString(Text.takeError()));
      if (llvm::Error E = checkNestingDepth((*Text)->getBuffer(), JsonPath,
                                            InputSyntax::Json))
        return llvm::createStringError("cannot load a compile database from '" +
                                       BuildPath +
                                       "': " + llvm::toString(std::move(E)));
      // Checked in place; only text that fails is parsed, for the message
      // (building the whole tree once cost 30 to 80 times the file's size
      // in memory, issue 16 F18).
      if (!isValidJson((*Text)->getBuffer())) {
        auto Parsed = llvm::json::parse((*Text)->getBuffer());
        if (!Parsed)
          return llvm::createStringError(
              "cannot load a compile database from '" + BuildPath + "': " +
              JsonPath.str() + " is not valid JSON: " +
              llvm::toString(Parsed.takeError()));
      }
    }
    // A folder with neither database clang reads: one line that says so
    // and what to do, not clang's three loaders' messages (issue 37 §3).
    llvm::SmallString<256> FlagsPath(BuildPath);
    llvm::sys::path::append(FlagsPath, "compile_flags.txt");
    if (!llvm::sys::fs::exists(JsonPath) && !llvm::sys::fs::exists(FlagsPath))
      return llvm::createStringError(
          "cannot load a compile database from '" + BuildPath +
          "': no compile_commands.json there (configure with "
          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or give the compile flags "
          "after --)");
    auto Database =
        tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
    if (!Database)
      return llvm::createStringError(
          "cannot load a compile database from '" + BuildPath + "': " + Error);
    return std::move(Database);
  }
  if (FirstSource.empty())
    return nullptr;
  llvm::SmallString<256> Absolute(FirstSource);
  // make_absolute fails only without a working directory; the path then
  // stays relative, which still names the file. So here and below.
  (void)llvm::sys::fs::make_absolute(Absolute);
  // clang's loader parses the database it finds above the file with LLVM's
  // YAML parser, which recurses per level: the nearest one is checked
  // first, as -p's is (issue 16 F7).
  for (llvm::StringRef Dir = llvm::sys::path::parent_path(Absolute);
       !Dir.empty(); Dir = llvm::sys::path::parent_path(Dir)) {
    llvm::SmallString<256> JsonPath(Dir);
    llvm::sys::path::append(JsonPath, "compile_commands.json");
    if (!llvm::sys::fs::exists(JsonPath))
      continue;
    auto Text = readInputFile(JsonPath, DataFileMaxBytes);
    if (!Text)
      break; // clang's loader reports what it can
    if (llvm::Error E = checkNestingDepth((*Text)->getBuffer(), JsonPath,
                                          InputSyntax::Json))
      return llvm::createStringError("cannot load a compile database: " +
                                     llvm::toString(std::move(E)));
    break;
  }
  return tooling::CompilationDatabase::autoDetectFromSource(Absolute, Error);
}

} // namespace cuda_tidy_standalone
