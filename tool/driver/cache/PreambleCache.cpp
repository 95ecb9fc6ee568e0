//===--- PreambleCache.cpp - CUDA headers parsed once, not per file -------===//

#include "tool/driver/cache/PreambleCache.h"
#include "tool/driver/report/FixApplier.h"
#include "tool/driver/support/MemoryBudget.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Sema/Sema.h"
#include "clang/Serialization/ASTWriter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <chrono>
#include <climits>
#include <utility>

namespace clang::tidy::cuda::driver {

//===----------------------------------------------------------------------===//
// The leading include lines
//===----------------------------------------------------------------------===//

namespace {

/// The name of the directive whose `#` is at \p Hash (`if`, `define`...).
llvm::StringRef directiveName(llvm::StringRef Text, size_t Hash) {
  size_t J = Hash + 1;
  while (J < Text.size() && (Text[J] == ' ' || Text[J] == '\t'))
    ++J;
  size_t K = J;
  while (K < Text.size() && (llvm::isAlnum(Text[K]) || Text[K] == '_'))
    ++K;
  return Text.slice(J, K);
}

/// Whether \p Code (a line from its first non-blank) is empty or a
/// comment that ends on it.
bool commentOnly(llvm::StringRef Code) {
  Code = Code.rtrim(" \t\f\v");
  if (Code.empty() || Code.starts_with("//"))
    return true;
  return Code.starts_with("/*") && Code.find("*/", 2) + 2 == Code.size();
}

/// Where the preamble line that starts with the directive at \p Hash ends
/// (just past a newline), when it is one the scan takes whole: a #define
/// or #undef line, or a conditional block (#if/#ifdef/#ifndef to its
/// #endif) of directives, blank lines and comments only, such as
/// cuda-samples' `#ifdef _WIN32 ... #include <windows.h> ... #endif` among
/// its include lines. Such a preamble never ends inside a conditional.
/// Conservative: no line continued by a backslash, no block comment
/// spanning lines, no #line; nullopt otherwise.
std::optional<size_t> directiveBlockEnd(llvm::StringRef Text, size_t Hash) {
  const llvm::StringRef First = directiveName(Text, Hash);
  const bool Single = First == "define" || First == "undef";
  if (!Single && First != "if" && First != "ifdef" && First != "ifndef")
    return std::nullopt;
  unsigned Depth = 0;
  size_t At = Hash;
  while (At < Text.size()) {
    const size_t NL = Text.find('\n', At);
    if (NL == llvm::StringRef::npos)
      return std::nullopt; // the last line needs its newline
    llvm::StringRef Line = Text.slice(At, NL).rtrim("\r");
    if (Line.ends_with("\\"))
      return std::nullopt;
    // An unclosed block comment (or a `/*` in a string): too clever.
    const size_t Open = Line.rfind("/*");
    if (Open != llvm::StringRef::npos &&
        Line.find("*/", Open + 2) == llvm::StringRef::npos)
      return std::nullopt;
    const llvm::StringRef Code = Line.ltrim(" \t\f\v");
    if (Code.starts_with("#")) {
      const llvm::StringRef Name =
          directiveName(Text, static_cast<size_t>(Code.data() - Text.data()));
      if (Name == "line" || Name.empty())
        return std::nullopt;
      if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
        ++Depth;
      } else if (Name == "endif") {
        if (Depth == 0)
          return std::nullopt;
        --Depth;
      }
    } else if (!commentOnly(Code)) {
      return std::nullopt; // code
    }
    At = NL + 1;
    if (Depth == 0)
      return At;
  }
  return std::nullopt;
}

} // namespace

LeadingIncludes scanLeadingIncludes(llvm::StringRef Text) {
  LeadingIncludes Result;
  // A byte-order mark shifts every offset the lexer reports; not worth it.
  if (Text.starts_with("\xEF\xBB\xBF"))
    return Result;
  const size_t N = Text.size();
  size_t I = 0;
  size_t LineStart = 0;
  // False when a block comment that began on an earlier line ends on this
  // one: the line's start is then inside a comment, no place to cut.
  bool LineClean = true;
  auto IsBlank = [](char C) {
    return C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v';
  };
  // A `//` comment from I: its end (the newline) or npos; nullopt when it
  // continues onto the next line with a backslash.
  auto LineCommentEnd = [&](size_t From) -> std::optional<size_t> {
    size_t NL = Text.find('\n', From);
    size_t Last = NL == llvm::StringRef::npos ? N : NL;
    while (Last > From && (Text[Last - 1] == '\r'))
      --Last;
    if (Last > From && Text[Last - 1] == '\\')
      return std::nullopt;
    return NL;
  };

  bool SawFirst = false;
  // Called where the comments end: at the first directive or token.
  auto NoteCommentEnd = [&] {
    if (!SawFirst)
      Result.CommentEnd = LineClean ? static_cast<unsigned>(LineStart) : 0;
    SawFirst = true;
  };
  while (I < N) {
    char C = Text[I];
    if (C == '\n') {
      ++I;
      LineStart = I;
      LineClean = true;
      continue;
    }
    if (IsBlank(C)) {
      ++I;
      continue;
    }
    if (Text.substr(I).starts_with("//")) {
      std::optional<size_t> End = LineCommentEnd(I);
      if (!End || *End == llvm::StringRef::npos)
        break;
      I = *End; // the newline, handled above
      continue;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t End = Text.find("*/", I + 2);
      if (End == llvm::StringRef::npos)
        break;
      if (Text.substr(I, End - I).contains('\n'))
        LineClean = false;
      I = End + 2;
      continue;
    }
    NoteCommentEnd();
    if (C != '#' || !LineClean)
      break;
    // A conditional block of directives only, or a #define / #undef line:
    // one line of the preamble, whose text is its spelling.
    if (std::optional<size_t> End = directiveBlockEnd(Text, I)) {
      Result.Includes.push_back({static_cast<unsigned>(LineStart),
                                 static_cast<unsigned>(*End),
                                 Text.slice(LineStart, *End).str()});
      Result.HasQuoted |= Text.slice(LineStart, *End).contains('"');
      I = *End;
      LineStart = I;
      LineClean = true;
      continue;
    }
    // `#`, blanks, `include`, blanks, a header name, then only blanks and
    // comments up to the newline.
    size_t J = I + 1;
    while (J < N && (Text[J] == ' ' || Text[J] == '\t'))
      ++J;
    if (!Text.substr(J).starts_with("include"))
      break;
    J += 7;
    if (J < N && (llvm::isAlnum(Text[J]) || Text[J] == '_'))
      break; // #include_next, #includefoo
    while (J < N && (Text[J] == ' ' || Text[J] == '\t'))
      ++J;
    if (J >= N || (Text[J] != '<' && Text[J] != '"'))
      break; // #include MACRO
    const char Close = Text[J] == '<' ? '>' : '"';
    size_t NameEnd =
        Text.find_first_of(llvm::StringRef("\n\0", 2).str() + Close, J + 1);
    if (NameEnd == llvm::StringRef::npos || Text[NameEnd] != Close ||
        NameEnd == J + 1)
      break;
    std::string Spelling = Text.substr(J, NameEnd - J + 1).str();
    size_t K = NameEnd + 1;
    bool LineOk = false;
    while (K < N) {
      if (Text[K] == '\n') {
        LineOk = true;
        break;
      }
      if (IsBlank(Text[K])) {
        ++K;
        continue;
      }
      if (Text.substr(K).starts_with("//")) {
        std::optional<size_t> End = LineCommentEnd(K);
        if (End && *End != llvm::StringRef::npos) {
          K = *End;
          LineOk = true;
        }
        break;
      }
      if (Text.substr(K).starts_with("/*")) {
        size_t End = Text.find("*/", K + 2);
        if (End == llvm::StringRef::npos ||
            Text.substr(K, End - K).contains('\n'))
          break;
        K = End + 2;
        continue;
      }
      break;
    }
    if (!LineOk)
      break;
    Result.Includes.push_back({static_cast<unsigned>(LineStart),
                               static_cast<unsigned>(K + 1),
                               std::move(Spelling)});
    Result.HasQuoted |= Close == '"';
    I = K + 1;
    LineStart = I;
    LineClean = true;
  }
  // A file of comments only: nothing to gain.
  if (!SawFirst)
    Result.CommentEnd = 0;
  return Result;
}

std::string preambleSignature(const LeadingIncludes &Scan,
                              llvm::StringRef MainFile) {
  std::string Signature;
  for (const LeadingIncludes::Line &L : Scan.Includes) {
    Signature += L.Spelling;
    Signature += '\n';
  }
  if (Scan.HasQuoted) {
    llvm::SmallString<256> Dir(llvm::sys::path::parent_path(MainFile));
    (void)llvm::sys::fs::make_absolute(Dir); // else relative: still a key
    llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/false);
    Signature += "dir ";
    Signature += Dir.str();
  }
  return Signature;
}

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

std::string PreambleCache::flagsKey(const CompilerInvocation &Invocation) {
  CompilerInvocation Copy(Invocation);
  FrontendOptions &Frontend = Copy.getFrontendOpts();
  InputKind Kind =
      Frontend.Inputs.empty() ? InputKind() : Frontend.Inputs[0].getKind();
  Frontend.Inputs.clear();
  Frontend.Inputs.emplace_back("<main-file>", Kind);
  Frontend.OutputFile.clear();
  Copy.getCodeGenOpts().MainFileName.clear();
  Copy.getPreprocessorOpts().clearRemappedFiles();
  // One folder spelled two ways is one key: CMake gives every target its
  // include folders relative to its own (cuda-samples' 137 samples each
  // have a `<sample>/../../../Common`), which made one shared PCH per
  // sample (9.5 MiB each, 1.3 GB of cache) where one does. The lexical
  // form is used only when it names the same real folder (a symbolic link
  // before a `..` makes them differ); a lookup in the folder then finds the
  // same files either way.
  for (HeaderSearchOptions::Entry &Entry :
       Copy.getHeaderSearchOpts().UserEntries) {
    llvm::SmallString<256> Lexical(Entry.Path);
    llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
    if (Lexical == Entry.Path)
      continue;
    // (A relative folder is the compile's working folder's.)
    const std::string &WorkingDir = Copy.getFileSystemOpts().WorkingDir;
    auto RealPath = [&](llvm::StringRef Path,
                        llvm::SmallVectorImpl<char> &Real) {
      llvm::SmallString<256> Full(Path);
      if (llvm::sys::path::is_relative(Full) && !WorkingDir.empty())
        llvm::sys::path::make_absolute(WorkingDir, Full);
      return !llvm::sys::fs::real_path(Full, Real);
    };
    llvm::SmallString<256> RealGiven;
    llvm::SmallString<256> RealLexical;
    if (RealPath(Entry.Path, RealGiven) && RealPath(Lexical, RealLexical) &&
        RealGiven == RealLexical)
      Entry.Path = std::string(Lexical);
  }
  std::string Key;
  for (const std::string &Arg : Copy.getCC1CommandLine()) {
    // The CUDA compilation unit id is derived from the file's name. Only
    // code generation and name mangling read it, through the ASTContext of
    // the compile that uses the preamble (the file's own), never through
    // the PCH: it does not make the preamble different.
    if (llvm::StringRef(Arg).starts_with("-cuid="))
      continue;
    Key += Arg;
    Key += '\0';
  }
  // Set in code, not on the command line.
  Key += Invocation.getPreprocessorOpts().SetUpStaticAnalyzer ? "analyzer 1"
                                                              : "analyzer 0";
  Key += '\0';
  Key += Invocation.getFileSystemOpts().WorkingDir;
  return Key;
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

namespace {

constexpr llvm::StringLiteral PreambleKeyVersion = "cuda-tidy preamble 8";
constexpr uint32_t PayloadVersion = 8;

/// How the PCH bytes of an entry are stored: as they are, or compressed
/// with zstd (when LLVM has it). A file's own preamble is compressed:
/// zstd -1 takes a PCH to 0.6 of its size at 200 MB/s, zstd -3 to 6 %
/// less than that at 90 MB/s (the cuda-samples database's cold cache: 402 MB
/// at -1, over the 400 MB of issue 21; -5 saves 1.5 % more at half the
/// speed), and the cache folder after a cold run of a whole project is
/// mostly such preambles (docs/performance.md, "A cache with a budget").
/// A load then decompresses all of it (some 20 ms for 10 MiB) where an
/// uncompressed entry is mapped and read only where clang looks; so the
/// shared preamble, which every parse of its flags loads, is kept raw.
enum class PchCodec : uint8_t { Raw = 0, Zstd = 1 };
constexpr int PchZstdLevel = 3;

/// The synthetic main files' names start so (TidyRunner skips them).
constexpr llvm::StringLiteral SyntheticPrefix = ".cuda-tidy-preamble-";

/// Counts the diagnostics of the build that a parse from the preamble would
/// lose: every one, or, where the run shows no compiler warning (no
/// `clang-diagnostic-*` check enabled: cuda-tidy's default), all but the
/// warnings and their notes. A user header with a `-Wswitch` warning
/// (cuda-samples' helper_cuda.h under <cusparse.h>) then stays in the
/// preamble instead of being parsed again at every edit.
class CountingConsumer : public DiagnosticConsumer {
public:
  explicit CountingConsumer(bool CountWarnings)
      : CountWarnings(CountWarnings) {}
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level == DiagnosticsEngine::Warning)
      LastWasWarning = true;
    else if (Level != DiagnosticsEngine::Note)
      LastWasWarning = false;
    const bool PartOfAWarning =
        Level == DiagnosticsEngine::Warning ||
        (Level == DiagnosticsEngine::Note && LastWasWarning);
    if (CountWarnings || !PartOfAWarning)
      ++Count;
  }
  unsigned Count = 0;

private:
  const bool CountWarnings;
  bool LastWasWarning = false;
};

class BuildCallbacks : public PreambleCallbacks {
public:
  static constexpr int NoOffender = INT_MAX;

  /// \p SharedPch: the path of the shared PCH the build is chained on, or
  /// empty.
  BuildCallbacks(const LeadingIncludes &Scan, ContentHasher &Hasher,
                 llvm::StringRef SharedPch)
      : Scan(Scan), Hasher(Hasher), SharedPch(SharedPch) {}

  void BeforeExecute(CompilerInstance &CI) override {
    SM = &CI.getSourceManager();
    Compiler = &CI;
  }

  /// The CUDA deferred diagnostics of the user headers, named by the IDs
  /// the PCH gives their functions (DeferredDiagnostics.h), and the user
  /// headers' top-level declarations, by the same IDs.
  void AfterPCHEmitted(ASTWriter &Writer) override {
    if (!Compiler)
      return;
    DeferredRecorded =
        recordDeferredDiagnostics(*Compiler, Writer, SharedPch, Deferred);
    recordUserDecls(Writer);
  }

  /// Keeps the system headers' declarations out of the PCH's list of
  /// unused file-scoped declarations. Sema lists every static function and
  /// variable not yet used, and at the end of each parse that starts from
  /// the PCH it reads the whole list back (deserializing each declaration)
  /// to warn about those still unused: a tenth of a warm re-lint of a
  /// cuda-samples file. In a system header that warning is never shown
  /// (unless -Wsystem-headers, which keeps the list whole), so the entries
  /// of system headers are dropped as each top-level declaration is handed
  /// over; the list is otherwise as the parse made it. (A function first
  /// declared in a system header and defined, unused, in user code is the
  /// one case whose -Wunused-function this loses.)
  void HandleTopLevelDecl(DeclGroupRef) override {
    if (!Compiler || !Compiler->hasSema() ||
        !Compiler->getDiagnostics().getSuppressSystemWarnings())
      return;
    Sema &S = Compiler->getSema();
    const SourceManager &Sources = S.getSourceManager();
    auto &Unused = S.UnusedFileScopedDecls;
    auto From = Unused.begin(nullptr, /*LocalOnly=*/true) + UnusedSeen;
    auto Kept = std::remove_if(From, Unused.end(),
                               [&](const DeclaratorDecl *D) {
                                 const SourceLocation Loc = D->getLocation();
                                 return Loc.isValid() &&
                                        Sources.isInSystemHeader(
                                            Sources.getExpansionLoc(Loc));
                               });
    Unused.erase(Kept, Unused.end());
    UnusedSeen = Unused.end() - Unused.begin(nullptr, /*LocalOnly=*/true);
  }

  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return std::make_unique<Watcher>(*this);
  }

  void AfterExecute(CompilerInstance &CI) override {
    SourceManager &Sources = CI.getSourceManager();
    OptionalFileEntryRef Main =
        Sources.getFileEntryRefForID(Sources.getMainFileID());
    llvm::StringMap<Digest> Seen;
    for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end();
         ++It) {
      FileEntryRef File = It->first;
      if (Main && File.isSameRef(*Main))
        continue;
      if (Main && &File.getFileEntry() == &Main->getFileEntry())
        continue;
      // The main file of the shared preamble this one is chained on.
      if (llvm::sys::path::filename(File.getName()).starts_with(SyntheticPrefix))
        continue;
      llvm::SmallString<256> Path(File.getName());
      CI.getFileManager().makeAbsolutePath(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
      std::optional<Digest> Hash;
      // The bytes the preamble was parsed from, when they are at hand.
      if (std::optional<llvm::MemoryBufferRef> Buffer =
              It->second->getBufferIfLoaded())
        Hash = digestOf(Buffer->getBuffer());
      else
        Hash = Hasher.hashFile(Path);
      if (!Hash) {
        Complete = false;
        continue;
      }
      Seen[Path] = *Hash;
    }
    for (const auto &Entry : Seen)
      Dependencies.push_back({Entry.getKey().str(), Entry.getValue()});
    llvm::sort(Dependencies, [](const FileDigest &A, const FileDigest &B) {
      return A.Path < B.Path;
    });
    if (Offender != NoOffender)
      noteUserFiles(CI, Sources);
  }

  /// The first include line that enters a user header (-1: a header the
  /// driver force-includes), or NoOffender.
  int Offender = NoOffender;
  /// The first include line under which something happens that a parse
  /// from the preamble would not reproduce (__BASE_FILE__ names the
  /// preamble's own main file), whatever the headers.
  int HardOffender = NoOffender;
  /// Whether what the checks' callbacks saw of the user headers is
  /// recorded exactly (UserFiles, Skipped), and nothing else that a full
  /// parse reports of them is lost (a deferred CUDA diagnostic).
  bool Replayable = true;
  bool Complete = true;
  std::vector<FileDigest> Dependencies;
  std::vector<Preamble::UserFile> UserFiles;
  std::vector<Preamble::SkippedRange> Skipped;
  uint32_t Span = 0;
  std::vector<std::pair<std::string, std::string>> UserFilesRead;
  std::vector<DeferredFunction> Deferred;
  bool DeferredRecorded = true;
  std::vector<uint64_t> UserDecls;
  bool UserDeclsExact = true;
  std::vector<std::pair<uint32_t, uint32_t>> MainSkipped;

private:
  /// Preamble::UserDecls: the top-level declarations this build made in
  /// user files, as userTopLevelDecls in TidyRunner.cpp picks them from a
  /// full parse, by the writer's IDs.
  void recordUserDecls(ASTWriter &Writer) {
    if (!Compiler->hasASTContext())
      return;
    const SourceManager &Sources = Compiler->getSourceManager();
    TranslationUnitDecl *TU = Compiler->getASTContext().getTranslationUnitDecl();
    for (Decl *D : TU->noload_decls()) {
      const SourceLocation Loc = D->getLocation();
      if (D->isFromASTFile() || Loc.isInvalid() ||
          Sources.isInSystemHeader(Sources.getExpansionLoc(Loc)))
        continue;
      const uint64_t ID =
          Writer.wasDeclEmitted(D) ? Writer.getDeclID(D).getRawValue() : 0;
      if (ID == 0) {
        UserDeclsExact = false;
        return;
      }
      UserDecls.push_back(ID);
    }
  }

  /// How many of Sema's unused declarations were looked at (the list's
  /// own index type).
  int UnusedSeen = 0;
  /// The offsets of the user files entered, from the main file's start;
  /// the bytes read of files in user folders (for --fix).
  void noteUserFiles(CompilerInstance &CI, SourceManager &Sources) {
    // (A file location's raw encoding is its offset.)
    const SourceLocation::UIntTy Main =
        Sources.getLocForStartOfFile(Sources.getMainFileID()).getRawEncoding();
    const SourceLocation::UIntTy End = Sources.getNextLocalOffset();
    if (End < Main || End - Main > UINT32_MAX) {
      Replayable = false;
      return;
    }
    Span = static_cast<uint32_t>(End - Main);
    for (size_t I = 0; I < EnteredIDs.size(); ++I) {
      FileID FID = EnteredIDs[I];
      SourceLocation Start = Sources.getLocForStartOfFile(FID);
      if (!Sources.isLocalSourceLocation(Start) ||
          Start.getRawEncoding() < Main) {
        Replayable = false;
        return;
      }
      UserFiles[I].Offset =
          static_cast<uint32_t>(Start.getRawEncoding() - Main);
    }
    // A deferred diagnostic in user code is reported by a full parse when
    // device code calls the function; the PCH does not keep it, the record
    // does (AfterPCHEmitted) when it can.
    if (!DeferredRecorded)
      Replayable = false;
    HeaderSearch *Search = CI.hasPreprocessor()
                               ? &CI.getPreprocessor().getHeaderSearchInfo()
                               : nullptr;
    for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end();
         ++It) {
      std::optional<llvm::MemoryBufferRef> Buffer =
          It->second->getBufferIfLoaded();
      if (!Buffer || !Search ||
          Search->getFileDirFlavor(It->first) != SrcMgr::C_User)
        continue;
      llvm::SmallString<256> Path(It->first.getName());
      CI.getFileManager().makeAbsolutePath(Path);
      if (llvm::sys::path::filename(Path).starts_with(SyntheticPrefix))
        continue;
      UserFilesRead.emplace_back(std::string(Path),
                                 contentHash(Buffer->getBuffer()));
    }
  }

  /// The user file entered first as each FileID, by UserFiles' positions.
  std::vector<FileID> EnteredIDs;
  llvm::DenseMap<FileID, uint32_t> EnteredIndex;
  llvm::DenseSet<const FileEntry *> EnteredFiles;

  class Watcher : public PPCallbacks {
  public:
    explicit Watcher(BuildCallbacks &Owner) : Owner(Owner) {}

    void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef,
                            bool, CharSourceRange, OptionalFileEntryRef,
                            StringRef, StringRef, const Module *, bool,
                            SrcMgr::CharacteristicKind) override {
      const SourceManager &SM = *Owner.SM;
      std::pair<FileID, unsigned> At = SM.getDecomposedLoc(HashLoc);
      if (At.first != SM.getMainFileID())
        return;
      for (unsigned I = 0; I < Owner.Scan.Includes.size(); ++I)
        if (Owner.Scan.Includes[I].Begin <= At.second &&
            At.second < Owner.Scan.Includes[I].End)
          Current = static_cast<int>(I);
    }

    void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                     SrcMgr::CharacteristicKind FileType, FileID) override {
      if (Reason != EnterFile || SrcMgr::isSystem(FileType))
        return;
      const SourceManager &SM = *Owner.SM;
      FileID FID = SM.getFileID(Loc);
      OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
      if (FID == SM.getMainFileID() || !File)
        return; // the main file, <built-in>, <command line>
      Owner.Offender = std::min(Owner.Offender, Current);
      // What the checks' callbacks see: each user file once, as first
      // entered (GridSyncLaunchCheck's FileCallbacks).
      if (!Owner.EnteredFiles.insert(&File->getFileEntry()).second)
        return;
      llvm::SmallString<256> Path(File->getName());
      SM.getFileManager().makeAbsolutePath(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
      // The PCH names its files by absolute paths without `.` parts; a
      // full parse names a file as it was looked up (Preamble::UserFile::
      // LookedUpAs says what that changes).
      Owner.EnteredIndex[FID] = static_cast<uint32_t>(Owner.EnteredIDs.size());
      Owner.EnteredIDs.push_back(FID);
      Owner.UserFiles.push_back(
          {std::string(Path), 0,
           Path != File->getName() ? File->getName().str() : std::string()});
    }

    void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
      const SourceManager &SM = *Owner.SM;
      std::pair<FileID, unsigned> Begin = SM.getDecomposedLoc(Range.getBegin());
      if (Begin.first == SM.getMainFileID()) {
        // A conditional block among the leading include lines.
        std::pair<FileID, unsigned> End = SM.getDecomposedLoc(Range.getEnd());
        if (End.first == Begin.first && End.second >= Begin.second)
          Owner.MainSkipped.emplace_back(Begin.second, End.second);
        else
          Owner.Replayable = false;
        return;
      }
      auto It = Owner.EnteredIndex.find(Begin.first);
      if (It == Owner.EnteredIndex.end())
        return; // not in a user file's first entry: no check looks at it
      std::pair<FileID, unsigned> End = SM.getDecomposedLoc(Range.getEnd());
      if (End.first != Begin.first || End.second < Begin.second) {
        Owner.Replayable = false;
        return;
      }
      Owner.Skipped.push_back({It->second, Begin.second, End.second});
    }

    /// A macro defined in the main file's part the preamble would hold:
    /// its definition would be the PCH's, in the PCH's own main file, and
    /// a note that a finding is "expanded from macro" would lose its file
    /// and line. The preamble is cut before the line (or block) that
    /// defines it. (A #define in a branch #if skipped defines nothing.)
    void MacroDefined(const Token &Name, const MacroDirective *) override {
      const SourceManager &SM = *Owner.SM;
      std::pair<FileID, unsigned> At = SM.getDecomposedLoc(Name.getLocation());
      if (At.first != SM.getMainFileID())
        return;
      for (unsigned I = 0; I < Owner.Scan.Includes.size(); ++I)
        if (Owner.Scan.Includes[I].Begin <= At.second &&
            At.second < Owner.Scan.Includes[I].End)
          Owner.HardOffender =
              std::min(Owner.HardOffender, static_cast<int>(I));
    }

    void MacroExpands(const Token &Name, const MacroDefinition &,
                      SourceRange, const MacroArgs *) override {
      // The name of the preamble's main file, not the real one.
      if (const IdentifierInfo *Id = Name.getIdentifierInfo())
        if (Id->getName() == "__BASE_FILE__")
          Owner.HardOffender = std::min(Owner.HardOffender, Current);
    }

  private:
    BuildCallbacks &Owner;
    int Current = -1;
  };

  const LeadingIncludes &Scan;
  ContentHasher &Hasher;
  std::string SharedPch;
  const SourceManager *SM = nullptr;
  CompilerInstance *Compiler = nullptr;
};

std::string pchPathFor(const Digest &Key) {
  return "/__cuda_tidy__/preamble-" + toHex(Key) + ".pch";
}

/// Sets \p PP up to start from the shared preamble \p PchPath as a
/// -include-pch would (a chained preamble's build, a compile from the
/// shared one alone): what the predefines, the -D/-U macros and the
/// -include'd CUDA wrapper did is in that PCH, so none of them runs again.
/// Run again, they would not all be the same: ggml's `-D_XOPEN_SOURCE=600`,
/// which <features.h> (read under the wrapper) redefines to 700, would be
/// redefined back, with a warning that made every chained build unusable.
void startFromShared(PreprocessorOptions &PP, llvm::StringRef PchPath) {
  PP.ImplicitPCHInclude = PchPath.str();
  PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  PP.UsePredefines = false;
  PP.Macros.clear();
  PP.Includes.clear();
  PP.MacroIncludes.clear();
}

/// Shows \p P's PCH, and the shared one it is chained on, to a compiler
/// at their paths (in-memory files, modification time 0 as when built).
void pushPch(const Preamble &P, llvm::vfs::OverlayFileSystem &FS) {
  IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Pch(
      new llvm::vfs::InMemoryFileSystem());
  for (const Preamble *Link = &P; Link; Link = Link->Shared.get())
    Pch->addFile(Link->PchPath, 0,
                 llvm::MemoryBuffer::getMemBuffer(
                     Link->Pch, Link->PchPath,
                     /*RequiresNullTerminator=*/false));
  FS.pushOverlay(Pch);
}

} // namespace

std::shared_ptr<const Preamble>
PreambleCache::build(const CompilerInvocation &Invocation,
                     llvm::StringRef MainFile,
                     const llvm::MemoryBuffer &MainBuffer,
                     const LeadingIncludes &Scan, const Digest &Key,
                     const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
                     const std::shared_ptr<PCHContainerOperations> &PCHOps,
                     const std::shared_ptr<const Preamble> &Shared,
                     bool AllowUserHeaders, bool CompilerWarningsShown) {
  auto Result = std::make_shared<Preamble>();
  Result->PchPath = pchPathFor(Key);
  // The shared preamble is built from an empty main file: it holds what
  // precedes the first byte of every file (acquireShared).
  const bool BuildingShared = MainBuffer.getBufferSize() == 0;

  // The preamble's main file: a name of its own beside the real file (so
  // quoted includes are searched in the same folder), never a real file.
  llvm::SmallString<256> Synthetic(llvm::sys::path::parent_path(MainFile));
  llvm::sys::path::append(Synthetic, SyntheticPrefix +
                                         toHex(Key).substr(0, 16) + ".cu");
  CompilerInvocation Copy(Invocation);
  FrontendOptions &Frontend = Copy.getFrontendOpts();
  if (Frontend.Inputs.size() != 1) {
    Result->Storable = false;
    return Result;
  }
  Frontend.Inputs[0] =
      FrontendInputFile(Synthetic, Frontend.Inputs[0].getKind());
  Copy.getPreprocessorOpts().clearRemappedFiles();
  // The headers' own pending template instantiations are done once, here,
  // and stored in the PCH; otherwise every file that starts from the
  // preamble does them again at its end (a fifth of a warm run's time).
  // The option is one a PCH may differ in from the file that uses it.
  Copy.getLangOpts().PCHInstantiateTemplates = true;
  if (Shared) {
    // Chained on the shared PCH: the build loads it as a -include-pch
    // would, and the PCH it writes holds what its lines add (clang's
    // chained PCH) and imports the shared one by its path.
    startFromShared(Copy.getPreprocessorOpts(), Shared->PchPath);
  }

  unsigned Count = Scan.Includes.size();
  // The lexer's own idea of the preamble bounds the cut from above.
  PreambleBounds LexerBounds =
      Lexer::ComputePreamble(MainBuffer.getBuffer(), Copy.getLangOpts());
  // (It counts comments only when a directive follows them.)
  while (Count && Scan.cut(Count) > LexerBounds.Size)
    --Count;

  // What the build looks up and does not find (headers searched for in
  // the folders before the one they are in).
  auto Lookups = llvm::makeIntrusiveRefCnt<LookupRecorder>(FS);
  // The shared PCH, above the recorder: not a lookup of the headers'.
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> BuildFS = Lookups;
  if (Shared) {
    auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
        IntrusiveRefCntPtr<llvm::vfs::FileSystem>(Lookups));
    pushPch(*Shared, *Overlay);
    BuildFS = Overlay;
  }
  for (unsigned Attempt = 0;
       Attempt < 3 && (Scan.cut(Count) || BuildingShared); ++Attempt) {
    PreambleBounds Bounds(Scan.cut(Count),
                          /*PreambleEndsAtStartOfLine=*/true);
    CountingConsumer Counter(CompilerWarningsShown);
    IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
        CompilerInstance::createDiagnostics(*BuildFS, Copy.getDiagnosticOpts(),
                                            &Counter,
                                            /*ShouldOwnClient=*/false);
    BuildCallbacks Callbacks(Scan, Hasher,
                             Shared ? llvm::StringRef(Shared->PchPath) : "");
    Lookups->clear();
    llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
        Copy, &MainBuffer, Bounds, Diags, BuildFS, PCHOps,
        /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
    Result->Dependencies = std::move(Callbacks.Dependencies);
    Result->Missing = Lookups->missing();
    Result->Found = Lookups->found(Result->Dependencies);
    Result->SameFiles = sameFileDigest(Result->Dependencies, Result->Found);
    // Without the digest of every file it read, a preamble could not be
    // checked later: neither it nor its failure is kept.
    Result->Storable = Callbacks.Complete;
    if (!Built)
      Result->Storable = false;
    if (!Built || !Callbacks.Complete)
      break;
    // Where to cut and build again: before the include line under which
    // something happened that a parse from the preamble would not give, and
    // before the first line that enters a user header unless what the
    // checks see of those headers is replayed exactly (no diagnostic, no
    // deferred one, recorded fully; and the checks are shown it: see
    // TidyRunner.cpp).
    int Cut = Callbacks.HardOffender;
    if (!AllowUserHeaders || !Callbacks.Replayable || Counter.Count ||
        Callbacks.Offender < 0)
      Cut = std::min(Cut, Callbacks.Offender);
    if (Cut == BuildCallbacks::NoOffender) {
      if (Counter.Count)
        break;
      Result->Usable = true;
      Result->IncludeCount = Count;
      Result->UserFiles = std::move(Callbacks.UserFiles);
      Result->Skipped = std::move(Callbacks.Skipped);
      Result->Span = Callbacks.Span;
      Result->UserFilesRead = std::move(Callbacks.UserFilesRead);
      Result->Deferred = std::move(Callbacks.Deferred);
      Result->UserDeclsExact = Callbacks.UserDeclsExact;
      Result->MainSkipped = std::move(Callbacks.MainSkipped);
      if (Callbacks.UserDeclsExact)
        Result->UserDecls = std::move(Callbacks.UserDecls);
      if (Result->UserFiles.empty()) {
        Result->Skipped.clear();
        Result->Span = 0;
        Result->Deferred.clear();
        Result->UserDecls.clear();
      }
      Result->Built.emplace(std::move(*Built));
      break;
    }
    // Through a header the driver force-includes: no preamble.
    if (Cut < 0)
      break;
    Count = static_cast<unsigned>(Cut);
  }
  if (!Result->Usable || !Result->Built)
    return Result;

  // The PCH bytes: an in-memory preamble shows them to a compiler through
  // a file system overlay, which is where they are read from here.
  CompilerInvocation Scratch(Copy);
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> Scratchpad(
      new llvm::vfs::InMemoryFileSystem());
  std::unique_ptr<llvm::MemoryBuffer> Empty =
      llvm::MemoryBuffer::getMemBuffer("");
  Result->Built->AddImplicitPreamble(Scratch, Scratchpad, Empty.get());
  const std::string &Path = Scratch.getPreprocessorOpts().ImplicitPCHInclude;
  auto Bytes = Scratchpad->getBufferForFile(Path, /*FileSize=*/-1,
                                            /*RequiresNullTerminator=*/false);
  if (!Bytes || (*Bytes)->getBufferSize() == 0) {
    Result->Usable = false;
    Result->Storable = false;
    Result->Built.reset();
    return Result;
  }
  // The overlay's buffer points into the preamble's own storage, which
  // lives as long as Result->Built.
  Result->Pch = (*Bytes)->getBuffer();
  Result->PchHash = digestOf(Result->Pch);
  if (Shared) {
    // Valid while the shared one is: its files are this one's too.
    Result->Shared = Shared;
    llvm::StringSet<> Own;
    for (const FileDigest &D : Result->Dependencies)
      Own.insert(D.Path);
    for (const FileDigest &D : Shared->Dependencies)
      if (!Own.contains(D.Path))
        Result->Dependencies.push_back(D);
    llvm::sort(Result->Dependencies,
               [](const FileDigest &A, const FileDigest &B) {
                 return A.Path < B.Path;
               });
    mergePaths(Result->Missing, Shared->Missing);
    mergePaths(Result->Found, Shared->Found);
    Result->SameFiles = sameFileDigest(Result->Dependencies, Result->Found);
  }
  return Result;
}

//===----------------------------------------------------------------------===//
// The cache folder
//===----------------------------------------------------------------------===//

// Payload: version, usable, include count, dependencies, then the PCH at a
// 64-byte aligned offset.
void PreambleCache::store(const Digest &Key, const Preamble &P,
                          bool Compress) {
  if (!Disk)
    return;
  PayloadWriter Meta;
  Meta.u32(PayloadVersion);
  Meta.u8(P.Usable);
  Meta.u32(P.IncludeCount);
  Meta.digest(P.PchHash);
  Meta.u32(static_cast<uint32_t>(P.Dependencies.size()));
  for (const FileDigest &D : P.Dependencies) {
    Meta.str(D.Path);
    Meta.digest(D.Hash);
  }
  Meta.paths(P.Missing);
  Meta.paths(P.Found);
  Meta.digest(P.SameFiles);
  Meta.u32(P.Span);
  Meta.u32(static_cast<uint32_t>(P.UserFiles.size()));
  for (const Preamble::UserFile &F : P.UserFiles) {
    Meta.str(F.Path);
    Meta.u32(F.Offset);
    Meta.str(F.LookedUpAs);
  }
  Meta.u32(static_cast<uint32_t>(P.Skipped.size()));
  for (const Preamble::SkippedRange &R : P.Skipped) {
    Meta.u32(R.File);
    Meta.u32(R.Begin);
    Meta.u32(R.End);
  }
  Meta.u32(static_cast<uint32_t>(P.UserFilesRead.size()));
  for (const auto &[Path, Hash] : P.UserFilesRead) {
    Meta.str(Path);
    Meta.str(Hash);
  }
  writeDeferredFunctions(Meta, P.Deferred);
  Meta.u8(P.UserDeclsExact);
  Meta.u32(static_cast<uint32_t>(P.UserDecls.size()));
  for (const uint64_t ID : P.UserDecls)
    Meta.u64(ID);
  Meta.u32(static_cast<uint32_t>(P.MainSkipped.size()));
  for (const auto &[Begin, End] : P.MainSkipped) {
    Meta.u32(Begin);
    Meta.u32(End);
  }
  llvm::SmallVector<uint8_t, 0> Compressed;
  llvm::StringRef Stored = P.Usable ? P.Pch : llvm::StringRef();
  PchCodec Codec = PchCodec::Raw;
  // (CUDA_TIDY_PCH_RAW=1 stores them as they are: what the figures of
  // docs/performance.md compare against.)
  static const bool Raw = std::getenv("CUDA_TIDY_PCH_RAW") != nullptr;
  if (Compress && !Raw && !Stored.empty() &&
      llvm::compression::zstd::isAvailable()) {
    llvm::compression::zstd::compress(llvm::arrayRefFromStringRef(Stored),
                                      Compressed, PchZstdLevel);
    if (Compressed.size() < Stored.size()) {
      Codec = PchCodec::Zstd;
      Stored = llvm::toStringRef(Compressed);
    }
  }
  const uint64_t FixedTail = 1 + 8 + 16; // codec, PCH size, offset, length
  uint64_t Offset = Meta.bytes().size() + FixedTail;
  Offset = (Offset + 63) / 64 * 64;
  Meta.u8(static_cast<uint8_t>(Codec));
  Meta.u64(P.Usable ? P.Pch.size() : 0);
  Meta.u64(Offset);
  Meta.u64(Stored.size());
  Meta.bytes().resize(Offset, '\0');
  if (P.Usable)
    Disk->write(EntryKind::Preamble, Key, {Meta.bytes(), Stored});
  else
    Disk->write(EntryKind::Preamble, Key, {Meta.bytes()});
}

std::shared_ptr<const Preamble>
PreambleCache::load(const Digest &Key,
                    const std::shared_ptr<const Preamble> &Shared) {
  if (!Disk)
    return nullptr;
  std::optional<CacheStore::Entry> Entry = Disk->read(EntryKind::Preamble, Key);
  if (!Entry)
    return nullptr;
  auto Result = std::make_shared<Preamble>();
  PayloadReader In(Entry->Payload);
  uint32_t Version = 0;
  uint32_t Count = 0;
  uint32_t Deps = 0;
  uint8_t Usable = 0;
  uint64_t Offset = 0;
  uint64_t Size = 0;
  bool Ok = In.u32(Version) && Version == PayloadVersion && In.u8(Usable) &&
            In.u32(Count) && In.digest(Result->PchHash) &&
            In.count(Deps, 4 + 32);
  for (uint32_t I = 0; Ok && I < Deps; ++I) {
    FileDigest D;
    Ok = In.str(D.Path) && In.digest(D.Hash);
    Result->Dependencies.push_back(std::move(D));
  }
  Ok = Ok && In.paths(Result->Missing) && In.paths(Result->Found) &&
       In.digest(Result->SameFiles);
  // What the checks are shown of the user headers: an untrusted entry
  // names only offsets below the span, ranges in files it lists, and
  // nothing when it is unusable.
  uint32_t Files = 0;
  uint32_t Ranges = 0;
  uint32_t Read = 0;
  Ok = Ok && In.u32(Result->Span) && In.count(Files, 4 + 4 + 4);
  for (uint32_t I = 0; Ok && I < Files; ++I) {
    Preamble::UserFile F;
    Ok = In.str(F.Path) && In.u32(F.Offset) && In.str(F.LookedUpAs) &&
         !F.Path.empty() &&
         F.Offset < Result->Span;
    Result->UserFiles.push_back(std::move(F));
  }
  Ok = Ok && In.count(Ranges, 12);
  for (uint32_t I = 0; Ok && I < Ranges; ++I) {
    Preamble::SkippedRange R;
    Ok = In.u32(R.File) && In.u32(R.Begin) && In.u32(R.End) &&
         R.File < Files && R.Begin <= R.End;
    Result->Skipped.push_back(R);
  }
  Ok = Ok && In.count(Read, 4 + 4);
  for (uint32_t I = 0; Ok && I < Read; ++I) {
    std::pair<std::string, std::string> F;
    Ok = In.str(F.first) && In.str(F.second);
    Result->UserFilesRead.push_back(std::move(F));
  }
  Ok = Ok && readDeferredFunctions(In, Result->Span, Result->Deferred);
  uint8_t DeclsExact = 0;
  uint32_t Decls = 0;
  Ok = Ok && In.u8(DeclsExact) && DeclsExact <= 1 && In.count(Decls, 8);
  Result->UserDeclsExact = DeclsExact != 0;
  for (uint32_t I = 0; Ok && I < Decls; ++I) {
    uint64_t ID = 0;
    Ok = In.u64(ID) && ID != 0;
    Result->UserDecls.push_back(ID);
  }
  uint32_t MainRanges = 0;
  Ok = Ok && In.count(MainRanges, 8);
  for (uint32_t I = 0; Ok && I < MainRanges; ++I) {
    uint32_t Begin = 0;
    uint32_t End = 0;
    Ok = In.u32(Begin) && In.u32(End) && Begin <= End;
    Result->MainSkipped.emplace_back(Begin, End);
  }
  Ok = Ok && (Usable || (Files == 0 && Ranges == 0 && Read == 0 &&
                         Result->Deferred.empty() && Decls == 0 &&
                         MainRanges == 0));
  uint8_t CodecByte = 0;
  uint64_t PchSize = 0;
  Ok = Ok && In.u8(CodecByte) &&
       CodecByte <= static_cast<uint8_t>(PchCodec::Zstd);
  const auto Codec = static_cast<PchCodec>(CodecByte);
  Ok = Ok && In.u64(PchSize) && In.u64(Offset) && In.u64(Size) &&
       Offset <= Entry->Payload.size() &&
       Size <= Entry->Payload.size() - Offset && (Usable ? Size > 0 : true) &&
       (Codec == PchCodec::Zstd || PchSize == Size) &&
       // (A PCH is at most a few hundred MiB; a bigger size is a bad entry,
       // not an allocation to try.)
       PchSize <= (static_cast<uint64_t>(1) << 32);
  if (!Ok) {
    ++Counters.CorruptEntries;
    return nullptr;
  }
  // A header changed, or one appeared where the build found none: build
  // again (and replace the entry).
  if (!dependenciesUnchanged(Result->Dependencies, Hasher) ||
      !lookupsUnchanged(Result->Missing, Result->Found) ||
      sameFileDigest(Result->Dependencies, Result->Found) !=
          Result->SameFiles)
    return nullptr;
  Result->Usable = Usable;
  Result->IncludeCount = Count;
  Result->PchPath = pchPathFor(Key);
  if (Codec == PchCodec::Zstd) {
    // (The entry's digest was checked on reading it: a failure here is an
    // entry written by a build whose zstd differs, or a bad size.)
    std::unique_ptr<llvm::WritableMemoryBuffer> Raw =
        llvm::WritableMemoryBuffer::getNewUninitMemBuffer(PchSize,
                                                          Result->PchPath);
    size_t Got = PchSize;
    if (!Raw || !llvm::compression::zstd::isAvailable()) {
      ++Counters.CorruptEntries;
      return nullptr;
    }
    if (llvm::Error E = llvm::compression::zstd::decompress(
            llvm::arrayRefFromStringRef(Entry->Payload.substr(Offset, Size)),
            reinterpret_cast<uint8_t *>(Raw->getBufferStart()), Got)) {
      llvm::consumeError(std::move(E));
      ++Counters.CorruptEntries;
      return nullptr;
    }
    if (Got != PchSize) {
      ++Counters.CorruptEntries;
      return nullptr;
    }
    Result->Pch = llvm::StringRef(Raw->getBufferStart(), Raw->getBufferSize());
    Result->Loaded = std::move(Raw);
  } else {
    Result->Pch = Entry->Payload.substr(Offset, Size);
    Result->Loaded = std::move(Entry->Buffer);
  }
  // (Its key holds the shared one's digest, and its dependencies the shared
  // one's files.)
  Result->Shared = Shared;
  return Result;
}

//===----------------------------------------------------------------------===//
// Sharing
//===----------------------------------------------------------------------===//

namespace {

/// The file's path as the preamble cache knows it (absolute, no dots).
std::string planKey(llvm::StringRef File) {
  llvm::SmallString<256> Path(File);
  (void)llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

/// \p Scan with its first \p Count include lines only.
LeadingIncludes firstLines(const LeadingIncludes &Scan, unsigned Count) {
  LeadingIncludes Cut = Scan;
  Cut.Includes.resize(std::min<size_t>(Count, Scan.Includes.size()));
  Cut.HasQuoted =
      llvm::any_of(Cut.Includes, [](const LeadingIncludes::Line &L) {
        // (A quoted include, or a directive block that may hold one.)
        return llvm::StringRef(L.Spelling).contains('"');
      });
  return Cut;
}

} // namespace

std::vector<std::vector<size_t>>
PreambleCache::planRun(llvm::ArrayRef<std::string> Files, bool EachAlone,
                       bool Relint) {
  // (An unreadable file has no include line: a group of its own.)
  std::vector<LeadingIncludes> Scans(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    auto Buffer = llvm::MemoryBuffer::getFile(Files[I], /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (Buffer)
      Scans[I] = scanLeadingIncludes((*Buffer)->getBuffer());
  }
  // With the shared preamble, a file's own preamble covers the longest run
  // of its first include lines that another file of the run starts with too
  // (the rest of its include lines are parsed with the file): a file whose
  // lines are its own alone would build a preamble that serves it once,
  // which costs more than it saves. A run of one file (an editor, a
  // pre-commit hook) covers them all, for the next run of that file; so do
  // the few files a warm run parses (EachAlone), for the same reason.
  const bool Many = Files.size() > 1 && !EachAlone;
  llvm::StringMap<unsigned> Cuts;
  if (ChainOnShared && Many) {
    llvm::StringMap<unsigned> Starting; // files that start with a prefix
    for (size_t I = 0; I < Files.size(); ++I)
      for (unsigned J = 1; J <= Scans[I].Includes.size(); ++J)
        ++Starting[preambleSignature(firstLines(Scans[I], J), Files[I])];
    for (size_t I = 0; I < Files.size(); ++I) {
      unsigned Count = 0;
      for (unsigned J = 1; J <= Scans[I].Includes.size(); ++J)
        if (Starting[preambleSignature(firstLines(Scans[I], J), Files[I])] >=
            2)
          Count = J;
      if (Count < Scans[I].Includes.size()) {
        Cuts[planKey(Files[I])] = Count;
        Scans[I] = firstLines(Scans[I], Count);
      }
    }
  }
  llvm::StringMap<std::pair<unsigned, unsigned>> Counts;
  // Group number of each file: the position of its signature's first file.
  std::vector<std::pair<size_t, size_t>> Groups(Files.size());
  llvm::StringMap<size_t> FirstOf;
  for (size_t I = 0; I < Files.size(); ++I) {
    Groups[I] = {I, I};
    const LeadingIncludes &Scan = Scans[I];
    if (!Scan.cut(Scan.Includes.size()))
      continue;
    std::string Signature = preambleSignature(Scan, Files[I]);
    Groups[I].first = FirstOf.try_emplace(Signature, I).first->second;
    auto &Count = Counts[Signature];
    ++Count.first;
    ++Count.second;
  }
  llvm::sort(Groups);
  std::vector<std::vector<size_t>> Plan;
  for (size_t K = 0; K < Groups.size(); ++K) {
    if (K == 0 || Groups[K].first != Groups[K - 1].first)
      Plan.emplace_back();
    Plan.back().push_back(Groups[K].second);
  }
  // Not stopped over --file-memory-limit while holding the lock.
  const MemoryStopDeferred Deferred;
  std::scoped_lock Lock(Mutex);
  Planned = std::move(Counts);
  ManyFiles = Many;
  Relinted = Relint;
  PlannedCuts = std::move(Cuts);
  return Plan;
}

std::shared_ptr<const Preamble> PreambleCache::acquire(
    const CompilerInvocation &Invocation, llvm::StringRef MainFile,
    const llvm::MemoryBuffer &MainBuffer, const LeadingIncludes &FullScan,
    const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
    const std::shared_ptr<PCHContainerOperations> &PCHOps,
    PreambleSource &Source, bool CompilerWarningsShown) {
  Source = PreambleSource::None;
  // The include lines planRun chose this file's preamble to cover.
  LeadingIncludes Scan = FullScan;
  std::optional<unsigned> PlannedCut;
  bool SeveralFiles = false;
  bool Relint = false;
  {
    // Not stopped over --file-memory-limit while holding the lock.
    const MemoryStopDeferred Deferred;
    std::scoped_lock Lock(Mutex);
    auto It = PlannedCuts.find(planKey(MainFile));
    if (It != PlannedCuts.end())
      PlannedCut = It->second;
    SeveralFiles = ManyFiles;
    Relint = Relinted;
  }
  // A user header the preamble holds is named by the path it was found at
  // (a finding in it prints that name), so such a preamble serves only
  // compiles that spell their include folders alike: the folders as given
  // are in its key (flagsKey makes `a/../Common` and `Common` one key).
  // Where that would keep the files of a run from sharing one preamble (a
  // folder with `.` or `..` parts, as CMake gives cuda-samples), a run of
  // several files keeps the old cut and the shared key.
  bool AllowUserHeaders = UserHeaders;
  std::string Folders;
  for (const HeaderSearchOptions::Entry &Entry :
       Invocation.getHeaderSearchOpts().UserEntries) {
    // (What a system folder holds is a system header.)
    if (Entry.Group != frontend::Quoted && Entry.Group != frontend::Angled &&
        Entry.Group != frontend::After)
      continue;
    llvm::SmallString<256> Clean(Entry.Path);
    llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
    if (Clean != Entry.Path && SeveralFiles)
      AllowUserHeaders = false;
    Folders += Entry.Path;
    Folders += '\0';
  }
  if (!AllowUserHeaders)
    Folders.clear();
  if (PlannedCut)
    Scan = firstLines(FullScan, *PlannedCut);
  std::string Cwd;
  if (auto Dir = FS->getCurrentWorkingDirectory())
    Cwd = *Dir;
  // A file whose own preamble would be empty, or would serve it alone with
  // no cache folder to keep it (ggml's files each start with their own
  // header, so a run plans none of their lines), still starts from the
  // shared preamble: what precedes its first byte is the same for every
  // file of these flags, built once per run (and kept in the cache
  // folder). Not for one file with no cache folder: it would be built for
  // that file alone.
  // A run of one file with a folder builds what the folder lacks only at
  // its second sighting (issue 39; BuildAfter, SharedAfter): the first run
  // of a lone file is a parse.
  const bool Hesitant = Disk && !SeveralFiles && !Relint;
  const std::string Flags = flagsKey(Invocation);
  // A preamble built for a run that shows no compiler warning may hold a
  // header whose warnings it dropped: it is not for a run that shows them.
  auto WarningsPart = [&](KeyBuilder &Key) -> KeyBuilder & {
    return CompilerWarningsShown ? Key
                                 : Key.add("compiler warnings not shown");
  };
  auto SightingOf = [&](llvm::StringRef Lines) {
    KeyBuilder Key;
    Key.add(PreambleKeyVersion)
        .add("sighting")
        .add(toolVersionKey())
        .add(Flags)
        .add(Cwd)
        .add(Lines)
        .add(AllowUserHeaders ? "user headers" : "system headers only")
        .add(Folders);
    return WarningsPart(Key).final();
  };
  auto SharedBase = [&]() -> std::shared_ptr<const Preamble> {
    if (!ChainOnShared || (!Disk && !SeveralFiles))
      return nullptr;
    std::shared_ptr<const Preamble> Base = acquireShared(
        Invocation, Cwd, FS, PCHOps,
        Hesitant ? SharedPolicy::Sighted : SharedPolicy::Build);
    if (Base)
      Source = PreambleSource::SharedBase;
    return Base;
  };
  // (Of no include line, a file's own preamble would hold its leading
  // comments only: the shared one is all it can share.)
  if (!Scan.cut(Scan.Includes.size()) ||
      (ChainOnShared && Scan.Includes.empty()))
    return SharedBase();
  const std::string Signature = preambleSignature(Scan, MainFile);
  if (!Disk) {
    // Without a cache folder, a preamble no other file of the run uses
    // costs more than it saves: decided before any key is computed.
    bool Alone = false;
    {
      // Not stopped over --file-memory-limit while holding the lock.
      const MemoryStopDeferred Deferred;
      std::scoped_lock Lock(Mutex);
      auto Plan = Planned.find(Signature);
      Alone = Plan == Planned.end() || Plan->second.first < 2;
    }
    if (Alone)
      return SharedBase();
  }
  // Chained on the shared preamble when there is one; whole otherwise.
  std::shared_ptr<const Preamble> Shared;
  if (ChainOnShared)
    Shared = acquireShared(Invocation, Cwd, FS, PCHOps,
                           Hesitant && BuildAfter > 1 ? SharedPolicy::LoadOnly
                                                      : SharedPolicy::Build);
  auto KeyOf = [&](llvm::StringRef Lines, const Preamble *On) {
    KeyBuilder Key;
    Key.add(PreambleKeyVersion)
        .add(toolVersionKey())
        .add(Flags)
        .add(Cwd)
        .add(Lines)
        .add(On ? "chained on" : "whole")
        .add(On ? On->PchHash : Digest{})
        .add(AllowUserHeaders ? "user headers" : "system headers only")
        .add(Folders);
    return WarningsPart(Key).final();
  };
  if (Hesitant && BuildAfter > 1 && (Shared || !ChainOnShared) &&
      Disk->contains(EntryKind::Preamble, KeyOf(Signature, Shared.get()))) {
    // In the folder (checked when loaded below; built again if stale).
  } else if (Hesitant && BuildAfter > 1) {
    bool InMemory = false;
    {
      // Not stopped over --file-memory-limit while holding the lock.
      const MemoryStopDeferred Deferred;
      std::scoped_lock Lock(Mutex);
      for (const auto &[K, S] : Slots)
        InMemory = InMemory || S.Signature == Signature;
    }
    if (!InMemory && Disk->sight(SightingOf(Signature)) + 1 < BuildAfter) {
      // Seen for the first time: parsed without a preamble of its own
      // (from the shared one of its flags when there is one).
      if (Shared) {
        Source = PreambleSource::SharedBase;
        return Shared;
      }
      return SharedBase();
    }
    if (ChainOnShared && !Shared)
      Shared = acquireShared(Invocation, Cwd, FS, PCHOps);
  }
  const Digest Key = KeyOf(Signature, Shared.get());
  if (Shared && PlannedCut && Disk) {
    // A preamble of all its include lines, left by a run of this file alone,
    // serves it better than the shorter one planned.
    std::shared_ptr<const Preamble> Full =
        load(KeyOf(preambleSignature(FullScan, MainFile), Shared.get()),
             Shared);
    if (Full && Full->Usable && Full->IncludeCount <= FullScan.Includes.size() &&
        FullScan.cut(Full->IncludeCount)) {
      Source = PreambleSource::Disk;
      ++Counters.PreambleHits;
      return Full;
    }
  }

  std::promise<std::shared_ptr<const Preamble>> Promise;
  std::shared_future<std::shared_ptr<const Preamble>> Ready;
  bool Builder = false;
  {
    // Not stopped over --file-memory-limit while holding the lock.
    const MemoryStopDeferred Deferred;
    std::scoped_lock Lock(Mutex);
    bool Last = true; // no later file of this run needs it
    auto Plan = Planned.find(Signature);
    if (Plan != Planned.end()) {
      if (Plan->second.second)
        --Plan->second.second;
      Last = Plan->second.second == 0;
    }
    auto It = Slots.find(Key);
    if (It == Slots.end()) {
      Builder = true;
      Ready = Promise.get_future().share();
      It = Slots.emplace(Key, Slot{Ready, Signature}).first;
    } else {
      Ready = It->second.Ready;
    }
    if (Last)
      Slots.erase(It); // the run needs it no more: memory goes with the last
  }

  std::shared_ptr<const Preamble> Result;
  if (Builder) {
    auto Obtain = [&](const Digest &For,
                      const std::shared_ptr<const Preamble> &On) {
      std::shared_ptr<const Preamble> Got = load(For, On);
      if (Got) {
        Source = PreambleSource::Disk;
        ++Counters.PreambleHits;
        return Got;
      }
      Got = build(Invocation, MainFile, MainBuffer, Scan, For, FS, PCHOps, On,
                  AllowUserHeaders, CompilerWarningsShown);
      Source = PreambleSource::Built;
      ++Counters.PreambleMisses;
      if (Got->Usable)
        ++Counters.PreamblesBuilt;
      if (Got->Storable)
        store(For, *Got, /*Compress=*/true);
      return Got;
    };
    Result = Obtain(Key, Shared);
    // Whatever keeps a chained preamble from being usable, the whole one
    // (a preamble on its own, as before the shared one) is tried.
    if (Shared && !Result->Usable)
      Result = Obtain(KeyOf(Signature, nullptr), nullptr);
    Promise.set_value(Result);
  } else if (Ready.wait_for(std::chrono::seconds(0)) !=
             std::future_status::ready) {
    // Another -j worker is building it. Parsing this file without it (from
    // the shared preamble, when there is one) keeps this worker busy
    // instead of idle; the findings are the same.
    if (Shared)
      Source = PreambleSource::SharedBase;
    return Shared;
  } else {
    Result = Ready.get();
    Source = PreambleSource::Memory;
    ++Counters.PreamblesShared;
    if (Disk) // a use, for the eviction order (CacheStore::listing)
      Disk->noteUse(EntryKind::Preamble, Key);
  }
  if (!Result || !Result->Usable) {
    ++Counters.PreamblesUnusable;
    if (Shared)
      Source = PreambleSource::SharedBase;
    return Shared;
  }
  if (Result->IncludeCount > Scan.Includes.size() ||
      !Scan.cut(Result->IncludeCount))
    return nullptr;
  return Result;
}

unsigned PreambleCache::sightingsFromEnv(const char *Name, unsigned Default) {
  const char *Value = std::getenv(Name);
  unsigned N = 0;
  if (!Value || llvm::StringRef(Value).getAsInteger(10, N))
    return Default;
  return N;
}

std::shared_ptr<const Preamble> PreambleCache::acquireShared(
    const CompilerInvocation &Invocation, llvm::StringRef Cwd,
    const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
    const std::shared_ptr<PCHContainerOperations> &PCHOps,
    SharedPolicy Policy) {
  // What precedes a file's first byte depends on the flags (the predefines,
  // the -include'd CUDA wrapper) and the working folder (where a -include
  // is looked up first), not on the file.
  const Digest Key = KeyBuilder()
                         .add(PreambleKeyVersion)
                         .add("shared")
                         .add(toolVersionKey())
                         .add(flagsKey(Invocation))
                         .add(Cwd)
                         .final();
  if (Policy != SharedPolicy::Build && Disk) {
    bool InMemory = false;
    {
      // Not stopped over --file-memory-limit while holding the lock.
      const MemoryStopDeferred Deferred;
      std::scoped_lock Lock(Mutex);
      InMemory = SharedSlots.count(Key) != 0;
    }
    if (!InMemory && !Disk->contains(EntryKind::Preamble, Key)) {
      if (Policy == SharedPolicy::LoadOnly)
        return nullptr;
      const Digest Sighting = KeyBuilder()
                                  .add(PreambleKeyVersion)
                                  .add("shared sighting")
                                  .add(toolVersionKey())
                                  .add(flagsKey(Invocation))
                                  .add(Cwd)
                                  .final();
      if (Disk->sight(Sighting) + 1 < SharedAfter)
        return nullptr;
    }
  }
  std::promise<std::shared_ptr<const Preamble>> Promise;
  std::shared_future<std::shared_ptr<const Preamble>> Ready;
  bool Builder = false;
  {
    // Not stopped over --file-memory-limit while holding the lock.
    const MemoryStopDeferred Deferred;
    std::scoped_lock Lock(Mutex);
    auto It = SharedSlots.find(Key);
    if (It == SharedSlots.end()) {
      Builder = true;
      Ready = Promise.get_future().share();
      SharedSlots.emplace(Key, Ready);
    } else {
      Ready = It->second;
    }
  }
  if (!Builder) {
    std::shared_ptr<const Preamble> Result = Ready.get(); // a second or so
    if (Result && Disk) // a use, for the eviction order: every file's
      Disk->noteUse(EntryKind::Preamble, Key);
    return Result;
  }
  // The others wait for this build: it is not stopped over
  // --file-memory-limit before it is done (the thread stops at its next
  // allocation after it, when it went over).
  const MemoryStopDeferred Deferred;
  std::shared_ptr<const Preamble> Result = load(Key, nullptr);
  if (!Result) {
    llvm::SmallString<256> Anchor(Cwd);
    llvm::sys::path::append(Anchor, "shared");
    std::unique_ptr<llvm::MemoryBuffer> Empty =
        llvm::MemoryBuffer::getMemBuffer("", Anchor);
    Result = build(Invocation, Anchor, *Empty, LeadingIncludes(), Key, FS,
                   PCHOps, nullptr, /*AllowUserHeaders=*/false,
                   /*CompilerWarningsShown=*/true);
    if (Result->Storable)
      // (Kept as it is: every file of these flags loads it, in every run
      // that parses one, and a load of an uncompressed entry reads only
      // the pages clang touches.)
      store(Key, *Result, /*Compress=*/false);
  }
  if (!Result->Usable)
    Result = nullptr;
  Promise.set_value(Result);
  return Result;
}

void PreambleCache::replayUserFiles(const Preamble &P, const SourceManager &SM,
                                    std::vector<FileID> &Files,
                                    std::vector<SourceRange> &Skipped) {
  // The PCH keeps the distance from its main file to each file it holds:
  // the entry there is the file's when it starts there and has its name.
  // (Otherwise, the slow way: the source manager's first entry of the file.)
  const FileID Main = SM.getPreambleFileID();
  const SourceLocation Base =
      Main.isValid() ? SM.getLocForStartOfFile(Main) : SourceLocation();
  constexpr uint64_t MaxOffset = 1ULL
                                 << (8 * sizeof(SourceLocation::UIntTy) - 1);
  const bool InRange = Base.isValid() && SM.isLoadedSourceLocation(Base) &&
                       static_cast<uint64_t>(Base.getRawEncoding()) + P.Span <=
                           MaxOffset;
  std::vector<FileID> IDs(P.UserFiles.size());
  for (size_t I = 0; I < P.UserFiles.size(); ++I) {
    const Preamble::UserFile &File = P.UserFiles[I];
    FileID FID;
    if (InRange && File.Offset < P.Span) {
      // (Below 2^31: the span fits under the highest offset.)
      SourceLocation Start = Base.getLocWithOffset(
          static_cast<SourceLocation::IntTy>(File.Offset));
      FileID At = SM.getFileID(Start);
      OptionalFileEntryRef Entry = SM.getFileEntryRefForID(At);
      if (At.isValid() && Entry && SM.getLocForStartOfFile(At) == Start) {
        llvm::SmallString<256> Path(Entry->getName());
        SM.getFileManager().makeAbsolutePath(Path);
        llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
        if (Path == File.Path)
          FID = At;
      }
    }
    if (FID.isInvalid())
      if (OptionalFileEntryRef Entry =
              SM.getFileManager().getOptionalFileRef(File.Path))
        FID = SM.translateFile(*Entry);
    IDs[I] = FID;
    if (FID.isValid())
      Files.push_back(FID);
  }
  for (const Preamble::SkippedRange &Range : P.Skipped) {
    if (Range.File >= IDs.size() || IDs[Range.File].isInvalid() ||
        Range.End > SM.getFileIDSize(IDs[Range.File]))
      continue;
    SourceLocation Start = SM.getLocForStartOfFile(IDs[Range.File]);
    // (Within the file: below its size.)
    Skipped.emplace_back(
        Start.getLocWithOffset(static_cast<SourceLocation::IntTy>(Range.Begin)),
        Start.getLocWithOffset(static_cast<SourceLocation::IntTy>(Range.End)));
  }
  // The ranges #if skipped in the main file's part the preamble holds: the
  // same bytes at the same offsets in the real main file.
  const FileID RealMain = SM.getMainFileID();
  if (RealMain.isInvalid())
    return;
  const SourceLocation MainStart = SM.getLocForStartOfFile(RealMain);
  for (const auto &[Begin, End] : P.MainSkipped)
    if (End <= SM.getFileIDSize(RealMain))
      Skipped.emplace_back(
          MainStart.getLocWithOffset(static_cast<SourceLocation::IntTy>(Begin)),
          MainStart.getLocWithOffset(static_cast<SourceLocation::IntTy>(End)));
}

unsigned PreambleCache::restoreDeferredDiagnostics(const Preamble &P,
                                                   CompilerInstance &CI) {
  if (P.Deferred.empty())
    return 0;
  // The distance from the PCH's main file, as replayUserFiles.
  const SourceManager &SM = CI.getSourceManager();
  const FileID Main = SM.getPreambleFileID();
  SourceLocation Base =
      Main.isValid() ? SM.getLocForStartOfFile(Main) : SourceLocation();
  constexpr uint64_t MaxOffset = 1ULL
                                 << (8 * sizeof(SourceLocation::UIntTy) - 1);
  if (Base.isValid() &&
      (!SM.isLoadedSourceLocation(Base) ||
       static_cast<uint64_t>(Base.getRawEncoding()) + P.Span > MaxOffset))
    Base = SourceLocation();
  return driver::restoreDeferredDiagnostics(
      P.Deferred, P.PchPath, P.Shared ? llvm::StringRef(P.Shared->PchPath) : "",
      Base, P.Span, CI);
}

void PreambleCache::apply(const Preamble &P, const LeadingIncludes &Scan,
                          PreambleSource Source,
                          CompilerInvocation &Invocation,
                          llvm::vfs::OverlayFileSystem &FS,
                          std::unique_ptr<llvm::MemoryBuffer> MainBuffer) {
  PreprocessorOptions &PP = Invocation.getPreprocessorOpts();
  if (Source == PreambleSource::SharedBase) {
    // No byte of the file is skipped: clang reads the PCH as a
    // -include-pch, as the build of a chained preamble does.
    startFromShared(PP, P.PchPath);
  } else {
    PP.ImplicitPCHInclude = P.PchPath;
    PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
    PP.PrecompiledPreambleBytes = {Scan.cut(P.IncludeCount),
                                   /*PreambleEndsAtStartOfLine=*/true};
    // The predefines (and the CUDA wrapper header the driver
    // force-includes) are in the preamble.
    PP.UsePredefines = false;
  }
  PP.addRemappedFile(Invocation.getFrontendOpts().Inputs[0].getFile(),
                     MainBuffer.release());
  pushPch(P, FS);
}

} // namespace clang::tidy::cuda::driver
