//===--- HeaderPairing.cpp - a translation unit for a header --------------===//

#include "tool/driver/config/HeaderPairing.h"
#include "tool/driver/config/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::cuda::driver {

bool isHeaderPath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  static constexpr llvm::StringLiteral Headers[] = {
      ".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".inl", ".ipp", ".tcc"};
  return llvm::any_of(Headers, [&](llvm::StringRef Header) {
    return Ext.equals_insensitive(Header);
  });
}

bool usesCudaKeywords(llvm::StringRef Text) {
  static constexpr llvm::StringLiteral Keywords[] = {
      "__global__",       "__device__",        "__host__",
      "__shared__",       "__constant__",      "__managed__",
      "__launch_bounds__", "__grid_constant__", "__cluster_dims__"};
  auto IsWordChar = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  for (llvm::StringRef Keyword : Keywords)
    for (size_t At = Text.find(Keyword); At != llvm::StringRef::npos;
         At = Text.find(Keyword, At + 1)) {
      const size_t End = At + Keyword.size();
      if ((At == 0 || !IsWordChar(Text[At - 1])) &&
          (End == Text.size() || !IsWordChar(Text[End])))
        return true;
    }
  return false;
}

bool isCudaHeader(llvm::StringRef Path) {
  if (!isHeaderPath(Path))
    return false;
  if (llvm::sys::path::extension(Path).equals_insensitive(".cuh"))
    return true;
  // A generated header of many megabytes is read no further than this.
  constexpr uint64_t MaxBytes = 16u << 20;
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Path, Status) ||
      Status.type() != llvm::sys::fs::file_type::regular_file ||
      Status.getSize() > MaxBytes)
    return false;
  auto Text = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  return Text && usesCudaKeywords((*Text)->getBuffer());
}

std::string fileIdentity(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> Absolute(Path);
  if (!llvm::sys::path::is_absolute(Absolute)) {
    if (!Base.empty())
      llvm::sys::path::make_absolute(Base, Absolute);
    else
      (void)llvm::sys::fs::make_absolute(Absolute); // else relative: a key
  }
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Absolute, Real))
    return Real.str().str();
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return Absolute.str().str();
}

std::vector<std::string> includeSpellings(llvm::StringRef Text) {
  std::vector<std::string> Spellings;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    if (!Line.consume_front("include_next") && !Line.consume_front("include") &&
        !Line.consume_front("import"))
      continue;
    Line = Line.ltrim(" \t");
    if (Line.empty() || (Line.front() != '"' && Line.front() != '<'))
      continue;
    const char Close = Line.front() == '"' ? '"' : '>';
    Line = Line.drop_front();
    size_t End = Line.find(Close);
    if (End == llvm::StringRef::npos || End == 0)
      continue;
    Spellings.push_back(Line.take_front(End).str());
  }
  return Spellings;
}

std::vector<std::string>
includeFolders(const tooling::CompileCommand &Command) {
  // The flags, in the order clang searches them for a quoted include.
  const llvm::StringRef Kinds[] = {"-iquote", "-I", "-isystem", "-idirafter"};
  std::vector<std::vector<std::string>> ByKind(std::size(Kinds));
  const std::vector<std::string> &Args = Command.CommandLine;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--")
      break;
    std::string Spelled = Arg.str();
    if (Arg.consume_front("--include-directory="))
      Spelled = "-I" + Arg.str();
    Arg = Spelled;
    for (size_t K = 0; K < std::size(Kinds); ++K) {
      if (!Arg.starts_with(Kinds[K]))
        continue;
      llvm::StringRef Value = Arg.drop_front(Kinds[K].size());
      if (Value.empty()) {
        if (I + 1 >= Args.size())
          break;
        Value = Args[++I];
      }
      llvm::SmallString<256> Folder(Value);
      if (!llvm::sys::path::is_absolute(Folder))
        llvm::sys::path::make_absolute(Command.Directory, Folder);
      ByKind[K].push_back(Folder.str().str());
      break;
    }
  }
  std::vector<std::string> Folders;
  for (std::vector<std::string> &Kind : ByKind)
    llvm::append_range(Folders, Kind);
  return Folders;
}

std::optional<std::string>
findIncludingFile(const tooling::CompilationDatabase &Database,
                  llvm::StringRef Header, bool CudaIncluderOnly) {
  const std::string HeaderId = fileIdentity(Header);
  const std::string Name = llvm::sys::path::filename(Header).str();
  std::vector<std::string> Files = Database.getAllFiles();
  // The path breaks ties: the order is total, no stable sort needed.
  llvm::sort(Files, [](const std::string &A, const std::string &B) {
    return std::make_pair(!isCudaSourcePath(A) || isHeaderPath(A), A) <
           std::make_pair(!isCudaSourcePath(B) || isHeaderPath(B), B);
  });
  // A generated or vendored file of many megabytes is no source to pair.
  constexpr uint64_t MaxBytes = 16u << 20;
  for (const std::string &File : Files) {
    if (fileIdentity(File) == HeaderId)
      continue;
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(File, Status) ||
        Status.type() != llvm::sys::fs::file_type::regular_file ||
        Status.getSize() > MaxBytes)
      continue;
    auto Text = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!Text || !(*Text)->getBuffer().contains(Name))
      continue;
    std::vector<std::string> Candidates;
    for (const std::string &Spelling : includeSpellings((*Text)->getBuffer()))
      if (llvm::sys::path::filename(Spelling) == Name)
        Candidates.push_back(Spelling);
    if (Candidates.empty())
      continue;
    const std::vector<tooling::CompileCommand> Commands =
        Database.getCompileCommands(File);
    if (CudaIncluderOnly &&
        llvm::none_of(Commands, [](const tooling::CompileCommand &Command) {
          return isCudaCommand(Command.CommandLine, Command.Filename);
        }))
      continue;
    std::vector<std::string> Folders = {
        llvm::sys::path::parent_path(File).str()};
    for (const tooling::CompileCommand &Command : Commands)
      llvm::append_range(Folders, includeFolders(Command));
    for (const std::string &Spelling : Candidates) {
      if (llvm::sys::path::is_absolute(Spelling)) {
        if (fileIdentity(Spelling) == HeaderId)
          return File;
        continue;
      }
      for (const std::string &Folder : Folders) {
        llvm::SmallString<256> Candidate(Folder);
        llvm::sys::path::append(Candidate, Spelling);
        if (llvm::sys::fs::exists(Candidate) &&
            fileIdentity(Candidate) == HeaderId)
          return File;
      }
    }
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::driver
