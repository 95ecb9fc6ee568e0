//===--- CudaCompilationDatabase.cpp - compile commands for CUDA files ----===//

#include "tool/driver/CudaCompilationDatabase.h"
#include "tool/driver/NvccCompat.h"
#include "tool/compdb/NvccCommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::cuda::driver {

CudaCompilationDatabase::CudaCompilationDatabase(
    std::unique_ptr<tooling::CompilationDatabase> Project,
    CommandSettings Settings)
    : Project(std::move(Project)), Settings(std::move(Settings)) {
  // Read once, here: the fallback command is asked for from worker threads.
  if (llvm::sys::fs::current_path(WorkingDir))
    WorkingDir = ".";
}

std::string CudaCompilationDatabase::absoluteName(StringRef Path) const {
  llvm::SmallString<256> Absolute(Path);
  if (!llvm::sys::path::is_absolute(Absolute))
    llvm::sys::path::make_absolute(WorkingDir, Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
  return Absolute.str().str();
}

tooling::CompileCommand
CudaCompilationDatabase::fallbackCommand(StringRef FilePath) const {
  std::vector<std::string> Args = {"clang++"};
  llvm::append_range(Args, Settings.FallbackFlags);
  Args.push_back(FilePath.str());
  return tooling::CompileCommand(WorkingDir, FilePath, std::move(Args), "");
}

void CudaCompilationDatabase::adjust(tooling::CompileCommand &Command,
                                     CudaPass Pass) const {
  std::vector<std::string> &Args = Command.CommandLine;
  if (Args.empty())
    return;
  // CMake writes nvcc command lines; clang needs its own spelling of them,
  // and one device compilation, for the highest arch the build asks for.
  if (compdb::isNvccCommand(Args)) {
    compdb::TranslationOptions Options;
    if (Settings.Toolkit)
      Options.CudaPath = Settings.Toolkit->Path;
    Options.DefaultArch = Settings.GpuArch;
    compdb::TranslatedCommand Translated =
        compdb::translateNvccCommand(Args, Command.Directory, Options);
    Args = Translated.HighestArch.empty()
               ? std::move(Translated.Arguments)
               : compdb::restrictToGpuArch(Translated.Arguments,
                                           Translated.HighestArch);
  }
  // --cuda-gpu-arch on cuda-tidy's command line wins over the command's
  // architectures (issue 15: a 75...120 build was always analyzed as
  // sm_120, and nothing selected sm_90).
  if (Settings.GpuArchExplicit && isCudaCommand(Args, Command.Filename)) {
    llvm::erase_if(Args, [](const std::string &A) {
      return llvm::StringRef(A).starts_with("--offload-arch=");
    });
    Args = compdb::restrictToGpuArch(Args, Settings.GpuArch);
  }
  // --extra-arg-before goes right after the driver, --extra-arg before the
  // file name (before the `--` that precedes it in an interpolated command),
  // as clang-tidy places them.
  Args.insert(Args.begin() + 1, Settings.ExtraArgsBefore.begin(),
              Settings.ExtraArgsBefore.end());
  auto FileArg = llvm::find(Args, "--");
  if (FileArg == Args.end())
    FileArg = llvm::find(Args, Command.Filename);
  Args.insert(FileArg, Settings.ExtraArgs.begin(), Settings.ExtraArgs.end());
  addCudaDefaults(Args, Command.Filename, Settings.Toolkit, Pass,
                  Settings.GpuArch);
  addNvccCompat(Args, Command.Filename, Settings.CompatHeader,
                Settings.HostCompilerIncludeDir);
  // The resource dir (clang's builtin and CUDA wrapper headers) is found
  // relative to the running binary, which for cuda-tidy is not clang's.
  if (!Settings.ResourceDir.empty() &&
      llvm::none_of(Args, [](const std::string &A) {
        return llvm::StringRef(A).starts_with("-resource-dir");
      }))
    Args.insert(Args.begin() + 1, "-resource-dir=" + Settings.ResourceDir);
}

std::vector<tooling::CompileCommand>
CudaCompilationDatabase::getCompileCommands(StringRef FilePath) const {
  std::vector<tooling::CompileCommand> Commands;
  if (Project)
    Commands = Project->getCompileCommands(FilePath);
  if (Commands.empty()) {
    if (Project) {
      std::scoped_lock Lock(Mutex);
      Unknown.emplace(absoluteName(FilePath), "the default CUDA flags");
    }
    Commands.push_back(fallbackCommand(FilePath));
  } else if (llvm::all_of(Commands, [](const tooling::CompileCommand &C) {
               return !C.Heuristic.empty();
             })) {
    // clang's interpolation: the command of the nearest file it knows, with
    // the file name swapped (Heuristic says "inferred from <file>").
    llvm::StringRef From(Commands.front().Heuristic);
    From.consume_front("inferred from ");
    std::scoped_lock Lock(Mutex);
    Unknown.emplace(absoluteName(FilePath),
                    "the flags of '" + From.str() + "'");
  }
  // A file the database names relative to its command's directory is named
  // absolutely: findings and fixes then name a path that works from the
  // folder cuda-tidy runs in, not only from the build folder.
  for (tooling::CompileCommand &Command : Commands) {
    if (!llvm::sys::path::is_absolute(Command.Directory))
      continue;
    auto AgainstDirectory = [&](llvm::StringRef Path) {
      llvm::SmallString<256> Absolute(Path);
      llvm::sys::path::make_absolute(Command.Directory, Absolute);
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
      return Absolute.str().str();
    };
    const std::string File = AgainstDirectory(Command.Filename);
    for (size_t I = 1; I < Command.CommandLine.size(); ++I) {
      std::string &Arg = Command.CommandLine[I];
      if (!Arg.empty() && Arg[0] != '-' &&
          !llvm::sys::path::is_absolute(Arg) &&
          Command.CommandLine[I - 1] != "-o" && AgainstDirectory(Arg) == File)
        Arg = File;
    }
    Command.Filename = File;
  }
  if (Settings.Pass != CudaPass::Both) {
    for (tooling::CompileCommand &Command : Commands)
      adjust(Command, Settings.Pass);
    return Commands;
  }
  // Both sides: each CUDA command twice, device first. A command that
  // already names its side, or is not CUDA, stays one.
  std::vector<tooling::CompileCommand> Split;
  for (tooling::CompileCommand &Command : Commands) {
    tooling::CompileCommand Host = Command;
    adjust(Command, CudaPass::Device);
    const bool Cuda = isCudaCommand(Command.CommandLine, Command.Filename);
    Split.push_back(std::move(Command));
    if (!Cuda || namesCudaPass(Host.CommandLine))
      continue;
    adjust(Host, CudaPass::Host);
    Split.push_back(std::move(Host));
  }
  return Split;
}

std::vector<std::string> CudaCompilationDatabase::getAllFiles() const {
  return Project ? Project->getAllFiles() : std::vector<std::string>{};
}

std::vector<tooling::CompileCommand>
CudaCompilationDatabase::getAllCompileCommands() const {
  std::vector<tooling::CompileCommand> Commands;
  for (const std::string &File : getAllFiles())
    llvm::append_range(Commands, getCompileCommands(File));
  return Commands;
}

std::vector<std::pair<std::string, std::string>>
CudaCompilationDatabase::filesWithoutProjectCommand() const {
  std::scoped_lock Lock(Mutex);
  return {Unknown.begin(), Unknown.end()};
}

std::optional<std::string>
CudaCompilationDatabase::commandOrigin(StringRef File) const {
  std::scoped_lock Lock(Mutex);
  auto It = Unknown.find(absoluteName(File));
  if (It == Unknown.end())
    return std::nullopt;
  return It->second;
}

bool CudaCompilationDatabase::hasProjectCommand(StringRef File) const {
  if (!Project)
    return false;
  return llvm::any_of(Project->getCompileCommands(File),
                      [](const tooling::CompileCommand &C) {
                        return C.Heuristic.empty();
                      });
}

} // namespace clang::tidy::cuda::driver
