//===--- CudaToolkit.h - finds the CUDA toolkit cuda-tidy parses with -----===//
//
// Zero-config runs need the same flags a user would otherwise type: where the
// toolkit is, CCCL's include folder for CUDA >= 13, a GPU arch, and the
// warning clang gives for a CUDA newer than it knows.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_CUDATOOLKIT_H
#define CUDA_TIDY_TOOL_DRIVER_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

struct CudaToolkit {
  std::string Path;     ///< The toolkit root, e.g. /usr/local/cuda.
  int MajorVersion = 0; ///< From CUDA_VERSION in include/cuda.h; 0 if unknown.
  int MinorVersion = 0;
  std::string FoundBy; ///< "--cuda-path", "CUDA_PATH", "nvcc on PATH", ...
};

/// Where to look, in order; empty values are skipped.
struct ToolkitSearch {
  std::string ExplicitPath; ///< --cuda-path
  std::string EnvCudaPath;  ///< $CUDA_PATH
  std::string PathEnv;      ///< $PATH, searched for nvcc
  std::vector<std::string> DefaultRoots = {"/usr/local/cuda"};
};

/// A search filled from the process environment.
ToolkitSearch toolkitSearchFromEnvironment(llvm::StringRef ExplicitPath);

/// The first candidate that holds include/cuda.h, or nullopt. An explicit
/// path that is not a toolkit is not silently replaced by another one:
/// the result is nullopt so the caller can say so.
std::optional<CudaToolkit> findCudaToolkit(const ToolkitSearch &Search);

/// Reads CUDA_VERSION (e.g. 13000) from the text of cuda.h.
std::optional<std::pair<int, int>> parseCudaVersion(llvm::StringRef CudaHeader);

/// The GPU arch used when nothing names one: Hopper, the oldest arch every
/// cooperative-groups feature the checks know (clusters included) needs.
inline constexpr llvm::StringLiteral DefaultGpuArch = "sm_90";

/// Which side of a CUDA compilation to analyze. Both: two compile commands
/// per CUDA file, one per side, for code under `__CUDA_ARCH__`
/// conditionals; a finding both sides see is reported once.
enum class CudaPass { Device, Host, Both };

/// The flags clang needs to parse CUDA with this toolkit.
std::vector<std::string> toolkitFlags(const CudaToolkit &Toolkit);

/// True for the file names cuda-tidy treats as CUDA (.cu, .cuh).
bool isCudaSourcePath(llvm::StringRef Path);

/// True when \p Args (a compile command, driver first) compiles \p File as
/// CUDA: `-x cuda`, or a .cu/.cuh name with no other language named.
bool isCudaCommand(const std::vector<std::string> &Args, llvm::StringRef File);

/// True when \p Args already names the one side to compile
/// (--cuda-device-only, --cuda-host-only or their --offload- spellings).
bool namesCudaPass(const std::vector<std::string> &Args);

/// True when \p Args names the host side only (--cuda-host-only or
/// --offload-host-only).
bool namesHostPass(const std::vector<std::string> &Args);

/// The architectures of `--cuda-gpu-arch=A[,B...]`, in order, each once;
/// an error naming the element that is not an NVIDIA GPU architecture clang
/// knows (sm_XX, sm_XXa), or an empty one.
llvm::Expected<std::vector<std::string>> parseGpuArchList(llvm::StringRef List);

/// Adds to \p Args (a compile command, driver first) what a CUDA parse needs
/// and the user did not already say: the toolkit flags, a GPU arch, and the
/// one pass to analyze, so no finding is printed twice for host and device.
/// `-x cuda` is added for a .cuh header given as a main file. \p Pass is
/// Device or Host here; CudaCompilationDatabase splits Both into the two.
void addCudaDefaults(std::vector<std::string> &Args, llvm::StringRef File,
                     const std::optional<CudaToolkit> &Toolkit,
                     CudaPass Pass, llvm::StringRef GpuArch);

} // namespace clang::tidy::cuda::driver

#endif
