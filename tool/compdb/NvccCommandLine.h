//===--- NvccCommandLine.h - nvcc compile commands translated for clang ---===//
//
// CMake (and every other build system) writes nvcc command lines into
// compile_commands.json. clang's CUDA driver rejects about half of nvcc's
// options and, worse, silently misreads a few (-G, -lineinfo, -t 4, -Werror
// all-warnings). This module rewrites one nvcc command into the clang command
// that parses the same source the same way: same macros, include folders,
// language, GPU architectures and relocatable-device-code mode.
//
// Plain C++17, no LLVM: the standalone driver, the plugin and small test
// drivers can all link it. docs/design/nvcc-compile-databases.md says what is
// translated, what is dropped and why.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_COMPDB_NVCCCOMMANDLINE_H
#define CUDA_TIDY_TOOL_COMPDB_NVCCCOMMANDLINE_H

#include <string>
#include <vector>

namespace clang::tidy::cuda::compdb {

struct TranslationOptions {
  /// The CUDA toolkit clang should parse with. Empty: use the toolkit the
  /// nvcc of the command belongs to when argv[0] is an absolute
  /// <root>/bin/nvcc path and InferCudaPathFromNvcc is set, else add nothing.
  std::string CudaPath;
  bool InferCudaPathFromNvcc = true;
  /// Used for -arch=native|all|all-major and for commands that name no arch.
  std::string DefaultArch = "sm_90";
  /// argv[0] of the translated command.
  std::string ClangDriver = "clang++";
  /// nvcc adds `-isystem <cuda>/include/cccl` (CUDA >= 13 keeps Thrust, CUB
  /// and libcu++ there) without being asked; clang does not. When a CUDA
  /// path is known and that folder exists, add the same flag.
  bool AddCcclInclude = true;
};

struct TranslatedCommand {
  /// The clang command: ClangDriver first, then the translated flags and the
  /// input files in their nvcc order, then --cuda-gpu-arch for every
  /// requested architecture (ascending) and -fgpu-rdc when nvcc compiled
  /// relocatable device code; last, `--` and the inputs that followed a
  /// `--` in the nvcc command (as clang's interpolated commands end).
  std::vector<std::string> Arguments;
  /// One line per dropped or semantically rewritten nvcc flag.
  std::vector<std::string> Notes;
  /// Problems that make the translation incomplete (an --options-file that
  /// cannot be read, an option missing its value, ...).
  std::vector<std::string> Errors;
  /// The device architectures nvcc compiles for, as clang spells them,
  /// deduplicated and sorted ascending (sm_80 < sm_90 < sm_90a < sm_100).
  std::vector<std::string> GpuArchs;
  /// The last of GpuArchs: the arch cuda-tidy analyzes the device side for.
  std::string HighestArch;
  /// False when nvcc compiles the input as plain host C or C++ (-x c++, or a
  /// .cpp input without -x cu): then no CUDA flag is added.
  bool IsCuda = true;
  /// Relocatable device code (-rdc=true, -dc): -fgpu-rdc was added.
  bool RelocatableDeviceCode = false;
  /// The positional arguments: the sources nvcc compiles.
  std::vector<std::string> InputFiles;
  /// The CUDA path given to clang (--cuda-path); empty when none was added.
  std::string CudaPath;
};

/// True for a compile command nvcc runs: argv[0] (after a ccache, sccache,
/// distcc or icecc launcher) is named nvcc, or the command holds a flag only
/// nvcc takes (-gencode, -rdc, -Xcompiler, --options-file, -x cu, ...).
bool isNvccCommand(const std::vector<std::string> &Args);

/// Translates the nvcc command \p Args (argv[0] first) run in \p Directory
/// (relative --options-file paths are resolved against it).
TranslatedCommand translateNvccCommand(const std::vector<std::string> &Args,
                                       const std::string &Directory,
                                       const TranslationOptions &Opts);

/// \p Arguments with every --cuda-gpu-arch=... replaced by the single
/// --cuda-gpu-arch=\p Arch, at the place of the first one (appended when
/// there was none, before a `--`). A clang-tidy run needs exactly one device
/// compilation.
std::vector<std::string>
restrictToGpuArch(const std::vector<std::string> &Arguments,
                  const std::string &Arch);

/// Splits the text of an nvcc --options-file the way nvcc does: white space
/// separates arguments, "double quotes" group (and are removed), a backslash
/// keeps the next character literally. Single quotes and '#' are ordinary
/// characters to nvcc.
std::vector<std::string> tokenizeNvccOptionsFile(const std::string &Text);

/// The clang spelling of one nvcc architecture name: compute_90 and lto_90
/// become sm_90, sm_90a stays, the family suffix of sm_100f is dropped
/// (clang 22 has no sm_XXXf). Empty for native/all/all-major and for names
/// that are no architecture.
std::string clangGpuArchFromNvcc(const std::string &NvccArch);

} // namespace clang::tidy::cuda::compdb

#endif
