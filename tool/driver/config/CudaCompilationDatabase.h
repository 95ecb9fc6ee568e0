//===--- CudaCompilationDatabase.h - compile commands for CUDA files ------===//
//
// Every compile command cuda-tidy runs passes through here: from a project's
// compile database (nvcc lines translated for clang) or, with none, from the
// zero-config defaults; then the CUDA flags a parse needs are added.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_CUDACOMPILATIONDATABASE_H
#define CUDA_TIDY_TOOL_DRIVER_CUDACOMPILATIONDATABASE_H

#include "tool/driver/config/CudaToolkit.h"

#include "clang/Tooling/CompilationDatabase.h"
#include <memory>
#include <mutex>
#include <map>

namespace clang::tidy::cuda::driver {

struct CommandSettings {
  std::optional<CudaToolkit> Toolkit;
  CudaPass Pass = CudaPass::Device;
  /// The architectures the device side is analyzed for, at least one (the
  /// first is also the host side's and the default for a command that names
  /// none). With more than one, each CUDA device command is run once per
  /// arch, as `--cuda-pass=both` runs one per side: a finding several see
  /// is reported once (clang-tidy's diagnostic consumer drops duplicates).
  std::vector<std::string> GpuArchs = {DefaultGpuArch.str()};
  /// GpuArchs were named on the command line: they replace the
  /// architectures of every compile command, not only where none is named.
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

/// The deepest -fbracket-depth a compile may ask for. The parse recurses
/// per bracket level, and a file nested 100,000 deep under
/// -fbracket-depth=1000000 overflowed even the workers' 512 MB stacks,
/// killing the run and every other file's findings (issue 16 F7); 16,384
/// levels of parentheses, braces or nested ifs parse in under 200 MB.
inline constexpr unsigned MaxBracketDepth = 16384;

/// Makes one compile command safe to run (issue 16 F7, F11), from the
/// argument after the compiler up to a `--`:
///  - a -fbracket-depth, -fconstexpr-depth or -ftemplate-depth above
///    MaxBracketDepth is lowered to it (issue 38 G6);
///  - `-Xarch_* -Xclang...` is dropped (its driver error crashed the run);
///  - flags that make the compiler write a file are dropped:
///    `-Xclang -stats-file=F` (or `-Xclang=-stats-file=F`) and the other
///    cc1 outputs passed through -Xclang, --serialize-diagnostics,
///    -ftime-trace, -save-temps, -save-stats, -fproc-stat-report=,
///    -fcrash-diagnostics-dir=, -MJ, -dumpdir, and -o, -MD, -MMD, -MF, also
///    inside `-Wp,` and `-Xpreprocessor`; and `--config` files, whose
///    flags are not seen here (issue 38 G5).
/// Returns a note for each change worth a warning. The outputs every build
/// command has (-o, -MD, -MMD, -MF) are dropped silently when \p FromBuild
/// (clang's tooling drops them from a database's commands anyway), and
/// with a note when they come from a configuration's ExtraArgs.
std::vector<std::string> sanitizeCompileArguments(std::vector<std::string> &Args,
                                                  bool FromBuild);

/// Prints "cuda-tidy: warning: <note> (<where>)" once per run for each
/// note, to stderr. Thread-safe.
void warnSanitizedArguments(llvm::StringRef Where,
                            llvm::ArrayRef<std::string> Notes);

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
  /// True when \p File only parses as CUDA: a .cu, or a CUDA header
  /// (isCudaHeader); remembered per file.
  bool needsCuda(StringRef File) const;
  /// \p File's command inferred by clang's interpolation from the project's
  /// CUDA entries only; empty when the project has none.
  std::vector<tooling::CompileCommand>
  inferFromCudaEntries(StringRef File) const;
  /// \p Path absolute against the working folder, without "." parts.
  std::string absoluteName(StringRef Path) const;
  void adjust(tooling::CompileCommand &Command, CudaPass Pass,
              llvm::StringRef GpuArch) const;

  std::unique_ptr<tooling::CompilationDatabase> Project;
  CommandSettings Settings;
  llvm::SmallString<256> WorkingDir; ///< The process's, at construction.
  mutable std::mutex Mutex;
  mutable std::map<std::string, std::string> Unknown;
  mutable std::map<std::string, bool> NeedsCuda;
  /// The project's CUDA entries behind clang's interpolation, made on first
  /// use (its index costs a pass over the whole database).
  mutable std::once_flag CudaEntriesMade;
  mutable std::unique_ptr<tooling::CompilationDatabase> CudaEntries;
};

} // namespace clang::tidy::cuda::driver

#endif
