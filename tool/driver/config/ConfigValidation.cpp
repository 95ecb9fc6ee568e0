//===--- ConfigValidation.cpp - .clang-tidy files checked before a run ----===//

#include "tool/driver/config/ConfigValidation.h"
#include "checks/analysis/core/StrictJson.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include <set>

namespace clang::tidy::cuda::driver {

/// 1-based line and column of the first occurrence of \p Needle in \p Text
/// (the position of a key or a check name, for the message).
static std::pair<unsigned, unsigned> positionOf(llvm::StringRef Text,
                                                llvm::StringRef Needle) {
  size_t Offset = Text.find(Needle);
  if (Offset == llvm::StringRef::npos)
    return {1, 1};
  llvm::StringRef Before = Text.take_front(Offset);
  unsigned Line = Before.count('\n') + 1;
  size_t LineStart = Before.rfind('\n');
  unsigned Column =
      Offset - (LineStart == llvm::StringRef::npos ? 0 : LineStart + 1) + 1;
  return {Line, Column};
}

static llvm::Error tooDeep(llvm::StringRef Path, llvm::StringRef Text,
                           size_t Offset) {
  llvm::StringRef Before = Text.take_front(Offset);
  const size_t Line = Before.count('\n') + 1;
  const size_t LineStart = Before.rfind('\n');
  const size_t Column =
      Offset - (LineStart == llvm::StringRef::npos ? 0 : LineStart + 1) + 1;
  return llvm::createStringError(
      std::make_error_code(std::errc::invalid_argument),
      "'%s' nests more than %u levels deep at line %zu, column %zu (cuda-tidy "
      "reads at most %u levels of nesting)",
      Path.str().c_str(), MaxNestingDepth, Line, Column, MaxNestingDepth);
}

static llvm::Error checkJsonNesting(llvm::StringRef Text, llvm::StringRef Path) {
  unsigned Depth = 0;
  bool InString = false;
  for (size_t I = 0, E = Text.size(); I < E; ++I) {
    const char C = Text[I];
    if (InString) {
      if (C == '\\')
        ++I;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxNestingDepth)
        return tooDeep(Path, Text, I);
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return llvm::Error::success();
}

static llvm::Error checkYamlNesting(llvm::StringRef Text, llvm::StringRef Path) {
  llvm::SourceMgr Sources;
  // Syntax errors are the real parser's to report, with its own words.
  Sources.setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  llvm::yaml::Stream Stream(Text, Sources, /*ShowColors=*/false);
  // A collection's children are parsed as it is iterated, and moving past a
  // child that was not walked skips it recursively; so every child is
  // walked whole, depth first, with this stack instead of the call stack.
  struct Frame {
    llvm::yaml::SequenceNode::iterator Seq, SeqEnd;
    llvm::yaml::MappingNode::iterator Map, MapEnd;
    bool IsSequence = false;
    unsigned Step = 0; // sequence: 1 once the current child is walked;
                       // mapping: 1 key walked, 2 value walked
    unsigned Entries = 0; // of a mapping, so far
  };
  std::vector<Frame> Stack;
  auto Enter = [&](llvm::yaml::Node *N) -> bool {
    if (!N)
      return true;
    Frame F;
    if (auto *S = llvm::dyn_cast<llvm::yaml::SequenceNode>(N)) {
      F.IsSequence = true;
      F.Seq = S->begin();
      F.SeqEnd = S->end();
    } else if (auto *M = llvm::dyn_cast<llvm::yaml::MappingNode>(N)) {
      F.Map = M->begin();
      F.MapEnd = M->end();
    } else {
      return true;
    }
    if (Stack.size() >= MaxNestingDepth)
      return false;
    Stack.push_back(F);
    return true;
  };
  for (llvm::yaml::Document &Doc : Stream) {
    (void)Enter(Doc.getRoot()); // the first level always fits
    while (!Stack.empty()) {
      Frame &F = Stack.back();
      llvm::yaml::Node *Next = nullptr;
      if (F.IsSequence) {
        if (F.Seq == F.SeqEnd) {
          Stack.pop_back();
          continue;
        }
        if (F.Step == 0) {
          F.Step = 1;
          Next = &*F.Seq;
        } else {
          F.Step = 0;
          ++F.Seq;
          continue;
        }
      } else {
        if (F.Map == F.MapEnd) {
          Stack.pop_back();
          continue;
        }
        llvm::yaml::KeyValueNode &Entry = *F.Map;
        if (F.Step == 0) {
          if (++F.Entries > MaxMappingEntries) {
            const char *At = Entry.getSourceRange().Start.getPointer();
            size_t Offset = At && At >= Text.begin() && At <= Text.end()
                                ? static_cast<size_t>(At - Text.begin())
                                : 0;
            llvm::StringRef Before = Text.take_front(Offset);
            return llvm::createStringError(
                std::make_error_code(std::errc::invalid_argument),
                "'%s' has a mapping of more than %u entries (line %zu; "
                "cuda-tidy reads at most %u keys in one mapping)",
                Path.str().c_str(), MaxMappingEntries,
                Before.count('\n') + 1, MaxMappingEntries);
          }
          F.Step = 1;
          Next = Entry.getKey();
        } else if (F.Step == 1) {
          F.Step = 2;
          Next = Entry.getValue();
        } else {
          F.Step = 0;
          ++F.Map;
          continue;
        }
      }
      if (!Enter(Next)) {
        const char *At = Next->getSourceRange().Start.getPointer();
        size_t Offset = At && At >= Text.begin() && At <= Text.end()
                            ? static_cast<size_t>(At - Text.begin())
                            : 0;
        return tooDeep(Path, Text, Offset);
      }
    }
    if (Stream.failed())
      break;
  }
  return llvm::Error::success();
}

// The one strict JSON grammar (RFC 8259, UTF-8 strings, nesting up to
// MaxNestingDepth, 256) is core/StrictJson's, shared with the project
// index's record reader.
bool isValidJson(llvm::StringRef Text) {
  return clang::tidy::cuda::analysis::isStrictJson(Text);
}

llvm::Error checkNestingDepth(llvm::StringRef Text, llvm::StringRef Path,
                              InputSyntax Syntax) {
  return Syntax == InputSyntax::Json ? checkJsonNesting(Text, Path)
                                     : checkYamlNesting(Text, Path);
}

unsigned validateClangTidyConfig(llvm::StringRef Text, llvm::StringRef Source,
                                 const llvm::StringSet<> &KnownChecks,
                                 const llvm::StringSet<> &KnownOptions,
                                 llvm::raw_ostream &OS) {
  unsigned Errors = 0;
  if (llvm::Error E = checkNestingDepth(Text, Source, InputSyntax::Yaml)) {
    OS << "cuda-tidy: error: " << llvm::toString(std::move(E)) << "\n";
    return 1;
  }
  auto Parsed = parseConfigurationWithDiags(
      llvm::MemoryBufferRef(Text, Source), [&](const llvm::SMDiagnostic &D) {
        if (D.getKind() != llvm::SourceMgr::DK_Error)
          return;
        ++Errors;
        OS << Source << ":" << D.getLineNo() << ":" << (D.getColumnNo() + 1)
           << ": error: " << D.getMessage() << "\n";
      });
  if (!Parsed) {
    if (Errors == 0) {
      OS << Source << ":1:1: error: " << Parsed.getError().message() << "\n";
      ++Errors;
    }
    return Errors;
  }
  // The first few unknown names are located and printed, the rest counted:
  // locating each one searches the text, and 100,000 unknown names took 83 s
  // (issue 16 F16).
  constexpr unsigned MaxReported = 20;
  unsigned Unreported = 0;
  auto Report = [&](llvm::StringRef Name, const llvm::Twine &Message) {
    ++Errors;
    if (Errors > MaxReported) {
      ++Unreported;
      return;
    }
    auto [Line, Column] = positionOf(Text, Name);
    OS << Source << ":" << Line << ":" << Column << ": error: " << Message
       << "\n";
  };
  if (const std::optional<std::string> &Checks = Parsed->Checks) {
    llvm::SmallVector<llvm::StringRef, 8> Items;
    llvm::StringRef(*Checks).split(Items, ',', -1, false);
    for (llvm::StringRef Item : Items) {
      Item = Item.trim();
      Item.consume_front("-");
      Item = Item.trim();
      if (!Item.starts_with("cuda-") || Item.contains('*') ||
          KnownChecks.contains(Item))
        continue;
      Report(Item, "unknown check '" + Item + "'");
    }
  }
  for (const auto &Entry : Parsed->CheckOptions) {
    llvm::StringRef Key = Entry.getKey();
    if (!Key.starts_with("cuda-") || KnownOptions.contains(Key))
      continue;
    Report(Key, "unknown option '" + Key + "'");
  }
  if (Unreported)
    OS << Source << ": error: " << Unreported
       << " more unknown checks or options\n";
  return Errors;
}

/// The .clang-tidy files above each input, nearest first, each once.
static std::vector<std::string>
clangTidyFilesFor(const std::vector<std::string> &Inputs) {
  std::vector<std::string> Files;
  std::set<std::string> Seen;
  for (const std::string &Input : Inputs) {
    llvm::SmallString<256> Dir(Input);
    (void)llvm::sys::fs::make_absolute(Dir); // else relative: still found
    llvm::sys::path::remove_dots(Dir, true);
    llvm::sys::path::remove_filename(Dir);
    while (!Dir.empty()) {
      llvm::SmallString<256> Candidate(Dir);
      llvm::sys::path::append(Candidate, ".clang-tidy");
      // Any file there, not only a regular one: a FIFO or a link to
      // /dev/zero is then refused when it is read (exit 2), as for
      // .cuda-tidy.yaml, instead of being silently skipped (issue 38 G15).
      // A folder of that name is no configuration.
      llvm::sys::fs::file_status Status;
      if (Seen.insert(std::string(Candidate)).second &&
          !llvm::sys::fs::status(Candidate, Status) &&
          Status.type() != llvm::sys::fs::file_type::directory_file)
        Files.push_back(std::string(Candidate));
      llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
      if (Parent == Dir)
        break;
      Dir = Parent;
    }
  }
  return Files;
}

void locateConfigurationProblem(const std::vector<std::string> &Inputs,
                                llvm::StringRef Message,
                                llvm::raw_ostream &OS) {
  llvm::StringRef Option = Message.split("for option '").second.split('\'').first;
  if (!Option.empty())
    for (const std::string &File : clangTidyFilesFor(Inputs)) {
      // (Not a FIFO or a device: that one's error is reported elsewhere.)
      auto Buffer = readInputFile(File, ConfigFileMaxBytes);
      if (!Buffer) {
        llvm::consumeError(Buffer.takeError());
        continue;
      }
      llvm::StringRef Text = (*Buffer)->getBuffer();
      if (!Text.contains(Option))
        continue;
      auto [Line, Column] = positionOf(Text, Option);
      OS << File << ":" << Line << ":" << Column << ": error: " << Message
         << "\n";
      return;
    }
  OS << "cuda-tidy: error: " << Message << "\n";
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, uint64_t MaxBytes) {
  llvm::sys::fs::file_status Status;
  if (std::error_code EC = llvm::sys::fs::status(Path, Status))
    return llvm::createStringError(EC, "cannot read '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  if (Status.type() != llvm::sys::fs::file_type::regular_file)
    return llvm::createStringError("cannot read '%s': not a regular file",
                                   Path.str().c_str());
  if (Status.getSize() > MaxBytes)
    return llvm::createStringError(
        "cannot read '%s': %llu bytes, more than the %llu MiB cuda-tidy reads "
        "of such a file",
        Path.str().c_str(), static_cast<unsigned long long>(Status.getSize()),
        static_cast<unsigned long long>(MaxBytes >> 20));
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read '%s': %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  // It may have grown since the stat.
  if ((*Buffer)->getBufferSize() > MaxBytes)
    return llvm::createStringError("cannot read '%s': larger than %llu MiB",
                                   Path.str().c_str(),
                                   static_cast<unsigned long long>(MaxBytes >> 20));
  return std::move(*Buffer);
}

unsigned validateClangTidyFiles(const std::vector<std::string> &Inputs,
                                const llvm::StringSet<> &KnownChecks,
                                const llvm::StringSet<> &KnownOptions,
                                llvm::raw_ostream &OS) {
  unsigned Errors = 0;
  for (const std::string &File : clangTidyFilesFor(Inputs)) {
    auto Buffer = readInputFile(File, ConfigFileMaxBytes);
    if (!Buffer) {
      OS << "cuda-tidy: error: " << llvm::toString(Buffer.takeError()) << "\n";
      ++Errors;
      continue;
    }
    Errors += validateClangTidyConfig((*Buffer)->getBuffer(), File,
                                      KnownChecks, KnownOptions, OS);
  }
  return Errors;
}

} // namespace clang::tidy::cuda::driver
