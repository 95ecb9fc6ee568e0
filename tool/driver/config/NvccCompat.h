//===--- NvccCompat.h - parse what nvcc parses ----------------------------===//
//
// Code that builds with nvcc leans on what nvcc's headers and host compiler
// provide: host min/max and isfinite, cache-hinted stores, cluster groups,
// <omp.h> from GCC. clang's CUDA wrapper lacks some of it, so such a file
// does not parse and is not analyzed (issue 15). The standalone closes the
// gap for every CUDA command with two flags:
//   -include <share>/cuda-tidy/cuda_tidy_nvcc_compat.h  (the shims; each names
//                                                       the nvcc behaviour)
//   -idirafter <GCC's own include folder>  (searched last, so only headers
//                                           clang does not ship, omp.h,
//                                           come from there)
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_NVCCCOMPAT_H
#define CUDA_TIDY_TOOL_DRIVER_NVCCCOMPAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

inline constexpr llvm::StringLiteral NvccCompatHeaderName =
    "cuda_tidy_nvcc_compat.h";

struct NvccCompat {
  std::string Header;                 ///< Empty: not found.
  std::string HostCompilerIncludeDir; ///< Empty: none needed or none found.
};

/// The compatibility header: `<dir of Executable>/../share/cuda-tidy/` (build
/// and install trees), else \p BuiltInPath (the source tree's copy). The host
/// compiler folder: GCC's `include` folder of the newest version under
/// \p GccRoots that holds omp.h, when clang's \p ResourceDir has none.
NvccCompat findNvccCompat(llvm::StringRef Executable,
                          llvm::StringRef BuiltInPath,
                          llvm::StringRef ResourceDir,
                          llvm::ArrayRef<std::string> GccRoots = {
                              "/usr/lib/gcc/x86_64-linux-gnu",
                              "/usr/lib/gcc/aarch64-linux-gnu"});

/// clang's resource folder (its builtin and CUDA wrapper headers): the copy
/// an install bundles, `<dir of Executable>/../<BundledPath>`, when it holds
/// clang's CUDA wrapper header; else \p BuiltInPath, the folder of the LLVM
/// the binary was built against. The bundled copy comes first so that an
/// installed tree, moved or unpacked anywhere, never reads the build
/// machine's LLVM, and runs where that LLVM is absent.
std::string findClangResourceDir(llvm::StringRef Executable,
                                 llvm::StringRef BundledPath,
                                 llvm::StringRef BuiltInPath);

/// Adds `-include Header` and `-idirafter Dir` to a CUDA command \p Args
/// (driver first) that does not already include the header. Nothing for a
/// command that is not CUDA or when both are empty.
void addNvccCompat(std::vector<std::string> &Args, llvm::StringRef File,
                   llvm::StringRef Header, llvm::StringRef HostIncludeDir);

} // namespace clang::tidy::cuda::driver

#endif
