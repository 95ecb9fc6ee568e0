//===--- CudaTidyMain.cpp - the standalone cuda-tidy ----------------------===//
//
// clang-tidy's own library (options, .clang-tidy files, NOLINT, fix-its,
// export of fixes) with the cuda-* checks built in and enabled by default, a
// zero-config CUDA setup, and exit codes that tell a broken file from a
// finding. Flag names follow clang-tidy so its users need no new habits.
//
// main(): a compiler-launcher invocation (CompilerLauncher.h), or the flags
// (Options.h) parsed and one run (StandaloneRun.h) made.
//
//===----------------------------------------------------------------------===//

#include "tool/standalone/StandaloneRun.h"

using namespace cuda_tidy_standalone;

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
