//===--- Gates.cpp - which findings a CI gate or a pre-commit hook shows --===//

#include "tool/driver/report/Gates.h"
#include "tool/driver/config/ConfigValidation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <optional>
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace clang::tidy::cuda::driver {

namespace {

/// Reads the fingerprints out of a baseline that isValidJson accepted,
/// without building its tree (llvm::json::parse of a 53 MB baseline held
/// 4.4 GB: issue 16 F18). As llvm::json reads it: the last "findings" of
/// the top object counts, and the last "fingerprint" of each finding.
/// Recurses once per level: the text passed checkNestingDepth.
class BaselineScanner {
public:
  explicit BaselineScanner(llvm::StringRef Text)
      : P(Text.begin()), E(Text.end()) {}

  /// False when the top value is not an object whose last "findings" is an
  /// array.
  bool run(llvm::StringSet<> &Out) {
    space();
    if (P == E || *P != '{')
      return false;
    bool HaveFindings = false;
    std::vector<std::string> Found;
    forEachMember([&](llvm::StringRef Key) {
      if (Key != "findings") {
        skipValue();
        return;
      }
      Found.clear();
      HaveFindings = P != E && *P == '[';
      if (HaveFindings)
        findings(Found);
      else
        skipValue();
    });
    if (!HaveFindings)
      return false;
    for (std::string &FP : Found)
      Out.insert(FP);
    return true;
  }

private:
  void space() {
    while (P != E && (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
      ++P;
  }

  /// At '{': calls \p Member with each key, positioned at its value, which
  /// \p Member consumes; leaves P after the '}'.
  template <typename Fn> void forEachMember(Fn Member) {
    ++P; // '{'
    space();
    if (P != E && *P == '}') {
      ++P;
      return;
    }
    std::string Key;
    while (P != E) {
      space();
      string(Key);
      space();
      ++P; // ':'
      space();
      Member(llvm::StringRef(Key));
      space();
      if (P != E && *P == ',') {
        ++P;
        continue;
      }
      ++P; // '}'
      return;
    }
  }

  /// At '[' of "findings".
  void findings(std::vector<std::string> &Out) {
    ++P;
    space();
    if (P != E && *P == ']') {
      ++P;
      return;
    }
    std::string Value;
    while (P != E) {
      space();
      if (*P == '{') {
        std::optional<std::string> Fingerprint;
        forEachMember([&](llvm::StringRef Key) {
          if (Key == "fingerprint" && *P == '"') {
            string(Value);
            Fingerprint = Value;
            return;
          }
          if (Key == "fingerprint")
            Fingerprint.reset(); // the last one counts, and is no string
          skipValue();
        });
        if (Fingerprint)
          Out.push_back(std::move(*Fingerprint));
      } else {
        skipValue();
      }
      space();
      if (P != E && *P == ',') {
        ++P;
        continue;
      }
      ++P; // ']'
      return;
    }
  }

  void skipValue() {
    if (P == E)
      return;
    switch (*P) {
    case '{':
      forEachMember([&](llvm::StringRef) { skipValue(); });
      return;
    case '[':
      ++P;
      space();
      if (P != E && *P == ']') {
        ++P;
        return;
      }
      while (P != E) {
        space();
        skipValue();
        space();
        if (P != E && *P == ',') {
          ++P;
          continue;
        }
        ++P; // ']'
        return;
      }
      return;
    case '"': {
      std::string Ignored;
      string(Ignored);
      return;
    }
    default: // a number or a literal
      while (P != E && !llvm::StringRef(",]} \t\r\n").contains(*P))
        ++P;
    }
  }

  static unsigned hex(const char *At) {
    unsigned V = 0;
    for (int I = 0; I < 4; ++I)
      V = V * 16 + llvm::hexDigitValue(At[I]);
    return V;
  }

  static void appendUtf8(std::string &Out, unsigned CP) {
    if (CP < 0x80) {
      Out += static_cast<char>(CP);
    } else if (CP < 0x800) {
      Out += static_cast<char>(0xC0 | (CP >> 6));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    } else if (CP < 0x10000) {
      Out += static_cast<char>(0xE0 | (CP >> 12));
      Out += static_cast<char>(0x80 | ((CP >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    } else {
      Out += static_cast<char>(0xF0 | (CP >> 18));
      Out += static_cast<char>(0x80 | ((CP >> 12) & 0x3F));
      Out += static_cast<char>(0x80 | ((CP >> 6) & 0x3F));
      Out += static_cast<char>(0x80 | (CP & 0x3F));
    }
  }

  /// At '"' of a valid string: its value, unescaped as llvm::json does
  /// (a lone surrogate becomes U+FFFD).
  void string(std::string &Out) {
    Out.clear();
    ++P;
    while (P != E && *P != '"') {
      if (*P != '\\') {
        Out += *P++;
        continue;
      }
      ++P;
      const char C = *P++;
      switch (C) {
      case 'b': Out += '\b'; break;
      case 'f': Out += '\f'; break;
      case 'n': Out += '\n'; break;
      case 'r': Out += '\r'; break;
      case 't': Out += '\t'; break;
      case 'u': {
        unsigned CP = hex(P);
        P += 4;
        if (CP >= 0xD800 && CP < 0xDC00 && E - P >= 6 && P[0] == '\\' &&
            P[1] == 'u') {
          const unsigned Low = hex(P + 2);
          if (Low >= 0xDC00 && Low < 0xE000) {
            CP = 0x10000 + ((CP - 0xD800) << 10) + (Low - 0xDC00);
            P += 6;
          }
        }
        if (CP >= 0xD800 && CP < 0xE000)
          CP = 0xFFFD;
        appendUtf8(Out, CP);
        break;
      }
      default: Out += C; // '"', '\\', '/'
      }
    }
    if (P != E)
      ++P; // the closing quote
  }

  const char *P;
  const char *E;
};

} // namespace

llvm::Expected<llvm::StringSet<>> parseBaseline(llvm::StringRef Text,
                                                llvm::StringRef Path) {
  if (llvm::Error E = checkNestingDepth(Text, Path, InputSyntax::Json))
    return llvm::createStringError("baseline: %s",
                                   llvm::toString(std::move(E)).c_str());
  llvm::StringSet<> Fingerprints;
  // Valid JSON is read in place; anything else goes through llvm::json for
  // what it always said (a message, or the tree of text only it accepts).
  if (isValidJson(Text)) {
    if (!BaselineScanner(Text).run(Fingerprints))
      return llvm::createStringError(
          "baseline '%s' has no \"findings\" array", Path.str().c_str());
    return Fingerprints;
  }
  auto Parsed = llvm::json::parse(Text);
  if (!Parsed)
    return llvm::createStringError(
        "baseline '%s' is not valid JSON: %s", Path.str().c_str(),
        llvm::toString(Parsed.takeError()).c_str());
  const llvm::json::Object *Root = Parsed->getAsObject();
  const llvm::json::Array *Items =
      Root ? Root->getArray("findings") : nullptr;
  if (!Items)
    return llvm::createStringError(
        "baseline '%s' has no \"findings\" array", Path.str().c_str());
  for (const llvm::json::Value &Item : *Items)
    if (const llvm::json::Object *O = Item.getAsObject())
      if (auto FP = O->getString("fingerprint"))
        Fingerprints.insert(*FP);
  return Fingerprints;
}

llvm::Expected<llvm::StringSet<>> readBaseline(llvm::StringRef Path) {
  auto Buffer = readInputFile(Path, DataFileMaxBytes);
  if (!Buffer)
    return llvm::createStringError("baseline: %s",
                                   llvm::toString(Buffer.takeError()).c_str());
  return parseBaseline((*Buffer)->getBuffer(), Path);
}

llvm::Error writeBaseline(llvm::StringRef Path,
                          const std::vector<Finding> &Findings,
                          llvm::StringRef Root) {
  llvm::json::Array Items;
  for (const Finding &F : Findings) {
    if (F.IsCompilerError)
      continue;
    Items.push_back(llvm::json::Object{
        {"fingerprint", F.Fingerprint},
        {"check", F.Check},
        {"file", relativeTo(F.Where.File, Root)},
        {"line", F.Where.Line},
        {"message", F.Message}});
  }
  llvm::json::Value Doc = llvm::json::Object{{"tool", "cuda-tidy"},
                                             {"baselineVersion", 1},
                                             {"findings", std::move(Items)}};
  // Written beside the target and renamed over it: a reader never sees half
  // a baseline.
  return llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << llvm::formatv("{0:2}", Doc) << "\n";
    return llvm::Error::success();
  });
}

llvm::Expected<ChangedLines>
ChangedLines::fromUnifiedDiff(llvm::StringRef Diff, llvm::StringRef Root) {
  ChangedLines Result;
  std::string Current;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  // Text that is no diff at all must not pass as an empty one, which would
  // hide every finding (issue 16 F17). Empty input is an empty diff.
  if (!Diff.trim().empty() &&
      llvm::none_of(Lines, [](llvm::StringRef L) {
        return L.starts_with("+++ ") || L.starts_with("--- ") ||
               L.starts_with("diff ") || L.starts_with("@@ ");
      }))
    return llvm::createStringError(
        "the input is not a unified diff (no 'diff', '---', '+++' or '@@' "
        "line)");
  unsigned LineNo = 0;
  for (llvm::StringRef Line : Lines) {
    ++LineNo;
    if (Line.consume_front("+++ ")) {
      Line = Line.split('\t').first.rtrim("\r");
      if (Line == "/dev/null") {
        Current.clear();
        continue;
      }
      Line.consume_front("b/");
      llvm::SmallString<256> Path(Line);
      if (!llvm::sys::path::is_absolute(Path)) {
        Path = Root;
        llvm::sys::path::append(Path, Line);
      }
      llvm::sys::path::remove_dots(Path, true);
      Current = Path.str().str();
      Result.Ranges[Current];
      continue;
    }
    if (!Line.starts_with("@@ ") || Current.empty())
      continue;
    // @@ -a,b +c,d @@: the new side starts at c and spans d lines (1 if
    // omitted; 0 for a pure deletion).
    size_t Plus = Line.find(" +");
    if (Plus == llvm::StringRef::npos)
      return llvm::createStringError("malformed hunk header at line %u of "
                                     "the diff",
                                     LineNo);
    llvm::StringRef Spec = Line.substr(Plus + 2).split(' ').first;
    auto [StartText, CountText] = Spec.split(',');
    unsigned Start = 0;
    unsigned Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      return llvm::createStringError("malformed hunk header at line %u of "
                                     "the diff",
                                     LineNo);
    if (Count)
      Result.Ranges[Current].emplace_back(Start, Start + Count - 1);
  }
  return Result;
}

bool ChangedLines::contains(llvm::StringRef AbsoluteFile, unsigned Line) const {
  llvm::SmallString<256> Path(AbsoluteFile);
  llvm::sys::path::remove_dots(Path, true);
  auto It = Ranges.find(Path);
  if (It == Ranges.end())
    return false;
  return llvm::any_of(It->second, [&](const auto &Range) {
    return Line >= Range.first && Line <= Range.second;
  });
}

/// Runs git with \p Args in \p Directory; returns its standard output.
static llvm::Expected<std::string> runGit(llvm::ArrayRef<llvm::StringRef> Args,
                                          llvm::StringRef Directory) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git)
    return llvm::createStringError("--diff needs git on PATH");
  llvm::SmallString<128> OutPath;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("cuda-tidy-git", "out", OutPath))
    return llvm::createStringError(EC, "cannot create a temporary file");
  llvm::FileRemover Remover(OutPath);
  std::vector<llvm::StringRef> Argv = {*Git, "-C", Directory};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt,
                                                llvm::StringRef(OutPath),
                                                std::nullopt};
  std::string Message;
  int Status = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects,
                                         0, 0, &Message);
  // Named by its subcommand, after any `-c` settings.
  size_t First = 0;
  while (First + 1 < Args.size() && Args[First] == "-c")
    First += 2;
  llvm::StringRef Command = First < Args.size() ? Args[First] : "";
  if (Status != 0)
    return llvm::createStringError("git %s failed (exit %d)%s",
                                   Command.str().c_str(), Status,
                                   Message.empty() ? "" : (": " + Message).c_str());
  auto Buffer = llvm::MemoryBuffer::getFile(OutPath);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read git output");
  return (*Buffer)->getBuffer().str();
}

llvm::Expected<std::pair<std::string, std::string>>
gitDiffAgainst(llvm::StringRef Ref, llvm::StringRef Directory) {
  // The ref is a ref, never an option (`--diff=--output=F` once wrote a file
  // and turned the gate off; issue 16 F9).
  if (Ref.empty() || Ref.starts_with("-"))
    return llvm::createStringError("'" + Ref.str() +
                                   "' is not a git revision");
  auto Top = runGit({"rev-parse", "--show-toplevel"}, Directory);
  if (!Top)
    return Top.takeError();
  // Nothing the repository configures runs: no external diff or textconv
  // (flags), no fsmonitor hook, and every filter driver's clean/process
  // command emptied for this call (git diff cleans work-tree files through
  // them). Reading the configuration runs nothing.
  std::vector<std::string> Config = {"-c", "core.fsmonitor=false", "-c",
                                     "diff.external="};
  if (auto Filters = runGit({"config", "--name-only", "--get-regexp",
                             "^filter\\..*\\.(clean|process|smudge)$"},
                            Directory)) {
    llvm::SmallVector<llvm::StringRef, 8> Keys;
    llvm::StringRef(*Filters).split(Keys, '\n', -1, false);
    for (llvm::StringRef Key : Keys) {
      // `git -c` splits its argument at the first `=`: a filter named
      // `a=b` could not be emptied that way, and its command would run
      // (issue 38 G7). No such name is needed; refuse it.
      if (Key.contains('='))
        return llvm::createStringError(
            "the repository configures a git filter whose name contains "
            "'=' ('" +
            Key.trim().str() +
            "'), which cannot be turned off for 'git diff'; not running it");
      Config.emplace_back("-c");
      Config.push_back(Key.trim().str() + "=");
    }
  } else {
    llvm::consumeError(Filters.takeError()); // exit 1: no filter configured
  }
  std::vector<llvm::StringRef> Args(Config.begin(), Config.end());
  Args.insert(Args.end(), {"diff", "-U0", "--no-color", "--no-ext-diff",
                           "--no-textconv", "--end-of-options", Ref, "--"});
  auto Diff = runGit(Args, Directory);
  if (!Diff)
    return Diff.takeError();
  return std::make_pair(std::move(*Diff),
                        llvm::StringRef(*Top).trim().str());
}

} // namespace clang::tidy::cuda::driver
