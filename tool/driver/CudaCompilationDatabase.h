//===--- CudaCompilationDatabase.h - compile commands for CUDA files ------===//
//
// Every compile command cuda-tidy runs passes through here: from a project's
// compile database (nvcc lines translated for clang) or, with none, from the
// zero-config defaults; then the CUDA flags a parse needs are added.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_CUDACOMPILATIONDATABASE_H
#define CUDA_TIDY_TOOL_DRIVER_CUDACOMPILATIONDATABASE_H

#include "tool/driver/CudaToolkit.h"

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <mutex>
#include <map>

namespace clang::tidy::cuda::driver {

struct CommandSettings {
  std::optional<CudaToolkit> Toolkit;
  CudaPass Pass = CudaPass::Device;
  std::string GpuArch = DefaultGpuArch.str();
  /// GpuArch was named on the command line: it replaces the architectures
  /// of every compile command, not only where none is named.
  bool GpuArchExplicit = false;
  std::string ResourceDir;                ///< clang's builtin headers.
  std::vector<std::string> FallbackFlags; ///< Flags after `--`.
  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> ExtraArgs;
  /// Included first in every CUDA command (NvccCompat); empty: none.
  std::string CompatHeader;
  /// Searched after every other include folder (NvccCompat); empty: none.
  std::string HostCompilerIncludeDir;
};

class CudaCompilationDatabase : public tooling::CompilationDatabase {
public:
  /// \p Project may be null: then every file gets the fallback command.
  CudaCompilationDatabase(std::unique_ptr<tooling::CompilationDatabase> Project,
                          CommandSettings Settings);

  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;
  std::vector<tooling::CompileCommand> getAllCompileCommands() const override;

  /// Files the project database did not know, which got the fallback or a
  /// command inferred from another file's (clang's interpolation), each
  /// with where its command came from ("the default CUDA flags", "the flags
  /// of 'src/a.cu'").
  std::vector<std::pair<std::string, std::string>>
  filesWithoutProjectCommand() const;

  /// Where \p File's command came from when the project database did not
  /// know it (as filesWithoutProjectCommand() says it); none when it did,
  /// or when \p File was not asked for yet.
  std::optional<std::string> commandOrigin(StringRef File) const;

  /// True when the project database holds a command of its own for \p File
  /// (not one inferred from another file's).
  bool hasProjectCommand(StringRef File) const;

  /// The project database, or null.
  const tooling::CompilationDatabase *project() const { return Project.get(); }

private:
  tooling::CompileCommand fallbackCommand(StringRef FilePath) const;
  /// \p Path absolute against the working folder, without "." parts.
  std::string absoluteName(StringRef Path) const;
  void adjust(tooling::CompileCommand &Command, CudaPass Pass) const;

  std::unique_ptr<tooling::CompilationDatabase> Project;
  CommandSettings Settings;
  llvm::SmallString<256> WorkingDir; ///< The process's, at construction.
  mutable std::mutex Mutex;
  mutable std::map<std::string, std::string> Unknown;
};

} // namespace clang::tidy::cuda::driver

#endif
