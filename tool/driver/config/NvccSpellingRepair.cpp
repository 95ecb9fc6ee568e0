//===--- NvccSpellingRepair.cpp - nvcc spellings clang's parser rejects ---===//

#include "tool/driver/config/NvccSpellingRepair.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::cuda::driver {

namespace {

constexpr size_t None = llvm::StringRef::npos;

bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }
bool isBlank(char C) { return C == ' ' || C == '\t'; }

size_t lineStart(llvm::StringRef Text, size_t Offset) {
  size_t Newline = Text.substr(0, Offset).rfind('\n');
  return Newline == None ? 0 : Newline + 1;
}

/// The position of \p Word in \p Text as a whole word (not part of a longer
/// identifier), the last one; None when absent.
size_t findWord(llvm::StringRef Text, llvm::StringRef Word) {
  for (size_t At = Text.rfind(Word); At != None;
       At = At ? Text.substr(0, At).rfind(Word) : None) {
    const size_t End = At + Word.size();
    if ((At == 0 || !isIdentifierChar(Text[At - 1])) &&
        (End >= Text.size() || !isIdentifierChar(Text[End])))
      return At;
  }
  return None;
}

/// A '"' at \p At that is not escaped by an odd run of backslashes.
bool isQuote(llvm::StringRef Text, size_t At) {
  if (Text[At] != '"')
    return false;
  size_t Backslashes = 0;
  while (Backslashes < At && Text[At - 1 - Backslashes] == '\\')
    ++Backslashes;
  return Backslashes % 2 == 0;
}

/// `__shared__ T name;` where T's constructor or destructor is not empty.
/// The error is at the name. nvcc accepts the declaration; clang has no
/// switch for it (SemaCUDA's checkAllowedInitializer). The object is
/// analyzed as an automatic one: the checks do not model a barrier or
/// pipeline object's memory, and the declaration keeps its length.
std::optional<SpellingRepair> repairSharedObject(llvm::StringRef Text,
                                                 size_t Name) {
  if (Name >= Text.size() || !isIdentifierChar(Text[Name]) ||
      llvm::isDigit(Text[Name]))
    return std::nullopt;
  size_t After = Name;
  while (After < Text.size() && isIdentifierChar(Text[After]))
    ++After;
  while (After < Text.size() && isBlank(Text[After]))
    ++After;
  // One declarator, no array bound, no initialiser of its own.
  if (After >= Text.size() || Text[After] != ';')
    return std::nullopt;
  const size_t Line = lineStart(Text, Name);
  llvm::StringRef Before = Text.slice(Line, Name);
  const size_t Shared = findWord(Before, "__shared__");
  if (Shared == None)
    return std::nullopt;
  SpellingRepair Repair;
  Repair.Edits.push_back({Line + Shared, std::string(10, ' ')});
  // A static local is not allowed in device code unless it is __shared__.
  if (size_t Static = findWord(Before, "static"); Static != None)
    Repair.Edits.push_back({Line + Static, std::string(6, ' ')});
  llvm::sort(Repair.Edits, [](const SpellingEdit &A, const SpellingEdit &B) {
    return A.Offset < B.Offset;
  });
  Repair.What = "a __shared__ object whose constructor or destructor is not "
                "empty (nvcc accepts it; clang does not): analyzed without "
                "__shared__";
  return Repair;
}

/// `%name` in an asm string with no operand: nvcc passes it to PTX as it
/// is (`%globaltimer`), clang reads `%g` as an operand modifier. The same
/// text for clang is `%%name`; the extra '%' takes the place of a blank of
/// the same string (PTX does not care), so no byte outside it moves. The
/// error is at or after the '%'.
std::optional<SpellingRepair> repairAsmPercent(llvm::StringRef Text,
                                               size_t At) {
  if (Text.empty())
    return std::nullopt;
  size_t Percent = None;
  for (size_t I = std::min(At, Text.size() - 1) + 1; I-- > 0;) {
    if (Text[I] == '%') {
      Percent = I;
      break;
    }
    if (Text[I] == '\n' || isQuote(Text, I))
      break;
  }
  if (Percent == None || (Percent > 0 && Text[Percent - 1] == '%') ||
      Percent + 1 >= Text.size() || !llvm::isAlpha(Text[Percent + 1]))
    return std::nullopt;
  size_t Open = None;
  size_t Close = None;
  for (size_t I = Percent; I > 0 && Text[I - 1] != '\n'; --I)
    if (isQuote(Text, I - 1)) {
      Open = I - 1;
      break;
    }
  for (size_t I = Percent + 1; I < Text.size() && Text[I] != '\n'; ++I)
    if (isQuote(Text, I)) {
      Close = I;
      break;
    }
  if (Open == None || Close == None)
    return std::nullopt;
  // The blank to give up: one after a comma first (`%0, %globaltimer`),
  // then one of a run or at an end of the string or after a ';', then any
  // (the one between an opcode and its operands last); the nearest of its
  // kind.
  size_t Blank = None;
  int BestRank = 3;
  size_t BestDistance = None;
  for (size_t I = Open + 1; I < Close; ++I) {
    if (!isBlank(Text[I]))
      continue;
    const char Previous = Text[I - 1];
    const char Next = Text[I + 1];
    const int Rank = Previous == ',' ? 0
                     : (isBlank(Previous) || isBlank(Next) || I == Open + 1 ||
                        I + 1 == Close || Previous == ';')
                         ? 1
                         : 2;
    const size_t Distance = I < Percent ? Percent - I : I - Percent;
    if (Rank < BestRank || (Rank == BestRank && Distance < BestDistance)) {
      Blank = I;
      BestRank = Rank;
      BestDistance = Distance;
    }
  }
  if (Blank == None)
    return std::nullopt;
  SpellingRepair Repair;
  if (Blank < Percent)
    Repair.Edits.push_back(
        {Blank, (Text.slice(Blank + 1, Percent) + "%%").str()});
  else
    Repair.Edits.push_back(
        {Percent, ("%%" + Text.slice(Percent + 1, Blank)).str()});
  const std::string Register =
      Text.slice(Percent + 1, Close)
          .take_while([](char C) { return isIdentifierChar(C) || C == '.'; })
          .str();
  Repair.What = "'%" + Register +
                "' in an asm string (nvcc passes a '%' that names no operand "
                "to PTX as it is): read as '%%" +
                Register + "'";
  return Repair;
}

/// Asm operands with no comma between them, `"r"(a) "l"(b)`: nvcc accepts
/// them; clang expects the ')' of the asm statement. The error is at the
/// second constraint's '"'; the blank before it becomes the comma.
std::optional<SpellingRepair> repairAsmComma(llvm::StringRef Text, size_t At) {
  if (At == 0 || At >= Text.size() || Text[At] != '"' ||
      !isBlank(Text[At - 1]))
    return std::nullopt;
  size_t Before = At - 1;
  while (Before > 0 && llvm::isSpace(Text[Before]))
    --Before;
  if (Text[Before] != ')')
    return std::nullopt;
  // Inside an asm statement's operands: an `asm` (or `__asm__`) shortly
  // before, and a ':' between it and here.
  const size_t From = At > 4096 ? At - 4096 : 0;
  llvm::StringRef Window = Text.slice(From, At);
  size_t Asm = None;
  for (llvm::StringRef Word : {"asm", "__asm__", "__asm"})
    if (size_t W = findWord(Window, Word); W != None && (Asm == None || W > Asm))
      Asm = W;
  if (Asm == None || Window.find(':', Asm) == None)
    return std::nullopt;
  SpellingRepair Repair;
  Repair.Edits.push_back({At - 1, ","});
  Repair.What = "asm operands with no comma between them (nvcc accepts "
                "them): read with the comma";
  return Repair;
}

/// The end (one past) of the bracketed text that starts at \p Open, which
/// holds \p OpenChar; None when it does not close within the statement.
size_t matchingClose(llvm::StringRef Text, size_t Open, char OpenChar,
                     char CloseChar) {
  int Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    const char C = Text[I];
    if (C == '"' || C == '\'') { // skip a literal
      for (++I; I < Text.size() && Text[I] != C; ++I)
        if (Text[I] == '\\')
          ++I;
      continue;
    }
    if (C == OpenChar)
      ++Depth;
    else if (C == CloseChar && --Depth == 0)
      return I + 1;
    else if (C == ';' && OpenChar != '{')
      return None;
  }
  return None;
}

/// `T a[n] = {...};`, a variable-length array with an initialiser: g++
/// accepts it in host code (a GNU extension), clang does not. The error is
/// at the bound. The initialiser is blanked: the checks see the array, not
/// what it starts with.
std::optional<SpellingRepair> repairVlaInitialiser(llvm::StringRef Text,
                                                   size_t Bound) {
  const size_t Line = lineStart(Text, Bound);
  size_t Open = Text.slice(Line, Bound + 1).rfind('[');
  if (Open == None)
    return std::nullopt;
  size_t I = Line + Open;
  while (I < Text.size() && Text[I] == '[') {
    I = matchingClose(Text, I, '[', ']');
    if (I == None)
      return std::nullopt;
    while (I < Text.size() && llvm::isSpace(Text[I]))
      ++I;
  }
  size_t Start = I;
  if (I < Text.size() && Text[I] == '=') {
    ++I;
    while (I < Text.size() && llvm::isSpace(Text[I]))
      ++I;
  }
  if (I >= Text.size() || Text[I] != '{')
    return std::nullopt;
  const size_t End = matchingClose(Text, I, '{', '}');
  if (End == None)
    return std::nullopt;
  std::string Blanked = Text.slice(Start, End).str();
  for (char &C : Blanked)
    if (C != '\n' && C != '\r')
      C = ' ';
  SpellingRepair Repair;
  Repair.Edits.push_back({Start, std::move(Blanked)});
  Repair.What = "a variable-length array with an initialiser (g++ accepts it "
                "as an extension): analyzed without the initialiser";
  return Repair;
}

bool overlaps(const SpellingEdit &A, const SpellingEdit &B) {
  return A.Offset < B.Offset + B.Replacement.size() &&
         B.Offset < A.Offset + A.Replacement.size();
}

} // namespace

std::optional<SpellingRepair> repairForError(llvm::StringRef Message,
                                             llvm::StringRef Text,
                                             size_t Offset) {
  if (Offset >= Text.size())
    return std::nullopt;
  if (Message == "initialization is not supported for __shared__ variables")
    return repairSharedObject(Text, Offset);
  if (Message.starts_with("invalid % escape in inline assembly string"))
    return repairAsmPercent(Text, Offset);
  if (Message == "expected ')'")
    return repairAsmComma(Text, Offset);
  if (Message.starts_with("variable-sized object may not be initialized"))
    return repairVlaInitialiser(Text, Offset);
  return std::nullopt;
}

std::string applyEdits(llvm::StringRef Text,
                       llvm::ArrayRef<SpellingEdit> Edits) {
  std::string Result = Text.str();
  for (const SpellingEdit &Edit : Edits)
    if (Edit.Offset + Edit.Replacement.size() <= Result.size())
      Result.replace(Edit.Offset, Edit.Replacement.size(), Edit.Replacement);
  return Result;
}

RepairPlan planSpellingRepairs(llvm::ArrayRef<ClangTidyError> Errors,
                               llvm::vfs::FileSystem &FS,
                               const std::map<std::string, std::string> &Current) {
  struct FileRepairs {
    std::string Text;
    std::vector<SpellingEdit> Edits;
    std::vector<std::pair<size_t, std::string>> Notes;
  };
  std::map<std::string, FileRepairs> ByFile;
  for (const ClangTidyError &Error : Errors) {
    if (Error.DiagLevel != ClangTidyError::Error ||
        !llvm::StringRef(Error.DiagnosticName).starts_with("clang-diagnostic-") ||
        Error.Message.FilePath.empty())
      continue;
    llvm::SmallString<256> Path(Error.Message.FilePath);
    if (!llvm::sys::path::is_absolute(Path) && !Error.BuildDirectory.empty())
      llvm::sys::path::make_absolute(Error.BuildDirectory, Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    auto [Entry, New] = ByFile.try_emplace(Path.str().str());
    FileRepairs &File = Entry->second;
    if (New) {
      if (auto Known = Current.find(Entry->first); Known != Current.end()) {
        File.Text = Known->second;
      } else {
        auto Buffer = FS.getBufferForFile(Path, -1, false);
        if (!Buffer) {
          ByFile.erase(Entry);
          continue;
        }
        File.Text = (*Buffer)->getBuffer().str();
      }
    }
    std::optional<SpellingRepair> Repair = repairForError(
        Error.Message.Message, File.Text, Error.Message.FileOffset);
    if (!Repair)
      continue;
    // One declaration reached by several template instances gives one
    // error per instance: its repair is made once.
    const bool Clashes = llvm::any_of(Repair->Edits, [&](const SpellingEdit &E) {
      return llvm::any_of(File.Edits,
                          [&](const SpellingEdit &O) { return overlaps(E, O); });
    });
    if (Clashes)
      continue;
    llvm::append_range(File.Edits, Repair->Edits);
    File.Notes.emplace_back(Error.Message.FileOffset, std::move(Repair->What));
  }
  RepairPlan Plan;
  for (auto &[Path, File] : ByFile) {
    if (File.Edits.empty())
      continue;
    llvm::sort(File.Notes);
    for (const auto &[Offset, What] : File.Notes) {
      llvm::StringRef Before = llvm::StringRef(File.Text).substr(0, Offset);
      const size_t Line = Before.count('\n') + 1;
      const size_t Column = Offset - lineStart(File.Text, Offset) + 1;
      std::string Note = Path;
      Note += ":" + std::to_string(Line) + ":" + std::to_string(Column);
      Note += ": ";
      Note += What;
      Plan.Notes.push_back(std::move(Note));
    }
    Plan.Files.emplace(Path, applyEdits(File.Text, File.Edits));
  }
  return Plan;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
repairedFileSystem(const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &Base,
                   const std::map<std::string, std::string> &Files) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Base);
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (const auto &[Path, Text] : Files)
    Memory->addFile(Path, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  Overlay->pushOverlay(Memory);
  if (auto Dir = Base->getCurrentWorkingDirectory())
    (void)Overlay->setCurrentWorkingDirectory(*Dir);
  return Overlay;
}

} // namespace clang::tidy::cuda::driver
