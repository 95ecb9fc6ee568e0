//===--- StandaloneRun.h - one run of the standalone ----------------------===//
//
// The steps of one run of the standalone and the state they share; the
// steps live by job in RunOptions.cpp (the configuration and the checks it
// enables), RunModes.cpp (the file plan or the index join, the gates, the
// analysis) and RunOutput.cpp (findings admitted and printed, the results
// written, the summary and the exit code). Private to tool/standalone.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_STANDALONE_STANDALONERUN_H
#define CUDA_TIDY_TOOL_STANDALONE_STANDALONERUN_H

#include "tool/standalone/Options.h"

namespace cuda_tidy_standalone {

/// "1 finding", "2 findings".
inline std::string countOf(unsigned N, llvm::StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

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

} // namespace cuda_tidy_standalone

#endif
