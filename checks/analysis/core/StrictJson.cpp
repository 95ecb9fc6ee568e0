//===--- StrictJson.cpp - the strict JSON grammar, read without a tree ----===//

#include "checks/analysis/core/StrictJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

namespace clang::tidy::cuda::analysis {

namespace json = llvm::json;

bool isJsonSpace(char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r';
}

namespace {

/// The strict JSON grammar (RFC 8259), strings checked for UTF-8 as
/// llvm::json::parse checks them; recursion bounded by the nesting limit.
class StrictJsonValidator {
public:
  explicit StrictJsonValidator(llvm::StringRef Text)
      : Begin(Text.begin()), P(Text.begin()), E(Text.end()) {}

  bool run(size_t *ErrorOffset) {
    space();
    bool Valid = value(0);
    if (Valid) {
      space();
      Valid = P == E;
    }
    if (!Valid && ErrorOffset)
      *ErrorOffset = static_cast<size_t>(P - Begin);
    return Valid;
  }

private:
  static constexpr unsigned MaxDepth = 256;

  void space() {
    while (P != E && isJsonSpace(*P))
      ++P;
  }
  bool literal(llvm::StringRef Word) {
    if (static_cast<size_t>(E - P) < Word.size() ||
        llvm::StringRef(P, Word.size()) != Word)
      return false;
    P += Word.size();
    return true;
  }
  static bool digit(char C) { return C >= '0' && C <= '9'; }
  bool digits() {
    if (P == E || !digit(*P))
      return false;
    while (P != E && digit(*P))
      ++P;
    return true;
  }
  bool number() {
    if (P != E && *P == '-')
      ++P;
    if (P != E && *P == '0')
      ++P;
    else if (!digits())
      return false;
    if (P != E && *P == '.') {
      ++P;
      if (!digits())
        return false;
    }
    if (P != E && (*P == 'e' || *P == 'E')) {
      ++P;
      if (P != E && (*P == '+' || *P == '-'))
        ++P;
      if (!digits())
        return false;
    }
    return true;
  }
  bool string() {
    ++P; // the opening quote
    const char *Start = P;
    bool Ascii = true;
    while (P != E && *P != '"') {
      const auto C = static_cast<unsigned char>(*P);
      if (C < 0x20)
        return false;
      if (C >= 0x80)
        Ascii = false;
      if (C == '\\') {
        ++P;
        if (P == E)
          return false;
        if (*P == 'u') {
          for (int I = 0; I < 4; ++I) {
            ++P;
            if (P == E || !llvm::isHexDigit(*P))
              return false;
          }
        } else if (!llvm::StringRef("\"\\/bfnrt").contains(*P)) {
          return false;
        }
      }
      ++P;
    }
    if (P == E)
      return false;
    if (!Ascii && !json::isUTF8(llvm::StringRef(Start, P - Start))) {
      P = Start;
      return false;
    }
    ++P; // the closing quote
    return true;
  }
  /// The members of an object or the elements of an array, at its first
  /// character.
  bool collection(unsigned Depth, char Close, bool Keys) {
    ++P;
    space();
    if (P != E && *P == Close) {
      ++P;
      return true;
    }
    for (;;) {
      if (Keys) {
        if (P == E || *P != '"' || !string())
          return false;
        space();
        if (P == E || *P != ':')
          return false;
        ++P;
        space();
      }
      if (!value(Depth + 1))
        return false;
      space();
      if (P != E && *P == ',') {
        ++P;
        space();
        continue;
      }
      if (P != E && *P == Close) {
        ++P;
        return true;
      }
      return false;
    }
  }
  bool value(unsigned Depth) {
    if (P == E || Depth > MaxDepth)
      return false;
    switch (*P) {
    case '{':
      return collection(Depth, '}', /*Keys=*/true);
    case '[':
      return collection(Depth, ']', /*Keys=*/false);
    case '"':
      return string();
    case 't':
      return literal("true");
    case 'f':
      return literal("false");
    case 'n':
      return literal("null");
    default:
      return number();
    }
  }

  const char *Begin;
  const char *P;
  const char *E;
};

/// Past the string that starts at \p P (its opening quote), in valid text.
} // namespace

bool isStrictJson(llvm::StringRef Text, size_t *ErrorOffset) {
  return StrictJsonValidator(Text).run(ErrorOffset);
}

} // namespace clang::tidy::cuda::analysis
