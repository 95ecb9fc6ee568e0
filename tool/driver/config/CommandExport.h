//===--- CommandExport.h - a clang-ready compile database -----------------===//
//
// `cuda-tidy --export-compile-commands=DIR` writes DIR/compile_commands.json
// with the commands cuda-tidy itself parses each file with: nvcc lines
// translated for clang, the toolkit and arch flags, the one pass, the
// nvcc-compatibility header. clang-tidy-22 with the plugin and clangd-22 then
// read a CMake + nvcc project the way the standalone does (issue 15: the
// plugin rejects nvcc flags such as --extended-lambda).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_COMMANDEXPORT_H
#define CUDA_TIDY_TOOL_DRIVER_COMMANDEXPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace clang::tooling {
class CompilationDatabase;
}

namespace clang::tidy::cuda::driver {

/// Writes the commands \p Commands gives for each of \p Files (each file
/// once, in order) to \p Dir/compile_commands.json, through a temporary file
/// renamed into place, so a reader never sees half a database. \p Dir is
/// created if missing (llvm::writeToOutput). Returns the number of commands
/// written.
llvm::Expected<size_t>
exportCompileCommands(const tooling::CompilationDatabase &Commands,
                      llvm::ArrayRef<std::string> Files, llvm::StringRef Dir);

} // namespace clang::tidy::cuda::driver

#endif
