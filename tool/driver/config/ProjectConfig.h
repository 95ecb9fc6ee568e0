//===--- ProjectConfig.h - the project's .cuda-tidy.yaml ------------------===//
//
// What clang-tidy's .clang-tidy cannot say: facts about how the project
// launches its kernels, its own barrier and uniform-value functions, paths to
// leave alone, and the baseline. Read with yaml-cpp; an unknown key or a
// value of the wrong type is an error naming the file, line and column.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PROJECTCONFIG_H
#define CUDA_TIDY_TOOL_DRIVER_PROJECTCONFIG_H

#include "checks/ProjectOptions.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

struct ProjectConfig {
  std::string Path; ///< The file it was read from.
  /// launch.block-dim-x-multiple-of-32: threadIdx.y/z are warp-uniform.
  std::optional<bool> BlockDimXMultipleOf32;
  std::vector<std::string> BarrierFunctions; ///< Act like __syncthreads().
  std::vector<std::string> UniformFunctions; ///< Return grid-uniform values.
  /// platforms: "cuda", "hip" or both; empty: detected per file
  /// (checks/ProjectOptions.h PlatformsOption).
  std::vector<std::string> Platforms;
  std::vector<std::string> Exclude;          ///< Globs of paths to skip.
  std::string Baseline;                      ///< Relative to the file.
  /// checks: cuda-tidy's own check globs ("cuda-*,-cuda-group-by-value", or
  /// a list of globs), independent of the .clang-tidy files' Checks, which
  /// often enable other tools' checks only (`-*,bugprone-*`). --checks
  /// still wins.
  std::optional<std::string> Checks;

  /// The settings the checks read, as clang-tidy global CheckOptions (keys
  /// without a check prefix, so every check and the plugin can read them;
  /// checks/ProjectOptions.h).
  ClangTidyOptions::OptionMap checkOptions() const;
  /// True when \p Path (absolute) matches an exclude glob, relative to the
  /// folder holding the config file.
  bool isExcluded(llvm::StringRef Path) const;
};

/// Parses \p Text (the contents of \p Path).
llvm::Expected<ProjectConfig> parseProjectConfig(llvm::StringRef Text,
                                                 llvm::StringRef Path);

/// The nearest .cuda-tidy.yaml in \p Directory or above it, or nullopt.
llvm::Expected<std::optional<ProjectConfig>>
findProjectConfig(llvm::StringRef Directory);

} // namespace clang::tidy::cuda::driver

#endif
