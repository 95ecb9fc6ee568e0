//===--- ParallelRun.h - clang-tidy over many files, N at a time ----------===//
//
// Each file runs in its own ClangTidyContext, on one of N worker threads, and
// its findings are kept by input position, so the output order never depends
// on which worker finished first.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PARALLELRUN_H
#define CUDA_TIDY_TOOL_DRIVER_PARALLELRUN_H

#include "tool/driver/TidyRunner.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <functional>

namespace clang::tidy::cuda::driver {

struct RunResult {
  std::vector<ClangTidyError> Errors; ///< In input order, duplicates removed.
  ClangTidyStats Stats;               ///< Summed over the files.
};

/// Makes the options provider for one file's context (each context owns
/// its provider).
using OptionsProviderFactory =
    std::function<std::unique_ptr<ClangTidyOptionsProvider>()>;

/// Runs the enabled checks on every file. \p Progress, if set, is called
/// after each file with (files done, findings so far), from worker threads
/// under a lock. With \p Caches, files run through runFileWithCaches
/// (preamble and result caches, --time-checks), else through clang-tidy's
/// runClangTidy.
RunResult runFiles(const std::vector<std::string> &Files,
                   const tooling::CompilationDatabase &Compilations,
                   const OptionsProviderFactory &MakeOptions, unsigned Jobs,
                   bool FixNotes,
                   const std::function<void(size_t, size_t)> &Progress,
                   const RunCaches *Caches = nullptr);

} // namespace clang::tidy::cuda::driver

#endif
