//===--- Findings.cpp - findings as the driver's reporters see them -------===//

#include "tool/driver/report/Findings.h"
#include "checks/FindingsByCause.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include <algorithm>
#include <map>

namespace clang::tidy::cuda::driver {

SourceLines::FileLines &SourceLines::load(llvm::StringRef File) {
  auto [It, Inserted] = Files.try_emplace(File);
  FileLines &Lines = It->second;
  if (!Inserted)
    return Lines;
  // Read, not mapped: a source truncated meanwhile would end the process
  // with SIGBUS (issue 38 G4). (LLVM maps a volatile file too unless a null
  // terminator is asked for.)
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/true,
                                            /*IsVolatile=*/true);
  if (!Buffer)
    return Lines;
  Lines.Text = (*Buffer)->getBuffer().str();
  Lines.Readable = true;
  Lines.LineStarts.push_back(0);
  for (unsigned I = 0; I < Lines.Text.size(); ++I)
    if (Lines.Text[I] == '\n')
      Lines.LineStarts.push_back(I + 1);
  return Lines;
}

SourcePoint SourceLines::locate(llvm::StringRef File, unsigned Offset) {
  SourcePoint Point;
  Point.File = File.str();
  FileLines &Lines = load(File);
  if (!Lines.Readable || Offset > Lines.Text.size())
    return Point;
  auto Next = std::upper_bound(Lines.LineStarts.begin(),
                               Lines.LineStarts.end(), Offset);
  Point.Line = static_cast<unsigned>(Next - Lines.LineStarts.begin());
  Point.Column = Offset - Lines.LineStarts[Point.Line - 1] + 1;
  return Point;
}

llvm::StringRef SourceLines::lineText(llvm::StringRef File, unsigned Line) {
  FileLines &Lines = load(File);
  if (!Lines.Readable || Line == 0 || Line > Lines.LineStarts.size())
    return {};
  unsigned Begin = Lines.LineStarts[Line - 1];
  unsigned End = Line < Lines.LineStarts.size() ? Lines.LineStarts[Line]
                                                : Lines.Text.size();
  return llvm::StringRef(Lines.Text).slice(Begin, End).rtrim("\r\n");
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::SmallString<256> Native(Path);
  llvm::sys::path::remove_dots(Native, true);
  llvm::StringRef P(Native);
  if (!Root.empty() && P.consume_front(Root) &&
      (P.empty() || llvm::sys::path::is_separator(P.front())))
    return P.ltrim("/").str();
  return Native.str().str();
}

/// Collapses runs of white space so re-indenting a line keeps its identity.
static std::string normalizedCode(llvm::StringRef Line) {
  std::string Out;
  bool Space = false;
  for (char C : Line.trim()) {
    if (llvm::isSpace(C)) {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out.push_back(' ');
    Space = false;
    Out.push_back(C);
  }
  return Out;
}

std::string absoluteFileName(llvm::StringRef Path,
                             llvm::StringRef BuildDirectory) {
  if (Path.empty())
    return {};
  llvm::SmallString<256> Absolute(Path);
  if (!llvm::sys::path::is_absolute(Absolute) && !BuildDirectory.empty())
    llvm::sys::path::make_absolute(BuildDirectory, Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
  return Absolute.str().str();
}

void absoluteFileNames(std::vector<ClangTidyError> &Errors) {
  for (ClangTidyError &Error : Errors) {
    const std::string &Directory = Error.BuildDirectory;
    auto Rename = [&](tooling::DiagnosticMessage &M) {
      M.FilePath = absoluteFileName(M.FilePath, Directory);
      for (tooling::FileByteRange &Range : M.Ranges)
        Range.FilePath = absoluteFileName(Range.FilePath, Directory);
    };
    Rename(Error.Message);
    for (tooling::DiagnosticMessage &Note : Error.Notes)
      Rename(Note);
  }
}

Finding FindingMaker::make(const ClangTidyError &Error) {
  Finding F;
  F.Check = Error.DiagnosticName;
  F.IsCompilerError = Error.DiagnosticName == "clang-diagnostic-error";
  F.Level = Error.DiagLevel == ClangTidyError::Error || Error.IsWarningAsError
                ? Finding::Severity::Error
                : Finding::Severity::Warning;
  F.Where = Lines.locate(
      absoluteFileName(Error.Message.FilePath, Error.BuildDirectory),
      Error.Message.FileOffset);
  F.Message = Error.Message.Message;
  for (const tooling::DiagnosticMessage &Note : Error.Notes)
    F.Notes.push_back(
        {Lines.locate(absoluteFileName(Note.FilePath, Error.BuildDirectory),
                      Note.FileOffset),
         Note.Message});
  for (const auto &[File, Replacements] : Error.Message.Fix)
    for (const tooling::Replacement &R : Replacements) {
      FindingFix Fix;
      Fix.File = absoluteFileName(R.getFilePath(), Error.BuildDirectory);
      Fix.Offset = R.getOffset();
      Fix.Length = R.getLength();
      Fix.Replacement = R.getReplacementText().str();
      Fix.Begin = Lines.locate(Fix.File, Fix.Offset);
      Fix.End = Lines.locate(Fix.File, Fix.Offset + Fix.Length);
      F.Fixes.push_back(std::move(Fix));
    }
  std::string Key = F.Check + "\n" + relativeTo(F.Where.File, Root) + "\n" +
                    normalizedCode(Lines.lineText(F.Where.File, F.Where.Line));
  // A finding that stands for every site of one divergent condition
  // (checks/FindingsByCause.h) is keyed on the condition's line: a site
  // added or removed under it leaves the fingerprint as it was.
  for (const FindingNote &Note : F.Notes)
    if (llvm::StringRef(Note.Message).starts_with(CauseNoteLead)) {
      Key = F.Check + "\ncause\n" + relativeTo(Note.Where.File, Root) +
            "\n" +
            normalizedCode(Lines.lineText(Note.Where.File, Note.Where.Line));
      break;
    }
  unsigned Index = Occurrences[Key]++;
  llvm::SHA256 Hash;
  Hash.update(Key + "\n" + std::to_string(Index));
  F.Fingerprint = llvm::toHex(Hash.final(), /*LowerCase=*/true).substr(0, 32);
  return F;
}

std::vector<Finding> toFindings(const std::vector<ClangTidyError> &Errors,
                                SourceLines &Lines, llvm::StringRef Root) {
  FindingMaker Maker(Lines, Root);
  std::vector<Finding> Findings;
  Findings.reserve(Errors.size());
  for (const ClangTidyError &Error : Errors)
    Findings.push_back(Maker.make(Error));
  return Findings;
}

} // namespace clang::tidy::cuda::driver
