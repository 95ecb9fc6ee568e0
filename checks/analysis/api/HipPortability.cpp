//===--- HipPortability.cpp - is this code also built for AMD GPUs? -------===//

#include "checks/analysis/api/HipPortability.h"

#include "llvm/ADT/StringSwitch.h"
#include "clang/Basic/CharInfo.h"

namespace clang::tidy::cuda::analysis {

bool isHipPlatformMacro(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"USE_ROCM", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__",
              "__HIPCC__", "__HIP__", "__HIP_DEVICE_COMPILE__",
              "GGML_USE_HIP"},
             true)
      .Default(false);
}

namespace {

/// One logical line of \p Text from \p Pos: continuation lines joined,
/// comments dropped, string literals kept whole. Pos moves past the line; \p InComment
/// carries a /* comment across lines.
std::string logicalLine(llvm::StringRef Text, size_t &Pos, bool &InComment) {
  std::string Out;
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (InComment) {
      if (C == '*' && Pos + 1 < Text.size() && Text[Pos + 1] == '/') {
        InComment = false;
        Out += ' ';
        Pos += 2;
        continue;
      }
      if (C == '\n' && (Out.empty() || Out.back() != '\\')) {
        ++Pos;
        return Out;
      }
      ++Pos;
      continue;
    }
    if (C == '\\' && Pos + 1 < Text.size() &&
        (Text[Pos + 1] == '\n' ||
         (Text[Pos + 1] == '\r' && Pos + 2 < Text.size() &&
          Text[Pos + 2] == '\n'))) {
      Pos += Text[Pos + 1] == '\n' ? 2 : 3;
      continue;
    }
    if (C == '\n') {
      ++Pos;
      return Out;
    }
    if (C == '"') { // a string literal: "//" inside is no comment
      Out += C;
      ++Pos;
      while (Pos < Text.size() && Text[Pos] != '"' && Text[Pos] != '\n') {
        if (Text[Pos] == '\\' && Pos + 1 < Text.size() &&
            Text[Pos + 1] != '\n')
          Out += Text[Pos++];
        Out += Text[Pos++];
      }
      if (Pos < Text.size() && Text[Pos] == '"')
        Out += Text[Pos++];
      continue;
    }
    if (C == '/' && Pos + 1 < Text.size() && Text[Pos + 1] == '/') {
      // To the end of the line, continuations included.
      while (Pos < Text.size() && Text[Pos] != '\n') {
        if (Text[Pos] == '\\' && Pos + 1 < Text.size() &&
            Text[Pos + 1] == '\n')
          ++Pos;
        ++Pos;
      }
      continue;
    }
    if (C == '/' && Pos + 1 < Text.size() && Text[Pos + 1] == '*') {
      InComment = true;
      Pos += 2;
      continue;
    }
    Out += C;
    ++Pos;
  }
  return Out;
}

/// The identifiers of \p S, in order.
template <typename Fn> void forEachIdentifier(llvm::StringRef S, Fn &&F) {
  size_t I = 0;
  while (I < S.size()) {
    if (isAsciiIdentifierStart(S[I])) {
      size_t B = I;
      while (I < S.size() && isAsciiIdentifierContinue(S[I]))
        ++I;
      if (F(S.slice(B, I)))
        return;
      continue;
    }
    if (isDigit(S[I])) { // a number's suffix is no identifier
      while (I < S.size() && isAsciiIdentifierContinue(S[I]))
        ++I;
      continue;
    }
    ++I;
  }
}

} // namespace

std::optional<HipEvidence> hipEvidenceIn(llvm::StringRef Text) {
  size_t Pos = 0;
  bool InComment = false;
  while (Pos < Text.size()) {
    const size_t LineStart = Pos;
    const bool StartsInComment = InComment;
    std::string Line = logicalLine(Text, Pos, InComment);
    if (StartsInComment)
      continue; // a directive begins a line, outside any comment
    llvm::StringRef L = llvm::StringRef(Line).ltrim(" \t\f\v\r");
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim(" \t\f\v\r");
    size_t NameEnd = 0;
    while (NameEnd < L.size() && isAsciiIdentifierContinue(L[NameEnd]))
      ++NameEnd;
    llvm::StringRef Directive = L.take_front(NameEnd);
    llvm::StringRef Rest = L.drop_front(NameEnd).trim();
    const size_t HashOffset = LineStart + Text.substr(LineStart).find('#');
    if (Directive == "include" || Directive == "include_next" ||
        Directive == "import") {
      if (Rest.size() > 2 && (Rest.front() == '<' || Rest.front() == '"')) {
        char Close = Rest.front() == '<' ? '>' : '"';
        llvm::StringRef Name = Rest.drop_front().take_until(
            [Close](char C) { return C == Close; });
        if (Name.starts_with("hip/"))
          return HipEvidence{HashOffset, Name.str(), true};
      }
      continue;
    }
    if (Directive != "if" && Directive != "ifdef" && Directive != "ifndef" &&
        Directive != "elif" && Directive != "elifdef" &&
        Directive != "elifndef")
      continue;
    std::optional<HipEvidence> Found;
    forEachIdentifier(Rest, [&](llvm::StringRef Id) {
      if (!isHipPlatformMacro(Id))
        return false;
      Found = HipEvidence{HashOffset, Id.str(), false};
      return true;
    });
    if (Found)
      return Found;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::analysis
