//===--- ConfigValidation.h - .clang-tidy files checked before a run ------===//
//
// clang-tidy prints a broken .clang-tidy and goes on without it; a CI gate
// must not silently run with the wrong configuration. This reads every
// .clang-tidy that applies to the inputs and reports, with file, line and
// column: malformed YAML, an unknown cuda-* check, an unknown cuda-* option.
// Names outside cuda-* are left alone: a project's .clang-tidy serves
// clang-tidy's own checks too.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_CONFIGVALIDATION_H
#define CUDA_TIDY_TOOL_DRIVER_CONFIGVALIDATION_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// Validates the .clang-tidy files in the folders of \p Inputs and their
/// parents (each file once). Returns the number of errors printed to \p OS.
unsigned validateClangTidyFiles(const std::vector<std::string> &Inputs,
                                const llvm::StringSet<> &KnownChecks,
                                const llvm::StringSet<> &KnownOptions,
                                llvm::raw_ostream &OS);

/// Validates one configuration text (from \p Source).
unsigned validateClangTidyConfig(llvm::StringRef Text, llvm::StringRef Source,
                                 const llvm::StringSet<> &KnownChecks,
                                 const llvm::StringSet<> &KnownOptions,
                                 llvm::raw_ostream &OS);

/// For clang-tidy's "invalid configuration value ... for option 'X'"
/// message: prints "file:line:col: error: <message>" at the .clang-tidy that
/// sets X (the nearest one above an input that names it).
void locateConfigurationProblem(const std::vector<std::string> &Inputs,
                                llvm::StringRef Message,
                                llvm::raw_ostream &OS);

} // namespace clang::tidy::cuda::driver

#endif
