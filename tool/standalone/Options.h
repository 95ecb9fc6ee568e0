//===--- Options.h - the standalone's command line ------------------------===//
//
// Every flag of the standalone cuda-tidy (llvm::cl options, defined in
// Options.cpp in the order --help shows them within their category), and
// what the flags configure before a run starts: the clang-tidy options
// provider (.clang-tidy files, --config, .cuda-tidy.yaml's checks and
// options) and the project's compile database. Private to tool/standalone.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_STANDALONE_OPTIONS_H
#define CUDA_TIDY_TOOL_STANDALONE_OPTIONS_H

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

namespace cuda_tidy_standalone {

/// What a file clang cannot parse does to the run (--compile-errors).
enum class CompileErrorMode { Fail, Warn };

extern cl::OptionCategory Category;
extern cl::list<std::string> SourcePaths;
extern cl::opt<std::string> Checks;
extern cl::opt<std::string> WarningsAsErrors;
extern cl::opt<std::string> HeaderFilter;
extern cl::opt<std::string> ExcludeHeaderFilter;
extern cl::opt<std::string> SourceFilter;
extern cl::opt<bool> SystemHeaders;
extern cl::opt<std::string> Config;
extern cl::opt<std::string> ConfigFile;
extern cl::opt<bool> Fix;
extern cl::opt<bool> FixErrors;
extern cl::opt<bool> FixNotes;
extern cl::opt<std::string> ExportFixes;
extern cl::opt<bool> ListChecks;
extern cl::opt<bool> AllowNoChecks;
extern cl::opt<bool> NoExplain;
extern cl::opt<bool> VerifyConfig;
extern cl::opt<bool> DumpConfig;
extern cl::opt<bool> Quiet;
extern cl::opt<std::string> BuildPath;
extern cl::list<std::string> ExtraArgs;
extern cl::list<std::string> ExtraArgsBefore;
extern cl::opt<std::string> LineFilter;
extern cl::opt<std::string> CudaPath;
extern cl::opt<std::string> GpuArch;
extern cl::opt<CudaPass> Pass;
extern cl::opt<OutputFormat> Format;
extern cl::opt<std::string> OutputFile;
extern cl::opt<CompileErrorMode> CompileErrors;
extern cl::opt<std::string> Baseline;
extern cl::opt<std::string> WriteBaseline;
extern cl::opt<std::string> Diff;
extern cl::opt<std::string> Shard;
extern cl::opt<std::string> IndexDir;
extern cl::opt<bool> JoinIndex;
extern cl::opt<unsigned> Jobs;
extern cl::opt<double> FileTimeLimit;
extern cl::opt<unsigned> FileMemoryLimit;
extern cl::opt<bool> UseColor;
extern cl::opt<std::string> CacheDir;
extern cl::opt<std::string> ExportCompileCommands;
extern cl::opt<bool> NoNvccCompat;
extern cl::opt<bool> NoCache;
extern cl::opt<bool> Launcher;
extern cl::opt<bool> TimeChecks;
extern cl::opt<bool> NoPreamble;
extern cl::opt<bool> CacheStats;
extern cl::opt<std::string> CacheMaxSize;

/// NO_COLOR (https://no-color.org): set and not empty, no colour on a
/// terminal either, unless --use-color asks for it.
bool noColorRequested();

/// "cuda-tidy <version> (clang-tidy library of LLVM <version>)".
void printVersion(llvm::raw_ostream &OS);

/// Splits argv at the first `--`: what follows are compile flags that
/// replace any compile database, as in clang-tidy.
std::optional<std::vector<std::string>>
takeFlagsAfterDoubleDash(int &Argc, const char **Argv);

/// The positional arguments are source files (with --join-index they are
/// index folders: the configuration is then the working folder's).
bool namesSources();

/// The CheckOptions of the project's .cuda-tidy.yaml, read once before any
/// options provider is made; .clang-tidy files and --config can still
/// override them.
extern ClangTidyOptions::OptionMap ProjectCheckOptions;
/// The project's .cuda-tidy.yaml `checks:`, when it has one: cuda-tidy's own
/// checks, over what the .clang-tidy files say (--checks and --config win).
extern std::optional<std::string> ProjectChecks;

/// The clang-tidy options every file is checked with: the defaults, the
/// project's settings, the .clang-tidy files or --config/--config-file, and
/// the flags over them; null (with the error printed) when one is invalid.
std::unique_ptr<ClangTidyOptionsProvider> createOptionsProvider();

/// The project's compile database: the one -p names (an error if absent),
/// else one found above the first source file, else none.
llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
loadProjectDatabase(llvm::StringRef FirstSource);

} // namespace cuda_tidy_standalone

#endif
