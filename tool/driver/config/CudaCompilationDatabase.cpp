//===--- CudaCompilationDatabase.cpp - compile commands for CUDA files ----===//

#include "tool/driver/config/CudaCompilationDatabase.h"
#include "tool/driver/config/HeaderPairing.h"
#include "tool/driver/config/NvccCompat.h"
#include "tool/compdb/NvccCommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace clang::tidy::cuda::driver {

namespace {

/// cc1 options, passed with -Xclang, that write a file: joined (`=value`)
/// or separate (the value in the next -Xclang).
bool isWritingCc1Option(llvm::StringRef A, bool &TakesNext) {
  TakesNext = false;
  for (llvm::StringRef Joined :
       {"-stats-file=", "-ftime-trace=", "-fmodules-cache-path=",
        "-header-include-file=", "-o="}) // (-o= is no cc1 spelling; harmless)
    if (A.starts_with(Joined))
      return true;
  for (llvm::StringRef Separate :
       {"-o", "-dependency-file", "-header-include-file",
        "-serialize-diagnostic-file", "-dependency-dot", "-module-dependency-dir",
        "-diagnostic-log-file", "-stats-file", "-dump-deps"})
    if (A == Separate) {
      TakesNext = A != "-dump-deps";
      return true;
    }
  // -emit-pch, -emit-module, -emit-obj...: another action, with an output.
  return A.starts_with("-emit-") || A == "-ftime-trace";
}

enum class Writes { No, Output, Other };

/// Whether a driver flag (alone, or joined with its value) writes a file;
/// \p TakesNext: its value is the next argument.
Writes writingDriverFlag(llvm::StringRef A, bool &TakesNext) {
  TakesNext = false;
  if (A == "-o" || A == "--output" || A == "-MF" || A == "-MJ" ||
      A == "--serialize-diagnostics" || A == "-serialize-diagnostics" ||
      A == "-dumpdir") {
    TakesNext = true;
    return A == "-o" || A == "--output" || A == "-MF" ? Writes::Output
                                                       : Writes::Other;
  }
  if (A == "-MD" || A == "-MMD" || A == "--write-dependencies" ||
      A == "--write-user-dependencies" ||
      (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-obj")) ||
      A.starts_with("--output=") ||
      (A.starts_with("-MF") && A.size() > 3))
    return Writes::Output;
  if ((A.starts_with("-MJ") && A.size() > 3) || A == "-ftime-trace" ||
      A.starts_with("-ftime-trace=") || A == "-save-temps" ||
      A == "--save-temps" || A.starts_with("-save-temps=") ||
      A == "-save-stats" || A == "--save-stats" ||
      A.starts_with("-save-stats=") || A.starts_with("-fproc-stat-report=") ||
      A.starts_with("-fcrash-diagnostics-dir=") ||
      A.starts_with("-fmodules-cache-path=") ||
      A.starts_with("--serialize-diagnostics="))
    return Writes::Other;
  return Writes::No;
}

/// True when a project command compiles its file as CUDA: an nvcc line, or
/// a clang one with `-x cuda` or a .cu file.
bool compilesCuda(const tooling::CompileCommand &Command) {
  return compdb::isNvccCommand(Command.CommandLine) ||
         isCudaCommand(Command.CommandLine, Command.Filename);
}

/// The entries of a project database that compile CUDA, and only those:
/// what clang's interpolation may pick a donor command from for a file
/// that only parses as CUDA.
class CudaEntriesOf : public tooling::CompilationDatabase {
public:
  explicit CudaEntriesOf(const tooling::CompilationDatabase &Project)
      : Project(Project) {
    for (const std::string &File : Project.getAllFiles())
      if (llvm::any_of(Project.getCompileCommands(File),
                       [](const tooling::CompileCommand &Command) {
                         return Command.Heuristic.empty() &&
                                compilesCuda(Command);
                       }))
        Files.insert(File);
  }

  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef FilePath) const override {
    if (!Files.contains(FilePath))
      return {};
    return Project.getCompileCommands(FilePath);
  }

  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> All;
    for (llvm::StringRef File : Files.keys())
      All.push_back(File.str());
    llvm::sort(All); // StringSet's order is a hash's
    return All;
  }

private:
  const tooling::CompilationDatabase &Project;
  llvm::StringSet<> Files;
};

} // namespace

std::vector<std::string> sanitizeCompileArguments(std::vector<std::string> &Args,
                                                  bool FromBuild) {
  std::vector<std::string> Notes;
  // The driver takes `-Xclang=V` as `-Xclang V`: spelled so, a cc1 output
  // flag went through (issue 38 G5). Split it, and check it as the other.
  // (Not the value of an -X option: `-Xarch_device -Xclang=V` stays whole.)
  for (size_t I = 1; I < Args.size() && Args[I] != "--"; ++I)
    if (llvm::StringRef(Args[I]).starts_with("-Xclang=") &&
        !llvm::StringRef(Args[I - 1]).starts_with("-X")) {
      std::string Value = Args[I].substr(strlen("-Xclang="));
      Args[I] = "-Xclang";
      Args.insert(Args.begin() + static_cast<std::ptrdiff_t>(I) + 1,
                  std::move(Value));
      ++I;
    }
  std::vector<std::string> Out;
  Out.reserve(Args.size());
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (I == 0 || A == "--") {
      if (A == "--") {
        Out.insert(Out.end(),
                   std::next(Args.begin(), static_cast<std::ptrdiff_t>(I)),
                   Args.end());
        break;
      }
      Out.push_back(A);
      continue;
    }
    llvm::StringRef Arg(A);
    // -fbracket-depth=N (driver) and -Xclang -fbracket-depth -Xclang N; the
    // constexpr and template depths the same way (issue 38 G6: a constexpr
    // recursion 100,000 deep under -fconstexpr-depth=300000 overflowed the
    // stack and took every file's findings; 50,000 passed).
    bool Capped = false;
    for (llvm::StringRef Flag :
         {"-fbracket-depth=", "-fconstexpr-depth=", "-ftemplate-depth="}) {
      llvm::StringRef Value = Arg;
      if (!Value.consume_front(Flag))
        continue;
      unsigned long long N = 0;
      if (!Value.getAsInteger(10, N) && N > MaxBracketDepth) {
        Notes.push_back("lowered '" + A + "' to " + Flag.str() +
                        std::to_string(MaxBracketDepth) +
                        ": deeper nesting would overflow the stack");
        Out.push_back(Flag.str() + std::to_string(MaxBracketDepth));
      } else {
        Out.push_back(A);
      }
      Capped = true;
      break;
    }
    if (Capped)
      continue;
    if (A == "-Xclang" && I + 1 < Args.size()) {
      llvm::StringRef Value(Args[I + 1]);
      bool TakesNext = false;
      if (Value == "-fbracket-depth" && I + 3 < Args.size() &&
          Args[I + 2] == "-Xclang") {
        unsigned long long N = 0;
        if (!llvm::StringRef(Args[I + 3]).getAsInteger(10, N) &&
            N > MaxBracketDepth) {
          Notes.push_back("lowered '-Xclang -fbracket-depth -Xclang " +
                          Args[I + 3] + "' to " +
                          std::to_string(MaxBracketDepth) +
                          ": deeper nesting would overflow the stack");
          Out.insert(Out.end(), {"-Xclang", "-fbracket-depth", "-Xclang",
                                 std::to_string(MaxBracketDepth)});
          I += 3;
          continue;
        }
      }
      // The cc1 spellings of the constexpr and template depths, which take
      // only `=N` (`-Xclang -fconstexpr-depth=300000` crashed the run as
      // the driver flag did; the separate `-fconstexpr-depth N` is not a
      // cc1 flag: clang's own "unknown argument" error, exit 3, no crash).
      bool LoweredCc1 = false;
      for (llvm::StringRef Flag : {"-fconstexpr-depth=", "-ftemplate-depth="}) {
        llvm::StringRef Depth = Value;
        unsigned long long N = 0;
        if (!Depth.consume_front(Flag) || Depth.getAsInteger(10, N) ||
            N <= MaxBracketDepth)
          continue;
        Notes.push_back("lowered '-Xclang " + Value.str() + "' to " +
                        Flag.str() + std::to_string(MaxBracketDepth) +
                        ": deeper nesting would overflow the stack");
        Out.insert(Out.end(),
                   {"-Xclang", Flag.str() + std::to_string(MaxBracketDepth)});
        ++I;
        LoweredCc1 = true;
        break;
      }
      if (LoweredCc1)
        continue;
      if (isWritingCc1Option(Value, TakesNext)) {
        std::string Dropped = "-Xclang " + Value.str();
        ++I;
        if (TakesNext && I + 2 < Args.size() && Args[I + 1] == "-Xclang") {
          Dropped += " -Xclang " + Args[I + 2];
          I += 2;
        }
        Notes.push_back("dropped '" + Dropped + "': it makes the compiler "
                        "write a file");
        continue;
      }
      Out.push_back(A);
      Out.push_back(Args[I + 1]);
      ++I;
      continue;
    }
    // A configuration file (`--config=F`, and the folders clang looks for
    // one in) holds flags no one here checks: its `-Xclang -stats-file=F`
    // or `-MD -MF F` wrote files (issue 38 G5).
    if (Arg == "--config" || Arg.starts_with("--config=") ||
        Arg == "--config-system-dir" || Arg.starts_with("--config-system-dir=") ||
        Arg == "--config-user-dir" || Arg.starts_with("--config-user-dir=")) {
      std::string Dropped = A;
      if (!Arg.contains('=') && I + 1 < Args.size()) {
        Dropped += " " + Args[I + 1];
        ++I;
      }
      Notes.push_back("dropped '" + Dropped + "': its configuration file's "
                      "flags are not checked for ones that write files");
      continue;
    }
    // Preprocessor flags the driver passes on (`-Wp,-MD,F`,
    // `-Xpreprocessor -MD`): checked as driver and cc1 flags are (issue 38
    // G5: `-Wp,-MD,F` and `-Wp,-MMD,F` wrote F).
    if (Arg.starts_with("-Wp,") ||
        (Arg == "-Xpreprocessor" && I + 1 < Args.size())) {
      llvm::SmallVector<llvm::StringRef, 4> Pieces;
      std::string Dropped = A;
      if (Arg == "-Xpreprocessor") {
        Pieces.push_back(Args[I + 1]);
        Dropped += " " + Args[I + 1];
      } else {
        Arg.drop_front(strlen("-Wp,")).split(Pieces, ',');
      }
      Writes W = Writes::No;
      for (llvm::StringRef Piece : Pieces) {
        bool Unused = false;
        const Writes P = writingDriverFlag(Piece, Unused);
        if (P == Writes::Other || isWritingCc1Option(Piece, Unused))
          W = Writes::Other;
        else if (P == Writes::Output && W == Writes::No)
          W = Writes::Output;
      }
      if (W == Writes::No) {
        Out.push_back(A);
        continue;
      }
      // (-Xpreprocessor -MF -Xpreprocessor F: the value goes too.)
      if (Arg == "-Xpreprocessor") {
        ++I;
        bool TakesNext = false;
        (void)writingDriverFlag(Args[I], TakesNext);
        if (TakesNext && I + 2 < Args.size() &&
            Args[I + 1] == "-Xpreprocessor") {
          Dropped += " -Xpreprocessor " + Args[I + 2];
          I += 2;
        }
      }
      if (W == Writes::Other || !FromBuild)
        Notes.push_back("dropped '" + Dropped +
                        "': it makes the compiler write a file");
      continue;
    }
    // -Xarch_device -ftime-trace and the like: the flag is the next one.
    if (Arg.starts_with("-Xarch_") && I + 1 < Args.size()) {
      // `-Xarch_device -Xclang=-x`: the driver's "invalid Xarch argument"
      // crashed clang-tidy's diagnostic consumer, and the whole run with it
      // (issue 38 G6; clang-tidy-22 crashes the same way).
      if (llvm::StringRef(Args[I + 1]).starts_with("-Xclang")) {
        Notes.push_back("dropped '" + A + " " + Args[I + 1] +
                        "': -Xclang cannot be passed through -Xarch_");
        ++I;
        continue;
      }
      bool TakesNext = false;
      if (writingDriverFlag(Args[I + 1], TakesNext) != Writes::No) {
        Notes.push_back("dropped '" + A + " " + Args[I + 1] +
                        "': it makes the compiler write a file");
        ++I;
        continue;
      }
      Out.push_back(A);
      continue;
    }
    bool TakesNext = false;
    Writes W = writingDriverFlag(Arg, TakesNext);
    if (W == Writes::No) {
      Out.push_back(A);
      continue;
    }
    std::string Dropped = A;
    if (TakesNext && I + 1 < Args.size()) {
      Dropped += " " + Args[I + 1];
      ++I;
    }
    if (W == Writes::Other || !FromBuild)
      Notes.push_back("dropped '" + Dropped +
                      "': it makes the compiler write a file");
  }
  Args = std::move(Out);
  return Notes;
}

void warnSanitizedArguments(llvm::StringRef Where,
                            llvm::ArrayRef<std::string> Notes) {
  static std::mutex Mutex;
  static llvm::StringSet<> Said;
  for (const std::string &Note : Notes) {
    std::scoped_lock Lock(Mutex);
    // Once per run: the same flag in every command is one warning, naming
    // the first place it came from.
    if (!Said.insert(Note).second)
      continue;
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << Note << " (" << Where << ")\n";
  }
}

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
  // clang++ parses a .h as C++; one of device code only parses as CUDA
  // (addCudaDefaults names the language of a .cuh). A language the user
  // named after `--` wins.
  if (isHeaderPath(FilePath) && !isCudaSourcePath(FilePath) &&
      needsCuda(FilePath) &&
      llvm::none_of(Settings.FallbackFlags, [](const std::string &A) {
        return llvm::StringRef(A).starts_with("-x");
      }))
    Args.insert(Args.end(), {"-x", "cuda"});
  Args.push_back(FilePath.str());
  return tooling::CompileCommand(WorkingDir, FilePath, std::move(Args), "");
}

bool CudaCompilationDatabase::needsCuda(StringRef File) const {
  if (isCudaSourcePath(File))
    return true;
  const std::string Name = absoluteName(File);
  {
    std::scoped_lock Lock(Mutex);
    auto Known = NeedsCuda.find(Name);
    if (Known != NeedsCuda.end())
      return Known->second;
  }
  // Read outside the lock; every thread reads the same answer.
  const bool Cuda = isCudaHeader(Name);
  std::scoped_lock Lock(Mutex);
  NeedsCuda.emplace(Name, Cuda);
  return Cuda;
}

std::vector<tooling::CompileCommand>
CudaCompilationDatabase::inferFromCudaEntries(StringRef File) const {
  if (!Project)
    return {};
  std::call_once(CudaEntriesMade, [this] {
    CudaEntries = tooling::inferMissingCompileCommands(
        std::make_unique<CudaEntriesOf>(*Project));
  });
  return CudaEntries->getCompileCommands(File);
}

void CudaCompilationDatabase::adjust(tooling::CompileCommand &Command,
                                     CudaPass Pass,
                                     llvm::StringRef GpuArch) const {
  std::vector<std::string> &Args = Command.CommandLine;
  if (Args.empty())
    return;
  // CMake writes nvcc command lines; clang needs its own spelling of them,
  // and one device compilation, for the highest arch the build asks for.
  if (compdb::isNvccCommand(Args)) {
    compdb::TranslationOptions Options;
    if (Settings.Toolkit)
      Options.CudaPath = Settings.Toolkit->Path;
    Options.DefaultArch = GpuArch.str();
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
    Args = compdb::restrictToGpuArch(Args, GpuArch.str());
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
  addCudaDefaults(Args, Command.Filename, Settings.Toolkit, Pass, GpuArch);
  addNvccCompat(Args, Command.Filename, Settings.CompatHeader,
                Settings.HostCompilerIncludeDir);
  // Nothing in a compile command may write a file or overflow the stack
  // (issue 16 F7, F11).
  warnSanitizedArguments("in the compile command of '" + Command.Filename + "'",
                         sanitizeCompileArguments(Args, /*FromBuild=*/true));
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
    auto Donor = [](const std::vector<tooling::CompileCommand> &Inferred) {
      llvm::StringRef From(Inferred.front().Heuristic);
      From.consume_front("inferred from ");
      return From.str();
    };
    std::string Origin = "the flags of '" + Donor(Commands) + "'";
    // The nearest file is chosen whatever its language: a .cuh beside the
    // host .cpp that loads it got a C++ command and did not parse (issue
    // 37). A file that only parses as CUDA takes the nearest CUDA file's
    // command, else the default CUDA flags.
    if (needsCuda(FilePath) && llvm::none_of(Commands, compilesCuda)) {
      Commands = inferFromCudaEntries(FilePath);
      if (Commands.empty()) {
        Commands.push_back(fallbackCommand(FilePath));
        Origin = "the default CUDA flags (no file of the database compiles "
                 "CUDA)";
      } else {
        Origin = "the flags of '" + Donor(Commands) +
                 "', the nearest CUDA file of the database";
      }
    }
    std::scoped_lock Lock(Mutex);
    Unknown.emplace(absoluteName(FilePath), std::move(Origin));
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
  // One command per side and device arch. --cuda-pass=both runs each CUDA
  // command twice, device first; --cuda-gpu-arch=A,B runs the device side
  // once per arch, in the order given. A command that already names its
  // side keeps that one; a command that is not CUDA stays one. The file's
  // findings are merged by clang-tidy's diagnostic consumer, which drops
  // the duplicates (TidyRunner runs every command of a file in one tool).
  const std::string &FirstArch = Settings.GpuArchs.front();
  const CudaPass FirstPass =
      Settings.Pass == CudaPass::Both ? CudaPass::Device : Settings.Pass;
  std::vector<tooling::CompileCommand> Split;
  for (tooling::CompileCommand &Command : Commands) {
    const tooling::CompileCommand Original = Command;
    adjust(Command, FirstPass, FirstArch);
    const bool Cuda = isCudaCommand(Command.CommandLine, Command.Filename);
    const bool Device = Cuda && !namesHostPass(Command.CommandLine);
    Split.push_back(std::move(Command));
    if (!Cuda)
      continue;
    if (Device)
      for (const std::string &Arch : llvm::drop_begin(Settings.GpuArchs)) {
        tooling::CompileCommand Other = Original;
        adjust(Other, FirstPass, Arch);
        Split.push_back(std::move(Other));
      }
    if (Settings.Pass != CudaPass::Both || namesCudaPass(Original.CommandLine))
      continue;
    tooling::CompileCommand Host = Original;
    adjust(Host, CudaPass::Host, FirstArch);
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
