//===--- CompilerLauncher.cpp - cuda-tidy as a compiler launcher ----------===//

#include "tool/driver/run/CompilerLauncher.h"
#include "tool/driver/ExitCodes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::cuda::driver {

static bool isSourceFile(llvm::StringRef Arg) {
  llvm::StringRef Ext = llvm::sys::path::extension(Arg);
  return Ext == ".cu" || Ext == ".cuh" || Ext == ".cpp" || Ext == ".cc" ||
         Ext == ".cxx" || Ext == ".c";
}

/// \p Arg names the compiler: an executable file, as a path, or a bare
/// name found on PATH (`--launcher nvcc ...`); the path to run, else none.
static std::optional<std::string> compilerPath(llvm::StringRef Arg) {
  if (Arg.empty() || Arg.starts_with("-"))
    return std::nullopt;
  if (llvm::sys::path::has_parent_path(Arg)) {
    if (llvm::sys::fs::can_execute(Arg) && !llvm::sys::fs::is_directory(Arg))
      return Arg.str();
    return std::nullopt;
  }
  // A bare name is looked up on PATH, as the shell and CMake would, not in
  // the working folder (issue 16 F21).
  if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Arg))
    return *Found;
  return std::nullopt;
}

std::optional<LauncherInvocation>
parseLauncherInvocation(llvm::ArrayRef<const char *> Argv) {
  // --launcher may come anywhere among cuda-tidy's own options, before the
  // compiler (and before any `--`, after which flags are compile flags).
  size_t Launcher = 0;
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--")
      return std::nullopt;
    if (Arg == "--launcher" || Arg == "-launcher") {
      Launcher = I;
      break;
    }
  }
  if (!Launcher)
    return std::nullopt;
  LauncherInvocation Invocation;
  for (size_t I = 1; I < Launcher; ++I)
    Invocation.TidyArgs.emplace_back(Argv[I]);
  size_t I = Launcher + 1;
  std::optional<std::string> Compiler;
  for (; I < Argv.size(); ++I) {
    llvm::StringRef Arg = Argv[I];
    Compiler = compilerPath(Arg);
    if (Compiler)
      break;
    Invocation.TidyArgs.push_back(Arg.str());
  }
  for (; I < Argv.size(); ++I)
    Invocation.Compiler.emplace_back(Argv[I]);
  if (Compiler)
    Invocation.Compiler.front() = *Compiler;
  for (size_t J = 1; J < Invocation.Compiler.size(); ++J) {
    llvm::StringRef Arg = Invocation.Compiler[J];
    llvm::StringRef Previous = Invocation.Compiler[J - 1];
    // The value of -o, -MF, -x, ... is not the input.
    if (!Arg.starts_with("-") && isSourceFile(Arg) && Previous != "-o" &&
        Previous != "-MF" && Previous != "-MT" && Previous != "-x") {
      Invocation.Source = Arg.str();
      break;
    }
  }
  return Invocation;
}

static int runCompiler(const std::vector<std::string> &Compiler) {
  std::vector<llvm::StringRef> Args(Compiler.begin(), Compiler.end());
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(Compiler.front(), Args, std::nullopt,
                                         {}, 0, 0, &Error);
  if (Status < 0) {
    llvm::errs() << "cuda-tidy --launcher: cannot run '" << Compiler.front()
                 << "': " << Error << "\n";
    return 1;
  }
  return Status;
}

int runAsCompilerLauncher(const LauncherInvocation &Invocation,
                          llvm::StringRef Self) {
  if (Invocation.Compiler.empty()) {
    llvm::errs() << "cuda-tidy --launcher: no compiler command follows "
                    "(expected: cuda-tidy --launcher [options] <compiler> "
                    "<args>)\n";
    return ExitUsageError;
  }
  // Under a gate (--warnings-as-errors) every file must be checked: a lint
  // that did not give its verdict fails the step as a finding would have
  // (issue 16 F8: a signal; issue 38 G2: a malformed configuration, exit 2,
  // or a file that does not compile or was abandoned over a budget, exit 3).
  // Else the build goes on, with a warning.
  const bool Gate =
      llvm::any_of(Invocation.TidyArgs, [](const std::string &A) {
        return llvm::StringRef(A).starts_with("--warnings-as-errors") ||
               llvm::StringRef(A).starts_with("-warnings-as-errors");
      });
  // Not run until it is: a lint that could not be set up is no verdict.
  int LintStatus = -1;
  // Compiler probes (version checks, linking) have no CUDA source: only
  // compile.
  if (!Invocation.Source.empty()) {
    llvm::SmallString<128> Dir;
    if (!llvm::sys::fs::createUniqueDirectory("cuda-tidy-launcher", Dir)) {
      llvm::SmallString<256> Cwd;
      // Without a working directory the entry keeps the relative paths the
      // compiler was given, which still resolve from where it runs.
      if (llvm::sys::fs::current_path(Cwd))
        Cwd = ".";
      llvm::SmallString<256> Source(Invocation.Source);
      (void)llvm::sys::fs::make_absolute(Source);
      llvm::json::Array Arguments;
      for (const std::string &A : Invocation.Compiler)
        Arguments.push_back(A);
      llvm::json::Value Database = llvm::json::Array{llvm::json::Object{
          {"directory", Cwd.str()},
          {"file", Source.str()},
          {"arguments", std::move(Arguments)}}};
      llvm::SmallString<256> DbPath(Dir);
      llvm::sys::path::append(DbPath, "compile_commands.json");
      std::error_code EC;
      {
        llvm::raw_fd_ostream OS(DbPath, EC);
        if (!EC)
          OS << Database;
      }
      if (!EC) {
        std::vector<std::string> Lint = {Self.str(), "-p", Dir.str().str()};
        Lint.insert(Lint.end(), Invocation.TidyArgs.begin(),
                    Invocation.TidyArgs.end());
        Lint.push_back(Source.str().str());
        std::vector<llvm::StringRef> Args(Lint.begin(), Lint.end());
        LintStatus = llvm::sys::ExecuteAndWait(Self, Args);
      }
      // Best effort: a leftover in the temporary folder harms nothing.
      (void)llvm::sys::fs::remove(DbPath);
      (void)llvm::sys::fs::remove(Dir);
    }
    if (LintStatus != ExitSuccess && LintStatus != ExitFindingsAsErrors) {
      // The lint printed its own reason above this line.
      std::string Why;
      if (LintStatus == -2)
        Why = "did not finish (killed by a signal)";
      else if (LintStatus < 0)
        Why = "did not finish (could not run)";
      else if (LintStatus == ExitUsageError)
        Why = "could not run (exit 2: bad usage or configuration)";
      else if (LintStatus == ExitAnalysisFailed)
        Why = "failed (exit 3: the file does not compile, or its analysis "
              "was abandoned over --file-time-limit or --file-memory-limit)";
      else
        Why = "failed (exit " + std::to_string(LintStatus) + ")";
      llvm::errs() << "cuda-tidy --launcher: the analysis of '"
                   << Invocation.Source << "' " << Why
                   << (Gate ? "; failing this step, as --warnings-as-errors "
                              "asks for every file to be checked\n"
                            : "; compiling it anyway\n");
      // A gate fails with the lint's own status where it has one (2 or 3),
      // else as a finding would have.
      if (!Gate)
        LintStatus = ExitSuccess;
      else if (LintStatus != ExitUsageError &&
               LintStatus != ExitAnalysisFailed)
        LintStatus = ExitFindingsAsErrors;
    }
  } else {
    LintStatus = ExitSuccess;
  }
  int CompileStatus = runCompiler(Invocation.Compiler);
  if (CompileStatus != 0)
    return CompileStatus;
  return LintStatus;
}

} // namespace clang::tidy::cuda::driver
