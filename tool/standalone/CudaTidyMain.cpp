//===--- CudaTidyMain.cpp - the standalone cuda-tidy ----------------------===//
//
// clang-tidy's own library (options, .clang-tidy files, NOLINT, fix-its,
// export of fixes) with the cuda-* checks built in and enabled by default, a
// zero-config CUDA setup, and exit codes that tell a broken file from a
// finding. Flag names follow clang-tidy so its users need no new habits.
//
//===----------------------------------------------------------------------===//

#include "checks/CudaTidyModule.h"
#include "tool/compdb/NvccCommandLine.h"
#include "tool/driver/config/CommandExport.h"
#include "tool/driver/config/NvccCompat.h"
#include "tool/driver/run/CompilerLauncher.h"
#include "tool/driver/config/ConfigValidation.h"
#include "tool/driver/config/CudaCompilationDatabase.h"
#include "tool/driver/config/CudaToolkit.h"
#include "tool/driver/ExitCodes.h"
#include "tool/driver/report/Findings.h"
#include "tool/driver/report/FixApplier.h"
#include "tool/driver/report/Gates.h"
#include "tool/driver/config/HeaderPairing.h"
#include "tool/driver/report/HtmlReport.h"
#include "tool/driver/run/ParallelRun.h"
#include "tool/driver/config/ProjectConfig.h"
#include "tool/driver/support/MemoryBudget.h"
#include "tool/driver/index/ProjectIndex.h"
#include "tool/driver/report/Reporters.h"
#include "tool/driver/run/TidyRunner.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <fcntl.h>
#include <unistd.h>
#include <set>

using namespace clang;
using namespace clang::tidy;
using namespace clang::tidy::cuda::driver;
namespace cl = llvm::cl;

static cl::OptionCategory Category("cuda-tidy options");

static cl::list<std::string> SourcePaths(cl::Positional,
                                         cl::desc("<source0> [... <sourceN>]"),
                                         cl::cat(Category));
static cl::opt<std::string>
    Checks("checks",
           cl::desc("Comma-separated globs of checks to run (default: "
                    "cuda-*); '-' removes, as in clang-tidy."),
           cl::cat(Category));
static cl::opt<std::string>
    WarningsAsErrors("warnings-as-errors",
                     cl::desc("Globs of checks whose findings are errors "
                              "(exit code 1)."),
                     cl::cat(Category));
static cl::opt<std::string>
    HeaderFilter("header-filter",
                 cl::desc("Regex of headers whose findings are shown "
                          "(default: '.*', every header of the project)."),
                 cl::cat(Category));
static cl::opt<std::string>
    ExcludeHeaderFilter("exclude-header-filter",
                        cl::desc("Regex of headers whose findings are hidden "
                                 "(default: the CUDA toolkit's and the "
                                 "system's include folders)."),
                        cl::cat(Category));
static cl::opt<std::string> SourceFilter(
    "source-filter",
    cl::desc("Regex of the files to analyze, as run-clang-tidy's "
             "-source-filter: of the files named, or with -p and none named "
             "of every CUDA file in the compile database, only those whose "
             "absolute path it matches (anywhere in the path, as "
             "--header-filter)."),
    cl::value_desc("regex"), cl::cat(Category));
static cl::opt<bool> SystemHeaders("system-headers",
                                   cl::desc("Show findings in system headers."),
                                   cl::cat(Category));
static cl::opt<std::string>
    Config("config",
           cl::desc("Configuration in YAML/JSON, as in a .clang-tidy file; "
                    "it replaces the .clang-tidy files and .cuda-tidy.yaml's "
                    "checks. Empty, none (as in clang-tidy: Emacs's "
                    "flycheck-clang-tidy passes an empty one)."),
           cl::cat(Category));
static cl::opt<std::string>
    ConfigFile("config-file",
               cl::desc("Read the configuration from this file."),
               cl::cat(Category));
static cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes."),
                         cl::cat(Category));
static cl::opt<bool>
    FixErrors("fix-errors",
              cl::desc("Apply fixes even if the file has compiler errors."),
              cl::cat(Category));
static cl::opt<bool> FixNotes("fix-notes",
                              cl::desc("Also apply fixes attached to notes."),
                              cl::cat(Category));
static cl::opt<std::string>
    ExportFixes("export-fixes",
                cl::desc("Write the suggested fixes to this YAML file, for "
                         "clang-apply-replacements."),
                cl::value_desc("filename"), cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks",
                                cl::desc("List the enabled checks and exit."),
                                cl::cat(Category));
static cl::opt<bool> AllowNoChecks(
    "allow-no-checks",
    cl::desc("When the configuration enables no check, print \"No checks "
             "enabled.\" and exit 0 instead of failing (exit 2), as "
             "clang-tidy does."),
    cl::cat(Category));
static cl::opt<bool> NoExplain(
    "no-explain",
    cl::desc("In the text format, do not print the note after each finding "
             "that says how to fix it and links the check's documentation."),
    cl::cat(Category));
static cl::opt<bool> VerifyConfig(
    "verify-config",
    cl::desc("Check the configuration (.cuda-tidy.yaml, the .clang-tidy "
             "files, --config, --config-file, --checks, "
             "--warnings-as-errors) for unknown checks "
             "and options and malformed files, analyze nothing, and exit: 0 "
             "with \"No config errors detected.\", else 2, as clang-tidy "
             "22's flag (which exits 1)."),
    cl::cat(Category));
static cl::opt<bool> DumpConfig("dump-config",
                                cl::desc("Print the effective configuration "
                                         "and exit."),
                                cl::cat(Category));
static cl::opt<bool> Quiet("quiet",
                           cl::desc("Do not print statistics about "
                                    "suppressed findings."),
                           cl::cat(Category));
static cl::opt<std::string> BuildPath(
    "p", cl::desc("Build folder holding compile_commands.json."),
    cl::cat(Category));
static cl::list<std::string>
    ExtraArgs("extra-arg",
              cl::desc("Append this argument to every compile command."),
              cl::cat(Category));
static cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Prepend this argument to every compile command."),
    cl::cat(Category));
static cl::opt<std::string> LineFilter(
    "line-filter",
    cl::desc("JSON list of {name, lines} to limit findings, as in "
             "clang-tidy."),
    cl::cat(Category));
static cl::opt<std::string>
    CudaPath("cuda-path", cl::desc("The CUDA toolkit to parse with."),
             cl::cat(Category));
static cl::opt<std::string>
    GpuArch("cuda-gpu-arch",
            cl::desc("GPU arch to analyze the device side for, or a "
                     "comma-separated list (sm_80,sm_90: the device side is "
                     "analyzed once per arch and a finding several see is "
                     "reported once). Given, it replaces the compile "
                     "commands' architectures; else the highest a command "
                     "names, or sm_90."),
            cl::init(DefaultGpuArch.str()), cl::cat(Category));
static cl::opt<CudaPass> Pass(
    "cuda-pass", cl::desc("Which side of a CUDA file to analyze."),
    cl::values(clEnumValN(CudaPass::Device, "device",
                          "device code (default)"),
               clEnumValN(CudaPass::Host, "host", "host code"),
               clEnumValN(CudaPass::Both, "both",
                          "both sides, for code under __CUDA_ARCH__ "
                          "conditionals (twice the parse; a finding both "
                          "see is reported once)")),
    cl::init(CudaPass::Device), cl::cat(Category));
static cl::opt<OutputFormat> Format(
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
static cl::opt<std::string>
    OutputFile("output",
               cl::desc("Write the report of a machine format to this "
                        "file (written atomically) instead of standard "
                        "output; with --format=html, the folder of its "
                        "pages (new, empty, or an earlier report's). Not "
                        "with the text format (exit 2)."),
               cl::value_desc("filename"), cl::cat(Category));
enum class CompileErrorMode { Fail, Warn };
static cl::opt<CompileErrorMode> CompileErrors(
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
static cl::opt<std::string> Baseline(
    "baseline",
    cl::desc("Hide findings recorded in this baseline file; only new ones "
             "are reported and gate the exit code."),
    cl::value_desc("filename"), cl::cat(Category));
static cl::opt<std::string> WriteBaseline(
    "write-baseline",
    cl::desc("Record every current finding in this baseline file."),
    cl::value_desc("filename"), cl::cat(Category));
static cl::opt<std::string> Diff(
    "diff",
    cl::desc("Report only findings on lines changed since this git ref; "
             "'-' reads a unified diff from standard input."),
    cl::value_desc("git-ref|-"), cl::cat(Category));
static cl::opt<std::string> Shard(
    "shard",
    cl::desc("K/N: analyze only the K-th of N equal shares of the files "
             "(1 <= K <= N), to split a compile database over CI jobs."),
    cl::value_desc("K/N"), cl::cat(Category));
static cl::opt<std::string> IndexDir(
    "index-dir",
    cl::desc("Write the per-file launch records of cuda-grid-sync-launch "
             "into this folder (made 0700; a file's new record replaces its "
             "old one) for a later --join-index, and report no cross-file "
             "finding here: the join reports them all, so shards, launcher "
             "calls or pre-commit runs plus the join find what one whole run "
             "finds."),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> JoinIndex(
    "join-index",
    cl::desc("`cuda-tidy --join-index DIR...`: join the launch records that "
             "runs with --index-dir wrote into the folders named (not source "
             "files) and report the cross-file cuda-grid-sync-launch "
             "findings, with the formats, baselines, filters and gates of a "
             "run. The sources must be readable here, at the paths the runs "
             "saw. A missing folder is exit 2; a record skipped (malformed, "
             "another version, its source gone) exit 3."),
    cl::cat(Category));
static cl::opt<unsigned>
    Jobs("j", cl::desc("Analyze this many files at once (default 1)."),
         cl::init(1), cl::Prefix, cl::cat(Category));
// A default, so that one hostile file (issue 16 F10: else-if chains that
// are quadratic in clang's own lookup) cannot hang a CI job: the slowest
// real file measured (docs/performance.md) takes seconds, not minutes.
static cl::opt<double> FileTimeLimit(
    "file-time-limit",
    cl::desc("Abandon a file whose analysis takes longer than this many "
             "seconds: it is reported as failed (exit 3) with no findings, "
             "and the other files still run (default 300; 0: no limit)."),
    cl::value_desc("seconds"), cl::init(300), cl::cat(Category));
static cl::opt<unsigned> FileMemoryLimit(
    "file-memory-limit",
    cl::desc("Abandon a file whose analysis holds more than this many MiB "
             "of memory: it is reported as failed (exit 3) with no "
             "findings, and the other files still run (default 4096, or "
             "half the machine's memory when that is less; 0: no limit)."),
    cl::value_desc("MiB"), cl::init(0), cl::cat(Category));
static cl::opt<bool> UseColor("use-color",
                              cl::desc("Use colors in diagnostics."),
                              cl::cat(Category));
static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep precompiled CUDA headers and per-file results in this "
             "folder (default: $XDG_CACHE_HOME/cuda-tidy, else "
             "~/.cache/cuda-tidy)."),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> ExportCompileCommands(
    "export-compile-commands",
    cl::desc("Write <dir>/compile_commands.json with the clang commands "
             "cuda-tidy analyzes each file with (nvcc lines translated, CUDA "
             "defaults and nvcc-compatibility flags added), for clang-tidy "
             "with the plugin or clangd; then exit without analyzing."),
    cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> NoNvccCompat(
    "no-nvcc-compat",
    cl::desc("Do not include cuda-tidy's nvcc-compatibility header "
             "(docs/nvcc-compat.md) first in each CUDA file, nor search the "
             "host compiler's own headers (omp.h) last."),
    cl::cat(Category));
static cl::opt<bool>
    NoCache("no-cache",
            cl::desc("Use no cache folder: parse and analyze every file."),
            cl::cat(Category));
// Read before the other options (parseLauncherInvocation); declared so that
// --help lists it.
static cl::opt<bool> Launcher(
    "launcher",
    cl::desc("Run as CMAKE_CUDA_COMPILER_LAUNCHER: `cuda-tidy [options] "
             "--launcher [options] <compiler> <args>` lints the file with the "
             "compiler's command, then runs the compiler (its exit code "
             "wins; findings fail the step under --warnings-as-errors)."),
    cl::cat(Category));
static cl::opt<bool> TimeChecks(
    "time-checks",
    cl::desc("Print, per file, the run's time and the checks' part of it "
             "(the parse excluded); results are not replayed."),
    cl::Hidden, cl::cat(Category));
static cl::opt<bool> NoPreamble(
    "no-preamble",
    cl::desc("Parse every file's headers (no precompiled preamble)."),
    cl::Hidden, cl::cat(Category));
static cl::opt<bool> CacheStats(
    "cache-stats",
    cl::desc("Print the cache counters, then what the cache folder holds, "
             "in eviction order."),
    cl::cat(Category));
static cl::opt<std::string> CacheMaxSize(
    "cache-max-size",
    cl::desc("Keep the cache folder under this size: 400M, 2G, 0 for no "
             "limit (default: $CUDA_TIDY_CACHE_MAX_SIZE, else 1G). The "
             "least used entries go first."),
    cl::value_desc("size"), cl::cat(Category));

static cl::extrahelp ExitCodesHelp(R"(
Exit codes:
  0  every file analyzed; no finding promoted to an error
  1  findings promoted to errors by --warnings-as-errors
  2  usage or configuration error (bad flag or configuration, no compile
     database, unwritable --output, no checks enabled); nothing analyzed
  3  a file could not be analyzed (missing, does not compile: see
     --compile-errors, or past --file-time-limit/--file-memory-limit), or
     --fix refused a file; the other files' findings are still reported
)");

#ifndef CUDA_TIDY_CLANG_RESOURCE_DIR
#define CUDA_TIDY_CLANG_RESOURCE_DIR ""
#endif
#ifndef CUDA_TIDY_BUNDLED_RESOURCE_DIR
#define CUDA_TIDY_BUNDLED_RESOURCE_DIR ""
#endif

/// NO_COLOR (https://no-color.org): set and not empty, no colour on a
/// terminal either, unless --use-color asks for it.
static bool noColorRequested() {
  std::optional<std::string> NoColor = llvm::sys::Process::GetEnv("NO_COLOR");
  return NoColor && !NoColor->empty();
}

static void printVersion(llvm::raw_ostream &OS) {
  OS << "cuda-tidy " << CUDA_TIDY_VERSION << " (clang-tidy library of LLVM "
     << LLVM_VERSION_STRING << ")\n";
}

/// Splits argv at the first `--`: what follows are compile flags that
/// replace any compile database, as in clang-tidy.
static std::optional<std::vector<std::string>>
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
static bool namesSources() { return !SourcePaths.empty() && !JoinIndex; }

/// "1 finding", "2 findings".
static std::string countOf(unsigned N, llvm::StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

/// The headers that are never the project's own: the CUDA toolkit's (as
/// found, and its usual spellings) and the system's include folders.
static std::string defaultExcludedHeaders() {
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

/// Why \p Path, which is not a regular file, cannot be analyzed: what
/// stat() says (a symlink loop, a permission, no such file), or that it is
/// something else than a file.
static std::string whyNotAFile(llvm::StringRef Path) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status)) {
    if (EC == std::errc::no_such_file_or_directory)
      return "no such file";
    return EC.message();
  }
  return llvm::sys::fs::is_directory(Status) ? "a directory"
                                             : "not a regular file";
}

/// Why a file cannot be written at \p Path (through a temporary file in its
/// folder and a rename, as llvm::writeToOutput does), or none: checked
/// before any analysis (issue 37 §3). "-" is standard output.
static std::optional<std::string> whyNotWritable(llvm::StringRef Path) {
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

/// The CheckOptions of the project's .cuda-tidy.yaml, read once in main()
/// before any options provider is made; .clang-tidy files and --config can
/// still override them.
static ClangTidyOptions::OptionMap ProjectCheckOptions;
/// The project's .cuda-tidy.yaml `checks:`, when it has one: cuda-tidy's own
/// checks, over what the .clang-tidy files say (--checks and --config win).
static std::optional<std::string> ProjectChecks;

static std::unique_ptr<ClangTidyOptionsProvider> createOptionsProvider() {
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
static llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
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

namespace {

/// One run of the standalone, step by step in the order it happens: the
/// options, the file plan, the gates (read before anything is parsed, so a
/// bad baseline or diff fails fast), the analysis (each file's findings pass
/// the gates as it finishes), the results written (baseline, report, fixes),
/// and the summary with its exit code. A step that ends the run returns the
/// exit code; one that lets it go on returns none.
class StandaloneRun {
public:
  StandaloneRun(std::string Executable,
                std::optional<std::vector<std::string>> FlagsAfterDoubleDash)
      : Executable(std::move(Executable)),
        FlagsAfterDoubleDash(std::move(FlagsAfterDoubleDash)) {}

  int run() {
    if (Stop Code = readOptions())
      return *Code;
    // `cuda-tidy --cache-stats` alone: what the folder holds, nothing run.
    if (CacheStats && SourcePaths.empty() && BuildPath.empty() && !JoinIndex)
      return listCacheFolder();
    if (Stop Code = JoinIndex ? planJoin() : planFiles())
      return *Code;
    if (Stop Code = readGates())
      return *Code;
    if (JoinIndex)
      join();
    else
      analyze();
    if (Stop Code = writeResults())
      return finish(*Code);
    return finish(summarize());
  }

private:
  /// Set: the run ends here, with this exit code.
  using Stop = std::optional<int>;

  Stop readOptions();
  static unsigned verifyCommandLineConfig(const ChecksAndOptions &Known);
  int listCacheFolder() const;
  Stop planFiles();
  Stop readGates();
  void analyze();
  /// --join-index: the records of the folders named, instead of files.
  Stop planJoin();
  void join();
  Stop writeResults();
  int summarize();

  // Steps of planFiles.
  Stop selectFiles();
  Stop configureCommands();
  void planInput(const std::string &Path);

  // Parts of analyze (and of join).
  void prepareReporting();
  void admit(llvm::ArrayRef<ClangTidyError> New);
  void showProgress(size_t Done, size_t Found);
  void clearProgress();

  /// Ends the run with \p Code. A timed-out file's thread may still be
  /// running, and may still use what this run owns (the compile database,
  /// the caches): the process then ends here, with _exit, once everything
  /// is written, instead of destroying those under it (issue 16 F10).
  int finish(int Code);

  static void error(const llvm::Twine &Message) {
    llvm::WithColor::error(llvm::errs(), "cuda-tidy") << Message << "\n";
  }

  const std::string Executable;
  const std::optional<std::vector<std::string>> FlagsAfterDoubleDash;

  // The options.
  std::optional<ProjectConfig> ProjectSettings; ///< .cuda-tidy.yaml
  std::vector<std::string> GpuArchs;
  std::optional<llvm::Regex> SourceFilterRegex;

  // The file plan: per input, the file parsed for it and, when that is a
  // file of the database including a header without a command of its own,
  // the header whose findings are kept (HeaderPairing.h).
  std::unique_ptr<CudaCompilationDatabase> Compilations;
  std::vector<std::string> Inputs;
  std::vector<std::string> Analyzed;
  std::vector<std::string> FocusHeaders;
  /// The files were named on the command line (not taken from -p's database).
  bool InputsNamed = false;
  /// An input could not be analyzed, or a file did not compile.
  bool AnalysisFailed = false;
  llvm::SmallString<256> Root; ///< the working folder; findings are named from it

  // The gates.
  std::optional<llvm::StringSet<>> BaselineFingerprints;
  std::optional<ChangedLines> Changed;

  // The analysis.
  FileSnapshots Snapshots;
  /// cuda-grid-sync-launch across files: each file records the kernels it
  /// defines and launches; the join reports at the launch.
  ProjectIndex Index;
  /// --index-dir, made and checked before any file runs; empty: none.
  std::string IndexFolder;
  /// --join-index: the records read from its folders.
  std::vector<clang::tidy::cuda::analysis::TranslationUnitRecord> JoinedRecords;
  std::unique_ptr<CacheSession> Cache;
  uint64_t CacheBudget = CacheSession::DefaultMaxFolderBytes;
  SourceLines Lines;
  std::unique_ptr<FindingMaker> Maker; ///< made once Root is known
  /// A file system of its own: clang-tidy's printer enters each finding's
  /// build folder, which must not move the workers' working folder.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> PrintingFS;
  std::unique_ptr<ClangTidyContext> PrintingContext;
  bool ShowProgress = false;
  size_t ProgressWidth = 0; ///< of the line now on the terminal; 0: none
  RunResult Run;

  // What the gates let through, and what they kept back.
  std::vector<Finding> AllFindings; ///< for --write-baseline
  std::vector<ClangTidyError> Errors;
  std::vector<Finding> Findings;
  unsigned HiddenByBaseline = 0;
  unsigned HiddenByDiff = 0;
  /// Files that did not compile, under --compile-errors=warn.
  unsigned NotAnalyzed = 0;
  unsigned WarningsAsErrorsCount = 0;
  bool FoundCompilerErrors = false;
};

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
                    Run.NotStarted > 0;
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

/// What turns a finding into its report: the names (from Root), the
/// printer of the text format.
void StandaloneRun::prepareReporting() {
  Maker = std::make_unique<FindingMaker>(Lines, Root);
  PrintingFS = new llvm::vfs::OverlayFileSystem(workerFileSystem(Root));
  PrintingContext = std::make_unique<ClangTidyContext>(createOptionsProvider(),
                                                       false, false, false);
}

/// Findings pass the gates as each file finishes, in input order, and in
/// text they are printed then: a long run shows its findings as it goes,
/// and a CI timeout does not lose them. Compiler errors always show: a gate
/// must not hide a file it could not analyze.
void StandaloneRun::admit(llvm::ArrayRef<ClangTidyError> New) {
  std::vector<ClangTidyError> Shown;
  std::vector<const Finding *> ShownFindings;
  for (const ClangTidyError &Error : New) {
    Finding F = Maker->make(Error);
    // --compile-errors=warn: the file is reported as not analyzed, at
    // warning level in the machine formats (Reporters.h).
    if (F.IsCompilerError && CompileErrors == CompileErrorMode::Warn)
      F.Level = Finding::Severity::Warning;
    AllFindings.push_back(F);
    if (!F.IsCompilerError) {
      if (BaselineFingerprints &&
          BaselineFingerprints->contains(F.Fingerprint)) {
        ++HiddenByBaseline;
        continue;
      }
      if (Changed && !Changed->contains(F.Where.File, F.Where.Line)) {
        ++HiddenByDiff;
        continue;
      }
    }
    Errors.push_back(Error);
    Shown.push_back(Error);
    Findings.push_back(std::move(F));
  }
  for (size_t I = Findings.size() - Shown.size(); I < Findings.size(); ++I)
    ShownFindings.push_back(&Findings[I]);
  // clang-tidy's handleErrors prints; fixes are ours to write (FixApplier
  // keeps permissions, writes atomically, refuses a file changed
  // meanwhile).
  if (Format == OutputFormat::Text && !Shown.empty()) {
    // File names a terminal would act on (ESC sequences) or that are not
    // UTF-8 are printed escaped (issue 16 F19).
    auto [Printable, PrintFS] = withPrintableFileNames(Shown, PrintingFS);
    if (NoExplain) {
      handleErrors(Printable, *PrintingContext, FB_NoFix,
                   WarningsAsErrorsCount, PrintFS);
    } else {
      // Each finding, then the line that says how to fix it (issue 37 §3):
      // a note in clang's form, so editors attach it to the finding.
      for (size_t I = 0; I < Printable.size(); ++I) {
        handleErrors(llvm::ArrayRef(Printable[I]), *PrintingContext, FB_NoFix,
                     WarningsAsErrorsCount, PrintFS);
        const std::string Line =
            explanationLine(*ShownFindings[I], Printable[I].Message.FilePath,
                            clang::tidy::cuda::driver::ReportContext());
        if (!Line.empty())
          llvm::outs() << Line << "\n";
      }
    }
    llvm::outs().flush();
  }
}

void StandaloneRun::showProgress(size_t Done, size_t Found) {
  std::string Line = "[" + std::to_string(Done) + "/" +
                     std::to_string(Inputs.size()) + " files] " +
                     countOf(Found, "finding");
  llvm::errs() << "\r" << Line;
  if (Line.size() < ProgressWidth)
    llvm::errs() << std::string(ProgressWidth - Line.size(), ' ') << "\r"
                 << Line;
  ProgressWidth = Line.size();
  if (Done == Inputs.size()) {
    llvm::errs() << "\n";
    ProgressWidth = 0;
  }
  llvm::errs().flush();
}

/// Anything else printed during the run first clears the progress line.
void StandaloneRun::clearProgress() {
  if (!ProgressWidth)
    return;
  llvm::errs() << "\r" << std::string(ProgressWidth, ' ') << "\r";
  llvm::errs().flush();
  ProgressWidth = 0;
}

/// --write-baseline, the report in its format, the fixes, --export-fixes.
StandaloneRun::Stop StandaloneRun::writeResults() {
  if (!WriteBaseline.empty())
    if (llvm::Error E = writeBaseline(WriteBaseline, AllFindings, Root)) {
      error("cannot write baseline '" + WriteBaseline +
            "': " + llvm::toString(std::move(E)));
      return ExitUsageError;
    }

  if (Format != OutputFormat::Text) {
    WarningsAsErrorsCount = llvm::count_if(
        Errors, [](const ClangTidyError &E) { return E.IsWarningAsError; });
    clang::tidy::cuda::driver::ReportContext Report;
    Report.Root = Root.str().str();
    Report.ToolVersion = CUDA_TIDY_VERSION;
    Report.Inputs = Inputs;
    auto Write = [&](llvm::raw_ostream &OS) {
      switch (Format) {
      case OutputFormat::Json:
        writeJson(OS, Findings, Report);
        break;
      case OutputFormat::Sarif:
        writeSarif(OS, Findings, Report);
        break;
      case OutputFormat::RdJson:
        writeRdJson(OS, Findings, Report);
        break;
      case OutputFormat::CodeQuality:
        writeCodeQuality(OS, Findings, Report);
        break;
      case OutputFormat::JUnit:
        writeJUnit(OS, Findings, Report);
        break;
      default:
        writeGitHubAnnotations(OS, Findings, Report);
      }
    };
    if (Format == OutputFormat::Html) {
      if (llvm::Error E =
              writeHtmlReport(OutputFile, Findings, Report, Lines)) {
        error("--format=html --output=" + escapeForTerminal(OutputFile) +
              ": " + escapeForTerminal(llvm::toString(std::move(E))));
        return ExitUsageError;
      }
    } else if (OutputFile.empty()) {
      Write(llvm::outs());
    } else if (llvm::Error E = llvm::writeToOutput(
                   OutputFile, [&](llvm::raw_ostream &OS) {
                     Write(OS);
                     return llvm::Error::success();
                   })) {
      error("cannot write '" + OutputFile +
            "': " + llvm::toString(std::move(E)));
      return ExitUsageError;
    }
  }

  FixBehaviour Behaviour = FixNotes             ? FB_FixNotes
                           : (Fix || FixErrors) ? FB_Fix
                                                : FB_NoFix;
  if (FoundCompilerErrors && !FixErrors)
    Behaviour = FB_NoFix;
  if (Behaviour != FB_NoFix) {
    // For tests/lit/cli/fix-header-edited-during-run.test only: hold here,
    // after every file was read and before any fix is written, until the
    // test has opened and closed the FIFO this names (it edits a header in
    // between). An #include of a FIFO, which the test once held the parse
    // with, is refused since issue 16 F12.
    if (std::optional<std::string> Gate =
            llvm::sys::Process::GetEnv("CUDA_TIDY_TEST_FIX_GATE"))
      if (int FD = ::open(Gate->c_str(), O_RDONLY); FD >= 0) {
        char Byte;
        while (::read(FD, &Byte, 1) > 0) {
        }
        ::close(FD);
      }
    FixSummary Fixed =
        applyFixes(Errors, Behaviour == FB_FixNotes, Snapshots, llvm::errs());
    if (!Quiet && Fixed.Suggested)
      llvm::errs() << "cuda-tidy applied " << Fixed.Applied << " of "
                   << Fixed.Suggested << " suggested fix"
                   << (Fixed.Suggested == 1 ? "" : "es")
                   << (Fixed.Overlapping ? " (overlapping fixes skipped)" : "")
                   << ".\n";
    AnalysisFailed |= Fixed.FilesRefused > 0;
  }

  if (!ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(ExportFixes, EC, llvm::sys::fs::OF_None);
    if (EC) {
      error("cannot write '" + ExportFixes + "': " + EC.message());
      return ExitUsageError;
    }
    exportReplacements(Inputs.empty() ? "" : Inputs.front(), Errors, OS);
  }
  return std::nullopt;
}

/// The summary lines (unless --quiet) and the exit code: a configuration
/// error, then a file not analyzed, then findings that are errors.
int StandaloneRun::summarize() {
  if (!Quiet) {
    const ClangTidyStats &Stats = Run.Stats;
    // As clang-tidy says it: the parts that are not zero, which add up to
    // the total (diagnostics of checks not enabled, e.g. compiler warnings,
    // are "with check filters").
    if (Stats.errorsIgnored()) {
      llvm::errs() << "Suppressed " << countOf(Stats.errorsIgnored(), "finding")
                   << " (";
      llvm::StringRef Separator;
      auto Part = [&](unsigned N, llvm::StringRef What) {
        if (!N)
          return;
        llvm::errs() << Separator << N << " " << What;
        Separator = ", ";
      };
      Part(Stats.ErrorsIgnoredNonUserCode, "in non-user code");
      Part(Stats.ErrorsIgnoredLineFilter, "due to line filter");
      Part(Stats.ErrorsIgnoredNOLINT, "NOLINT");
      Part(Stats.ErrorsIgnoredCheckFilter, "with check filters");
      llvm::errs() << ").\n";
    }
    if (HiddenByBaseline)
      llvm::errs() << countOf(HiddenByBaseline, "finding")
                   << (HiddenByBaseline == 1 ? " is" : " are")
                   << " in the baseline.\n";
    if (HiddenByDiff)
      llvm::errs() << countOf(HiddenByDiff, "finding")
                   << (HiddenByDiff == 1 ? " is" : " are")
                   << " on unchanged lines.\n";
    if (NotAnalyzed)
      llvm::errs() << countOf(NotAnalyzed, "file")
                   << (NotAnalyzed == 1 ? " was" : " were")
                   << " not analyzed in full: compiler errors "
                      "(--compile-errors=warn).\n";
    if (FoundCompilerErrors && (Fix || FixNotes) && !FixErrors)
      llvm::errs() << "Found compiler errors; fixes were NOT applied (use "
                      "--fix-errors).\n";
    if (WarningsAsErrorsCount)
      llvm::errs() << WarningsAsErrorsCount << " warning"
                   << (WarningsAsErrorsCount == 1 ? "" : "s")
                   << " treated as error"
                   << (WarningsAsErrorsCount == 1 ? "" : "s") << "\n";
  }
  // An option value of the wrong type is reported by clang-tidy as a
  // clang-tidy-config warning when the check reads it: a configuration error.
  bool ConfigurationError = false;
  for (const Finding &F : Findings) {
    if (F.Check != "clang-tidy-config")
      continue;
    ConfigurationError = true;
    locateConfigurationProblem(Inputs, F.Message, llvm::errs());
  }
  if (ConfigurationError)
    return ExitUsageError;
  if (AnalysisFailed)
    return ExitAnalysisFailed;
  if (WarningsAsErrorsCount)
    return ExitFindingsAsErrors;
  return ExitSuccess;
}

int StandaloneRun::finish(int Code) {
  if (Run.LeftRunning) {
    llvm::outs().flush();
    llvm::errs().flush();
    if (Index.enabled())
      (void)llvm::sys::fs::remove_directories(Index.directory(),
                                              /*IgnoreErrors=*/true);
    ::_exit(Code);
  }
  return Code;
}

} // namespace

int main(int Argc, const char **Argv) {
  llvm::InitLLVM Init(Argc, Argv);
  std::string Executable = llvm::sys::fs::getMainExecutable(
      Argv[0], reinterpret_cast<void *>(&printVersion));
  if (auto Launcher = parseLauncherInvocation(llvm::ArrayRef(Argv, Argc)))
    return runAsCompilerLauncher(*Launcher, Executable);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter(printVersion);
  // cuda-tidy's own messages ("cuda-tidy: error: ...") under NO_COLOR; the
  // findings' colour follows --use-color (parseOptions).
  if (noColorRequested() &&
      llvm::none_of(llvm::ArrayRef(Argv, Argc), [](const char *Arg) {
        llvm::StringRef A = llvm::StringRef(Arg).ltrim('-');
        return A == "use-color" || A == "use-color=true" || A == "use-color=1";
      }))
    llvm::WithColor::setAutoDetectFunction(
        [](const llvm::raw_ostream &) { return false; });
  std::optional<std::vector<std::string>> FlagsAfterDoubleDash =
      takeFlagsAfterDoubleDash(Argc, Argv);
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "cuda-tidy: finds synchronization and cooperative-groups bugs in "
          "CUDA C++.\n\n  cuda-tidy kernel.cu            zero-config, device "
          "side\n  cuda-tidy -p build a.cu b.cu  with a compile database\n  "
          "cuda-tidy k.cu -- -DN=4       extra flags, no compile database\n  "
          "cuda-tidy --join-index DIR... the cross-file findings of runs "
          "with --index-dir\n",
          &llvm::errs()))
    return ExitUsageError;
  tuneAllocatorForParsing(Jobs); // before any worker thread allocates
  return StandaloneRun(std::move(Executable), std::move(FlagsAfterDoubleDash))
      .run();
}
