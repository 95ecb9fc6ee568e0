//===--- ResultCache.cpp - unchanged files are not analyzed again ---------===//

#include "tool/driver/cache/ResultCache.h"

#include "checks/analysis/launch/LaunchIndex.h"

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/PreprocessorOptions.h"

namespace clang::tidy::cuda::driver {

namespace {

constexpr llvm::StringLiteral ResultKeyVersion = "cuda-tidy result 3";
constexpr uint32_t PayloadVersion = 4;

void writeMessage(PayloadWriter &Out, const tooling::DiagnosticMessage &M) {
  Out.str(M.Message);
  Out.str(M.FilePath);
  Out.u32(M.FileOffset);
  // StringMap order is not fixed; the encoding is, by file name.
  std::vector<llvm::StringRef> Files;
  for (const auto &Entry : M.Fix)
    Files.push_back(Entry.getKey());
  llvm::sort(Files);
  Out.u32(Files.size());
  for (llvm::StringRef File : Files) {
    Out.str(File);
    const tooling::Replacements &Replacements = M.Fix.find(File)->second;
    Out.u32(Replacements.size());
    for (const tooling::Replacement &R : Replacements) {
      Out.str(R.getFilePath());
      Out.u32(R.getOffset());
      Out.u32(R.getLength());
      Out.str(R.getReplacementText());
    }
  }
  Out.u32(M.Ranges.size());
  for (const tooling::FileByteRange &Range : M.Ranges) {
    Out.str(Range.FilePath);
    Out.u32(Range.FileOffset);
    Out.u32(Range.Length);
  }
}

bool readMessage(PayloadReader &In, tooling::DiagnosticMessage &M) {
  uint32_t Files = 0;
  uint32_t Ranges = 0;
  if (!In.str(M.Message) || !In.str(M.FilePath) || !In.u32(M.FileOffset) ||
      !In.count(Files, 8))
    return false;
  for (uint32_t I = 0; I < Files; ++I) {
    std::string File;
    uint32_t Count = 0;
    if (!In.str(File) || !In.count(Count, 16))
      return false;
    tooling::Replacements Replacements;
    for (uint32_t J = 0; J < Count; ++J) {
      std::string Path;
      std::string Text;
      uint32_t Offset = 0;
      uint32_t Length = 0;
      if (!In.str(Path) || !In.u32(Offset) || !In.u32(Length) || !In.str(Text))
        return false;
      // They were a valid set when stored; one that no longer adds up is a
      // damaged entry.
      if (llvm::Error E = Replacements.add(
              tooling::Replacement(Path, Offset, Length, Text))) {
        llvm::consumeError(std::move(E));
        return false;
      }
    }
    M.Fix[File] = std::move(Replacements);
  }
  if (!In.count(Ranges, 12))
    return false;
  for (uint32_t I = 0; I < Ranges; ++I) {
    tooling::FileByteRange Range;
    if (!In.str(Range.FilePath) || !In.u32(Range.FileOffset) ||
        !In.u32(Range.Length))
      return false;
    M.Ranges.push_back(std::move(Range));
  }
  return true;
}

} // namespace

std::string encodeResult(const StoredResult &Result) {
  PayloadWriter Out;
  Out.u32(PayloadVersion);
  Out.u8(Result.Success);
  Out.u32(Result.Dependencies.size());
  for (const FileDigest &D : Result.Dependencies) {
    Out.str(D.Path);
    Out.digest(D.Hash);
  }
  Out.paths(Result.Missing);
  Out.paths(Result.Found);
  Out.digest(Result.SameFiles);
  const ClangTidyStats &S = Result.Stats;
  for (unsigned V :
       {S.ErrorsDisplayed, S.ErrorsIgnoredCheckFilter, S.ErrorsIgnoredNOLINT,
        S.ErrorsIgnoredNonUserCode, S.ErrorsIgnoredLineFilter})
    Out.u32(V);
  Out.u32(Result.Errors.size());
  for (const ClangTidyError &E : Result.Errors) {
    Out.str(E.DiagnosticName);
    writeMessage(Out, E.Message);
    Out.u32(E.Notes.size());
    for (const tooling::DiagnosticMessage &Note : E.Notes)
      writeMessage(Out, Note);
    Out.u8(static_cast<uint8_t>(E.DiagLevel));
    Out.str(E.BuildDirectory);
    Out.u8(E.IsWarningAsError);
    Out.u32(E.EnabledDiagnosticAliases.size());
    for (const std::string &Alias : E.EnabledDiagnosticAliases)
      Out.str(Alias);
  }
  Out.u32(Result.Records.size());
  for (const std::string &Record : Result.Records)
    Out.str(Record);
  Out.u32(Result.FunctionsNotAnalyzed.size());
  for (const std::string &Name : Result.FunctionsNotAnalyzed)
    Out.str(Name);
  return std::move(Out.bytes());
}

std::optional<StoredResult> decodeResult(llvm::StringRef Payload) {
  PayloadReader In(Payload);
  StoredResult Result;
  uint32_t Version = 0;
  uint32_t Deps = 0;
  uint32_t Errors = 0;
  uint8_t Success = 0;
  if (!In.u32(Version) || Version != PayloadVersion || !In.u8(Success) ||
      !In.count(Deps, 4 + 32))
    return std::nullopt;
  Result.Success = Success != 0;
  for (uint32_t I = 0; I < Deps; ++I) {
    FileDigest D;
    if (!In.str(D.Path) || !In.digest(D.Hash))
      return std::nullopt;
    Result.Dependencies.push_back(std::move(D));
  }
  if (!In.paths(Result.Missing) || !In.paths(Result.Found) ||
      !In.digest(Result.SameFiles))
    return std::nullopt;
  ClangTidyStats &S = Result.Stats;
  for (unsigned *V :
       {&S.ErrorsDisplayed, &S.ErrorsIgnoredCheckFilter, &S.ErrorsIgnoredNOLINT,
        &S.ErrorsIgnoredNonUserCode, &S.ErrorsIgnoredLineFilter}) {
    uint32_t N = 0;
    if (!In.u32(N))
      return std::nullopt;
    *V = N;
  }
  if (!In.count(Errors, 16))
    return std::nullopt;
  for (uint32_t I = 0; I < Errors; ++I) {
    std::string Name;
    if (!In.str(Name))
      return std::nullopt;
    ClangTidyError E(Name, ClangTidyError::Warning, "", false);
    uint32_t Notes = 0;
    uint32_t Aliases = 0;
    uint8_t Level = 0;
    uint8_t AsError = 0;
    if (!readMessage(In, E.Message) || !In.count(Notes, 16))
      return std::nullopt;
    for (uint32_t J = 0; J < Notes; ++J) {
      tooling::DiagnosticMessage Note;
      if (!readMessage(In, Note))
        return std::nullopt;
      E.Notes.push_back(std::move(Note));
    }
    if (!In.u8(Level) || !In.str(E.BuildDirectory) || !In.u8(AsError) ||
        !In.count(Aliases, 4))
      return std::nullopt;
    if (Level != ClangTidyError::Remark && Level != ClangTidyError::Warning &&
        Level != ClangTidyError::Error)
      return std::nullopt;
    E.DiagLevel = ClangTidyError::Level(Level);
    E.IsWarningAsError = AsError != 0;
    for (uint32_t J = 0; J < Aliases; ++J) {
      std::string Alias;
      if (!In.str(Alias))
        return std::nullopt;
      E.EnabledDiagnosticAliases.push_back(std::move(Alias));
    }
    Result.Errors.push_back(std::move(E));
  }
  // A count, then that many strings.
  auto ReadStrings = [&In](std::vector<std::string> &Into) {
    uint32_t N = 0;
    if (!In.count(N, 4))
      return false;
    for (uint32_t I = 0; I < N; ++I) {
      std::string S;
      if (!In.str(S))
        return false;
      Into.push_back(std::move(S));
    }
    return true;
  };
  if (!ReadStrings(Result.Records) ||
      !ReadStrings(Result.FunctionsNotAnalyzed) || !In.atEnd())
    return std::nullopt;
  return Result;
}

Digest ResultCache::key(const CompilerInvocation &Invocation,
                        llvm::StringRef MainFile, llvm::StringRef WorkingDir,
                        const ClangTidyOptions &Options,
                        const ClangTidyGlobalOptions &Global,
                        bool ApplyAnyFix) {
  KeyBuilder Key;
  Key.add(ResultKeyVersion).add(toolVersionKey()).add(MainFile).add(WorkingDir);
  for (const std::string &Arg : Invocation.getCC1CommandLine())
    Key.add(Arg);
  Key.add(static_cast<uint64_t>(
      Invocation.getPreprocessorOpts().SetUpStaticAnalyzer));
  // The project index folder is new in every run; where the records go does
  // not change what they say.
  ClangTidyOptions Keyed = Options;
  Keyed.CheckOptions.erase((analysis::GridSyncLaunchCheckName + "." +
                            analysis::ProjectIndexDirOption)
                               .str());
  Key.add(configurationAsText(Keyed));
  Key.add(static_cast<uint64_t>(Global.LineFilter.size()));
  for (const FileFilter &Filter : Global.LineFilter) {
    Key.add(Filter.Name).add(static_cast<uint64_t>(Filter.LineRanges.size()));
    for (const FileFilter::LineRange &Range : Filter.LineRanges)
      Key.add(static_cast<uint64_t>(Range.first))
          .add(static_cast<uint64_t>(Range.second));
  }
  Key.add(static_cast<uint64_t>(ApplyAnyFix));
  return Key.final();
}

std::optional<StoredResult> ResultCache::lookup(const Digest &Key) {
  std::optional<CacheStore::Entry> Entry = Disk.read(EntryKind::Result, Key);
  if (!Entry) {
    ++Disk.Counters.ResultMisses;
    return std::nullopt;
  }
  std::optional<StoredResult> Result = decodeResult(Entry->Payload);
  if (!Result) {
    ++Disk.Counters.CorruptEntries;
    ++Disk.Counters.ResultMisses;
    return std::nullopt;
  }
  if (!dependenciesUnchanged(Result->Dependencies, Hasher) ||
      !lookupsUnchanged(Result->Missing, Result->Found) ||
      sameFileDigest(Result->Dependencies, Result->Found) !=
          Result->SameFiles) {
    ++Disk.Counters.ResultMisses;
    return std::nullopt;
  }
  ++Disk.Counters.ResultHits;
  return Result;
}

void ResultCache::store(const Digest &Key, const StoredResult &Result) {
  std::string Payload = encodeResult(Result);
  Disk.write(EntryKind::Result, Key, {Payload});
}

} // namespace clang::tidy::cuda::driver
