//===--- CompilerLauncher.h - cuda-tidy as CMAKE_CUDA_COMPILER_LAUNCHER ---===//
//
//   cmake -DCMAKE_CUDA_COMPILER_LAUNCHER="cuda-tidy;--launcher" ...
//
// makes the build run `cuda-tidy --launcher [options] nvcc <args>` for every
// CUDA file: cuda-tidy lints the file with exactly that command, then runs
// the compiler, so linting scales with whatever distributes the build.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_COMPILERLAUNCHER_H
#define CUDA_TIDY_TOOL_DRIVER_COMPILERLAUNCHER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

struct LauncherInvocation {
  std::vector<std::string> TidyArgs; ///< cuda-tidy options before the compiler.
  std::vector<std::string> Compiler; ///< The compiler and its arguments.
  std::string Source;                ///< The file it compiles.
};

/// Splits `[tidy options] --launcher [tidy options] <compiler> <args>`;
/// nullopt when no --launcher comes before the first file argument. The
/// compiler is the first argument after --launcher that is not an option
/// of cuda-tidy and names an executable: a path, or a bare name found on
/// PATH (then the Compiler's first element is the path found).
std::optional<LauncherInvocation>
parseLauncherInvocation(llvm::ArrayRef<const char *> Argv);

/// Lints (running this same binary, \p Self, on a one-entry compile
/// database) and then compiles. Returns the exit code for the build: the
/// compiler's when it fails, else 1 when findings were promoted to errors,
/// else 0. A file clang cannot analyze does not fail a build nvcc can do.
int runAsCompilerLauncher(const LauncherInvocation &Invocation,
                          llvm::StringRef Self);

} // namespace clang::tidy::cuda::driver

#endif
