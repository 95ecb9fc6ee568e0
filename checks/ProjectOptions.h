//===--- ProjectOptions.h - settings a project states once for every check -===//
//
// Some facts are the project's, not one check's: that every launch makes
// blockDim.x a multiple of 32, that the code is also built for AMD GPUs
// through HIP. `.cuda-tidy.yaml` states them once (the standalone turns
// them into these global CheckOptions, tool/driver/config/ProjectConfig.h);
// `.clang-tidy` can set the same keys under CheckOptions for the plugin. A
// check's own option of the same meaning
// (`cuda-divergent-barrier.AssumeBlockDimXMultipleOf32`) wins over them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_PROJECTOPTIONS_H
#define CUDA_TIDY_CHECKS_PROJECTOPTIONS_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda {

/// launch.block-dim-x-multiple-of-32: threadIdx.y/z are warp-uniform.
inline constexpr llvm::StringLiteral BlockDimXMultipleOf32Option =
    "CudaAssumeBlockDimXMultipleOf32";
/// platforms: the GPU platforms the code is built for ("cuda", "hip",
/// "cuda,hip"), or "auto": HIP when a file tests a HIP platform macro
/// (analysis/api/HipPortability.h).
inline constexpr llvm::StringLiteral PlatformsOption = "CudaPlatforms";
/// barrier-functions / uniform-functions: project functions that act as
/// __syncthreads(), and whose result is the same in every thread.
inline constexpr llvm::StringLiteral BarrierFunctionsOption =
    "CudaBarrierFunctions";
inline constexpr llvm::StringLiteral UniformFunctionsOption =
    "CudaUniformFunctions";

/// The check's own boolean option \p Local, else the project's global key
/// \p Global, else a global key named \p Local, else \p Default.
inline bool projectFlag(const ClangTidyCheck::OptionsView &Options,
                        llvm::StringRef Local, llvm::StringRef Global,
                        bool Default) {
  if (std::optional<bool> Own = Options.get<bool>(Local))
    return *Own;
  if (std::optional<bool> Project = Options.getLocalOrGlobal<bool>(Global))
    return *Project;
  return Options.getLocalOrGlobal<bool>(Local, Default);
}

/// The same for a string option.
inline std::string projectString(const ClangTidyCheck::OptionsView &Options,
                                 llvm::StringRef Local, llvm::StringRef Global,
                                 llvm::StringRef Default) {
  if (std::optional<llvm::StringRef> Own = Options.get(Local))
    return Own->str();
  return Options.getLocalOrGlobal(Global, Default).str();
}

} // namespace clang::tidy::cuda

#endif
