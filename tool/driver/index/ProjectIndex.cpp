//===--- ProjectIndex.cpp - cuda-grid-sync-launch across files ------------===//

#include "tool/driver/index/ProjectIndex.h"
#include "tool/driver/config/ConfigValidation.h"
#include "tool/driver/config/HeaderPairing.h"
#include "tool/driver/support/PrivateFolder.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>
#ifdef LLVM_ON_UNIX
#include <dirent.h>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace clang::tidy::cuda::driver {

std::vector<CrossFileFinding>
joinLaunchRecords(llvm::ArrayRef<analysis::TranslationUnitRecord> Records) {
  llvm::StringMap<const analysis::IndexedKernel *> Kernels;
  for (const analysis::TranslationUnitRecord &Record : Records)
    for (const analysis::IndexedKernel &Kernel : Record.Kernels)
      Kernels.try_emplace(Kernel.MangledName, &Kernel);

  std::vector<CrossFileFinding> Findings;
  for (const analysis::TranslationUnitRecord &Record : Records)
    for (const analysis::IndexedLaunch &Launch : Record.Launches) {
      auto It = Kernels.find(Launch.MangledName);
      if (It == Kernels.end())
        continue;
      const analysis::IndexedKernel &Kernel = *It->second;
      CrossFileFinding Finding;
      Finding.MainFile = Record.MainFile;
      Finding.Where = Launch.Where;
      Finding.Message = analysis::needsCooperativeLaunchMessage(
          Launch.KernelName, Kernel.SyncSpelling, Launch.Form);
      Finding.Notes = Kernel.Chain;
      Finding.Notes.insert(Finding.Notes.end(), Launch.Notes.begin(),
                           Launch.Notes.end());
      Findings.push_back(std::move(Finding));
    }
  return Findings;
}

/// A record names source locations: a C, C++ or CUDA file or header. Any
/// other name (a record edited by hand, or a folder shared by mistake) is
/// not opened, so that no line of such a file is printed (issue 38 G9).
static bool isSourceOrHeaderName(llvm::StringRef Path) {
  if (isHeaderPath(Path))
    return true;
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  static constexpr llvm::StringLiteral Sources[] = {".cu",  ".c",   ".cc",
                                                    ".cpp", ".cxx", ".c++"};
  return llvm::any_of(Sources, [&](llvm::StringRef Source) {
    return Ext.equals_insensitive(Source);
  });
}

static void addStats(ClangTidyStats &Sum, const ClangTidyStats &S) {
  Sum.ErrorsDisplayed += S.ErrorsDisplayed;
  Sum.ErrorsIgnoredCheckFilter += S.ErrorsIgnoredCheckFilter;
  Sum.ErrorsIgnoredNOLINT += S.ErrorsIgnoredNOLINT;
  Sum.ErrorsIgnoredNonUserCode += S.ErrorsIgnoredNonUserCode;
  Sum.ErrorsIgnoredLineFilter += S.ErrorsIgnoredLineFilter;
}

std::vector<ClangTidyError>
toClangTidyErrors(llvm::ArrayRef<CrossFileFinding> Findings,
                  std::unique_ptr<ClangTidyOptionsProvider> Options,
                  const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &FS,
                  ClangTidyStats &Stats, std::vector<std::string> *Unplaced) {
  if (Findings.empty())
    return {};
  // The same machinery a check's diagnostics go through: a diagnostics
  // engine whose consumer is clang-tidy's, over the real source files.
  ClangTidyContext Context(std::move(Options), false, false, false);
  ClangTidyDiagnosticConsumer Consumer(Context);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIDs::create(), *DiagOpts, &Consumer,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);
  FileManager Files(FileSystemOptions(), FS);

  // One source manager per translation unit: its main file decides what is
  // "in the main file" for the header filter, as in the run itself.
  std::map<std::string, std::vector<const CrossFileFinding *>> ByUnit;
  for (const CrossFileFinding &Finding : Findings)
    ByUnit[Finding.MainFile].push_back(&Finding);
  const std::string CheckName = analysis::GridSyncLaunchCheckName.str();

  auto Unplace = [&](const CrossFileFinding &Finding, llvm::StringRef Why) {
    if (Unplaced)
      Unplaced->push_back(Finding.Where.File + ":" +
                          std::to_string(Finding.Where.Line) + ":" +
                          std::to_string(Finding.Where.Column) + ": " +
                          Why.str());
  };
  for (const auto &[MainFile, UnitFindings] : ByUnit) {
    if (!isSourceOrHeaderName(MainFile)) {
      for (const CrossFileFinding *Finding : UnitFindings)
        Unplace(*Finding, "not reported: its translation unit '" + MainFile +
                              "' is not a C, C++ or CUDA file");
      continue;
    }
    OptionalFileEntryRef Main = Files.getOptionalFileRef(MainFile);
    if (!Main) {
      for (const CrossFileFinding *Finding : UnitFindings)
        Unplace(*Finding, "not reported: its translation unit '" + MainFile +
                              "' cannot be read");
      continue;
    }
    SourceManager Sources(Engine, Files);
    Engine.setSourceManager(&Sources);
    Context.setCurrentFile(MainFile);
    Consumer.BeginSourceFile(Context.getLangOpts());
    FileID MainID =
        Sources.createFileID(*Main, SourceLocation(), SrcMgr::C_User);
    Sources.setMainFileID(MainID);
    std::map<std::string, FileID> Opened{{MainFile, MainID}};
    auto LocationOf = [&](const analysis::IndexLocation &Where)
        -> std::optional<SourceLocation> {
      auto It = Opened.find(Where.File);
      if (It == Opened.end()) {
        if (!isSourceOrHeaderName(Where.File))
          return std::nullopt;
        OptionalFileEntryRef File = Files.getOptionalFileRef(Where.File);
        if (!File)
          return std::nullopt;
        // Included from the main file, so that a header is a header.
        FileID ID = Sources.createFileID(
            *File, Sources.getLocForStartOfFile(MainID), SrcMgr::C_User);
        It = Opened.emplace(Where.File, ID).first;
      }
      std::optional<llvm::MemoryBufferRef> Buffer =
          Sources.getBufferOrNone(It->second);
      if (!Buffer || Where.Offset > Buffer->getBufferSize())
        return std::nullopt; // the file changed since it was analyzed
      SourceLocation Loc =
          Sources.getLocForStartOfFile(It->second)
              .getLocWithOffset(static_cast<SourceLocation::IntTy>(Where.Offset));
      // A joined record may be older than the file (--join-index): the
      // offset must still be at the line and column recorded with it.
      if (Where.Line && (Sources.getSpellingLineNumber(Loc) != Where.Line ||
                         Sources.getSpellingColumnNumber(Loc) != Where.Column))
        return std::nullopt;
      return Loc;
    };

    for (const CrossFileFinding *Finding : UnitFindings) {
      std::optional<SourceLocation> Launch = LocationOf(Finding->Where);
      if (!Launch) {
        Unplace(*Finding,
                isSourceOrHeaderName(Finding->Where.File)
                    ? "not reported: the file cannot be read, or it changed "
                      "since it was analyzed"
                    : "not reported: the record names a file that is not a "
                      "C, C++ or CUDA file");
        continue;
      }
      Context.diag(CheckName, *Launch, "%0") << Finding->Message;
      for (const analysis::IndexNote &Note : Finding->Notes)
        if (std::optional<SourceLocation> At = LocationOf(Note.Where))
          Context.diag(CheckName, *At, "%0", DiagnosticIDs::Note)
              << Note.Message;
    }
    Consumer.EndSourceFile();
    Engine.setSourceManager(nullptr);
  }
  std::vector<ClangTidyError> Errors = Consumer.take();
  addStats(Stats, Context.getStats());
  return Errors;
}

#ifdef LLVM_ON_UNIX
namespace {

/// The index folder of the run, for the signal handler (one ProjectIndex a
/// process; empty when none).
char InterruptedIndexDir[4096];
/// Every signal whose default ends the process and that a run meets in
/// practice: an interrupt, a kill, a closed terminal (issue 16 F14), a
/// closed pipe (`cuda-tidy ... | head -1`), SIGQUIT and an alarm (issue 38
/// G16: those three left the folder).
constexpr int CleanupSignals[6] = {SIGINT,  SIGTERM, SIGHUP,
                                   SIGPIPE, SIGQUIT, SIGALRM};
struct sigaction PreviousActions[std::size(CleanupSignals)];

/// On one of CleanupSignals: removes the index folder (the records in
/// it, then the folder), then lets the signal do what it did before
/// (LLVM's handler, then the default: the process ends with that signal).
/// Issue 16 F14: an interrupted run left cuda-tidy-index-* folders behind.
void removeIndexOnSignal(int Signal) {
  if (InterruptedIndexDir[0]) {
    if (DIR *D = ::opendir(InterruptedIndexDir)) {
      int DirFD = ::dirfd(D);
      while (struct dirent *E = ::readdir(D))
        if (std::strcmp(E->d_name, ".") != 0 && std::strcmp(E->d_name, "..") != 0)
          ::unlinkat(DirFD, E->d_name, 0);
      ::closedir(D);
    }
    ::rmdir(InterruptedIndexDir);
    InterruptedIndexDir[0] = 0;
  }
  for (size_t I = 0; I < std::size(CleanupSignals); ++I)
    if (CleanupSignals[I] == Signal)
      ::sigaction(Signal, &PreviousActions[I], nullptr);
  ::raise(Signal); // delivered when this handler returns
}

void removeIndexOnSignals(llvm::StringRef Dir) {
  // One folder at a time (a process has one index; tests may make more).
  if (InterruptedIndexDir[0] || Dir.size() >= sizeof(InterruptedIndexDir))
    return;
  std::memcpy(InterruptedIndexDir, Dir.data(), Dir.size());
  InterruptedIndexDir[Dir.size()] = 0;
  struct sigaction Action = {};
  Action.sa_handler = removeIndexOnSignal;
  sigemptyset(&Action.sa_mask);
  for (size_t I = 0; I < std::size(CleanupSignals); ++I) {
    ::sigaction(CleanupSignals[I], &Action, &PreviousActions[I]);
    // A signal the parent ignores (SIGPIPE often is) stays ignored: it does
    // not end the process, so there is nothing to clean up after.
    if (PreviousActions[I].sa_handler == SIG_IGN &&
        !(PreviousActions[I].sa_flags & SA_SIGINFO))
      ::sigaction(CleanupSignals[I], &PreviousActions[I], nullptr);
  }
}

void keepIndexOnSignals(llvm::StringRef Dir) {
  if (llvm::StringRef(InterruptedIndexDir) != Dir)
    return;
  for (size_t I = 0; I < std::size(CleanupSignals); ++I)
    ::sigaction(CleanupSignals[I], &PreviousActions[I], nullptr);
  InterruptedIndexDir[0] = 0;
}

} // namespace
#else
static void removeIndexOnSignals(llvm::StringRef) {}
static void keepIndexOnSignals(llvm::StringRef) {}
#endif

ProjectIndex::ProjectIndex() {
  // Only named here: the first record creates the folder (writeRecord), so
  // a run with nothing to record, or one that is killed before it records
  // anything, leaves nothing in the temporary folder.
  llvm::SmallString<256> Model;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  llvm::sys::path::append(Model, "cuda-tidy-index-%%%%%%%%%%%%%%%%");
  llvm::SmallString<256> Path;
  llvm::sys::fs::createUniquePath(Model, Path, /*MakeAbsolute=*/true);
  if (llvm::sys::fs::exists(Path)) {
    Error = "cannot pick a fresh index folder in the temporary folder";
    return;
  }
  Dir = std::string(Path);
  analysis::trustIndexFolder(Dir);
  removeIndexOnSignals(Dir);
}

ProjectIndex::~ProjectIndex() {
  if (Dir.empty())
    return;
  (void)llvm::sys::fs::remove_directories(Dir, /*IgnoreErrors=*/true);
  analysis::forgetIndexFolder(Dir);
  keepIndexOnSignals(Dir);
}

namespace {

/// Another provider's options, with one check option set over all of them.
class WithCheckOption : public ClangTidyOptionsProvider {
public:
  WithCheckOption(std::unique_ptr<ClangTidyOptionsProvider> Base,
                  std::string Name, std::string Value)
      : Base(std::move(Base)), Name(std::move(Name)), Value(std::move(Value)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override {
    return Base->getGlobalOptions();
  }

  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    std::vector<OptionsSource> Sources = Base->getRawOptions(FileName);
    ClangTidyOptions Extra;
    Extra.CheckOptions[Name] = ClangTidyOptions::ClangTidyValue(Value);
    Sources.emplace_back(std::move(Extra), "cuda-tidy project index");
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Base;
  std::string Name;
  std::string Value;
};

} // namespace

std::unique_ptr<ClangTidyOptionsProvider> ProjectIndex::withIndexOption(
    std::unique_ptr<ClangTidyOptionsProvider> Options) const {
  if (!enabled() || !Options)
    return Options;
  return std::make_unique<WithCheckOption>(std::move(Options),
                                           (analysis::GridSyncLaunchCheckName +
                                            "." +
                                            analysis::ProjectIndexDirOption)
                                               .str(),
                                           Dir);
}

std::vector<ClangTidyError>
ProjectIndex::report(std::unique_ptr<ClangTidyOptionsProvider> Options,
                     ClangTidyStats &Stats) const {
  if (!enabled() || !Options)
    return {};
  auto Records = analysis::readRecords(Dir);
  if (!Records) {
    llvm::WithColor::warning(llvm::errs(), "cuda-tidy")
        << "cross-file launch check skipped: "
        << llvm::toString(Records.takeError()) << "\n";
    return {};
  }
  return toClangTidyErrors(joinLaunchRecords(*Records), std::move(Options),
                           llvm::vfs::getRealFileSystem(), Stats);
}

llvm::Error ProjectIndex::exportTo(llvm::StringRef ToDir,
                                   llvm::ArrayRef<std::string> MainFiles,
                                   llvm::StringRef ToolVersion) const {
  // Without the run's records, empty ones would erase what earlier runs
  // recorded for these files.
  if (!enabled())
    return llvm::createStringError("no launch records were kept in this run: " +
                                   Error);
  auto Records = analysis::readRecords(Dir);
  if (!Records)
    return Records.takeError();
  return writeIndexFolder(ToDir, *Records, MainFiles, ToolVersion);
}

namespace {

/// The "format" of an --index-dir record file, and its version.
constexpr llvm::StringLiteral IndexFileFormat = "cuda-tidy-launch-index";
constexpr int IndexFileVersion = 1;

/// \p Path made absolute and cleaned of `.` and `..`, as the records name
/// their files.
std::string cleanSourcePath(llvm::StringRef Path) {
  llvm::SmallString<256> Clean(Path);
  (void)llvm::sys::fs::make_absolute(Clean);
  llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true);
  return std::string(Clean);
}

llvm::Error errorWithErrno(const llvm::Twine &What) {
  const int Saved = errno;
  return llvm::createStringError(
      std::error_code(Saved, std::generic_category()),
      What + ": " + std::strerror(Saved));
}

} // namespace

std::string indexFileName(llvm::StringRef MainFile) {
  std::string Base;
  for (char C : llvm::sys::path::filename(MainFile))
    Base += llvm::isAlnum(C) || C == '.' || C == '-' || C == '_' ? C : '_';
  if (Base.empty() || Base.front() == '.')
    Base.insert(Base.begin(), '_'); // dot-files are not read
  std::string Name;
  llvm::raw_string_ostream(Name)
      << Base << "."
      << llvm::format_hex_no_prefix(llvm::xxh3_64bits(MainFile), 16)
      << ".launches.json";
  return Name;
}

llvm::Expected<std::string> prepareIndexFolder(llvm::StringRef DirArg) {
  // Several launcher calls may make it at once.
  llvm::Expected<std::string> Made = makePrivateFolder(DirArg);
  if (!Made)
    return Made.takeError();
  if (llvm::Error E = checkIndexFolderOwner(*Made))
    return std::move(E);
  return *Made;
}

llvm::Error checkIndexFolderOwner(llvm::StringRef DirArg) {
  const std::string Dir = DirArg.str();
  struct stat St;
  if (::stat(Dir.c_str(), &St) != 0)
    return errorWithErrno("cannot open '" + Dir + "'");
  if (!S_ISDIR(St.st_mode))
    return llvm::createStringError(
        std::make_error_code(std::errc::not_a_directory),
        "'" + Dir + "' is not a folder");
  if (St.st_uid != ::geteuid())
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'" + Dir + "' belongs to another user");
  if (St.st_mode & (S_IWGRP | S_IWOTH))
    return llvm::createStringError(
        std::make_error_code(std::errc::permission_denied),
        "'" + Dir + "' is writable by other users (chmod 700 it)");
  return llvm::Error::success();
}

llvm::Error
writeIndexFolder(llvm::StringRef Dir,
                 llvm::ArrayRef<analysis::TranslationUnitRecord> Records,
                 llvm::ArrayRef<std::string> MainFiles,
                 llvm::StringRef ToolVersion) {
  // The records of each main file, written without llvm::json's tree
  // (issue 38 G10), as `OS << json::Value(File)` would write it.
  std::map<std::string, std::vector<const analysis::TranslationUnitRecord *>>
      ByMain;
  for (const std::string &Main : MainFiles)
    ByMain[cleanSourcePath(Main)];
  for (const analysis::TranslationUnitRecord &Record : Records)
    ByMain[Record.MainFile].push_back(&Record);
  llvm::Error Failed = llvm::Error::success();
  for (const auto &Entry : ByMain) {
    const std::string &Main = Entry.first;
    const std::vector<const analysis::TranslationUnitRecord *> &Recorded =
        Entry.second;
    // Through a temporary file and a rename: a join, or another run of the
    // same file, reads the old record or the new one, never half of one.
    llvm::SmallString<256> Model(Dir);
    llvm::sys::path::append(Model, ".record-%%%%%%%%%%%%%%%%.tmp");
    llvm::SmallString<256> Temporary;
    int FD = -1;
    if (std::error_code EC =
            llvm::sys::fs::createUniqueFile(Model, FD, Temporary)) {
      Failed = llvm::joinErrors(
          std::move(Failed),
          llvm::createStringError(EC, "cannot create a record in '" + Dir +
                                          "': " + EC.message()));
      continue;
    }
    std::error_code EC;
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      {
        llvm::json::OStream JOS(OS);
        JOS.object([&] { // keys in json::Value's order: sorted
          JOS.attribute("format", IndexFileFormat);
          JOS.attribute("main", Main);
          JOS.attributeArray("records", [&] {
            for (const analysis::TranslationUnitRecord *Record : Recorded)
              analysis::writeJSON(JOS, *Record);
          });
          JOS.attribute("tool", ToolVersion);
          JOS.attribute("version", IndexFileVersion);
        });
      }
      OS << "\n";
      OS.close();
      if (OS.has_error())
        EC = OS.error();
      OS.clear_error();
    }
    llvm::SmallString<256> Final(Dir);
    llvm::sys::path::append(Final, indexFileName(Main));
    if (!EC)
      EC = llvm::sys::fs::rename(Temporary, Final);
    if (EC) {
      (void)llvm::sys::fs::remove(Temporary);
      Failed = llvm::joinErrors(
          std::move(Failed),
          llvm::createStringError(EC, "cannot write '" + Final +
                                          "': " + EC.message()));
    }
  }
  return Failed;
}

namespace {

/// One --index-dir record file read: its source and records, or why it is
/// skipped.
llvm::Expected<std::pair<std::string, std::vector<analysis::TranslationUnitRecord>>>
readIndexFile(llvm::StringRef Path, llvm::StringRef ToolVersion) {
  auto Text = readInputFile(Path, DataFileMaxBytes);
  if (!Text)
    return Text.takeError();
  llvm::StringRef Bytes = (*Text)->getBuffer();
  if (llvm::Error E = checkNestingDepth(Bytes, Path, InputSyntax::Json))
    return std::move(E);
  // Read in place: llvm::json's tree of a record held about 85 times its
  // size (issue 38 G10).
  if (llvm::Error E = analysis::checkStrictJson(Bytes))
    return std::move(E);
  llvm::StringMap<llvm::StringRef> Members; // the last value of each key
  analysis::forEachMember(Bytes, [&](llvm::StringRef Key,
                                     llvm::StringRef Value) {
    static constexpr llvm::StringLiteral Read[] = {"format", "version", "tool",
                                                   "main", "records"};
    if (llvm::is_contained(Read, Key))
      Members[Key] = Value;
  });
  // A scalar member's value, as the tree would hold it (a container is
  // neither a string nor an integer).
  auto Scalar = [&](llvm::StringRef Key) -> std::optional<llvm::json::Value> {
    auto It = Members.find(Key);
    if (It == Members.end() || It->second.starts_with("{") ||
        It->second.starts_with("["))
      return std::nullopt;
    llvm::Expected<llvm::json::Value> Value = llvm::json::parse(It->second);
    if (!Value) {
      llvm::consumeError(Value.takeError());
      return std::nullopt;
    }
    return std::move(*Value);
  };
  auto String = [&](llvm::StringRef Key) -> std::optional<std::string> {
    std::optional<llvm::json::Value> Value = Scalar(Key);
    if (std::optional<llvm::StringRef> S =
            Value ? Value->getAsString() : std::nullopt)
      return S->str();
    return std::nullopt;
  };
  std::optional<std::string> Format = String("format");
  if (!Bytes.ltrim(" \t\r\n").starts_with("{") || !Format ||
      *Format != IndexFileFormat)
    return llvm::createStringError("not a launch record of cuda-tidy "
                                   "--index-dir");
  std::optional<llvm::json::Value> VersionValue = Scalar("version");
  std::optional<int64_t> Version =
      VersionValue ? VersionValue->getAsInteger() : std::nullopt;
  if (Version != IndexFileVersion)
    return llvm::createStringError(
        "record format version " +
        (Version ? std::to_string(*Version) : std::string("(none)")) +
        "; this cuda-tidy reads version " + std::to_string(IndexFileVersion));
  std::optional<std::string> Tool = String("tool");
  if (!Tool || *Tool != ToolVersion)
    return llvm::createStringError(
        "written by cuda-tidy " + (Tool ? *Tool : "(unknown)") +
        ", this is cuda-tidy " + ToolVersion +
        ": write and join the records with one version");
  std::optional<std::string> Main = String("main");
  if (!Main || !llvm::sys::path::is_absolute(*Main))
    return llvm::createStringError("no absolute 'main' path");
  if (llvm::sys::path::filename(Path) != indexFileName(*Main))
    return llvm::createStringError(
        "the record of '" + *Main + "' is named '" + indexFileName(*Main) +
        "', not '" + llvm::sys::path::filename(Path) + "'");
  auto List = Members.find("records");
  if (List == Members.end() || !List->second.starts_with("["))
    return llvm::createStringError("no 'records' list");
  std::vector<analysis::TranslationUnitRecord> Records;
  llvm::Error Failed = llvm::Error::success();
  analysis::forEachElement(List->second, [&](llvm::StringRef Item) {
    analysis::TranslationUnitRecord Record;
    llvm::json::Path::Root Root;
    if (!analysis::fromJSONText(Item, Record, Root)) {
      Failed = llvm::createStringError("a malformed record: " +
                                       llvm::toString(Root.getError()));
      return false;
    }
    if (Record.MainFile != *Main) {
      Failed = llvm::createStringError("a record of '" + Record.MainFile +
                                       "' in the file of '" + *Main + "'");
      return false;
    }
    Records.push_back(std::move(Record));
    return true;
  });
  if (Failed)
    return std::move(Failed);
  return std::make_pair(std::move(*Main), std::move(Records));
}

} // namespace

llvm::Expected<IndexFolders> readIndexFolders(llvm::ArrayRef<std::string> Dirs,
                                              llvm::StringRef ToolVersion) {
  struct Source {
    std::string RecordPath;
    std::vector<analysis::TranslationUnitRecord> Records;
  };
  std::map<std::string, Source> ByMain;
  IndexFolders Result;
  for (const std::string &Dir : Dirs) {
    if (!llvm::sys::fs::exists(Dir))
      return llvm::createStringError(
          std::make_error_code(std::errc::no_such_file_or_directory),
          "--join-index: no folder '" + Dir +
              "' (the folder a run with --index-dir wrote)");
    if (!llvm::sys::fs::is_directory(Dir))
      return llvm::createStringError(
          std::make_error_code(std::errc::not_a_directory),
          "--join-index: '" + Dir + "' is not a folder");
    std::vector<std::string> Entries;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC))
      Entries.push_back(It->path());
    if (EC)
      return llvm::createStringError(EC, "--join-index: cannot list '" + Dir +
                                             "': " + EC.message());
    llvm::sort(Entries);
    std::map<std::string, Source> InFolder;
    for (const std::string &Path : Entries) {
      if (llvm::sys::path::filename(Path).starts_with("."))
        continue; // a record being written, or not ours to read
      if (llvm::sys::fs::is_directory(Path)) {
        Result.Skipped.push_back(
            "'" + Path +
            "': a folder, not a record (name each folder of records: "
            "--join-index DIR/*)");
        continue;
      }
      auto Read = readIndexFile(Path, ToolVersion);
      if (!Read) {
        Result.Skipped.push_back("'" + Path +
                                 "': " + llvm::toString(Read.takeError()));
        continue;
      }
      InFolder[Read->first] = {Path, std::move(Read->second)};
    }
    for (auto &[Main, Found] : InFolder)
      ByMain[Main] = std::move(Found);
  }
  for (auto &[Main, Found] : ByMain) {
    if (!llvm::sys::fs::exists(Main)) {
      Result.Skipped.push_back(
          "'" + Found.RecordPath + "': its source '" + Main +
          "' is not here; the join reads each source's NOLINT comments and "
          ".clang-tidy files: run it in a checkout of the same commit at the "
          "same path, or remove the record of a deleted file");
      continue;
    }
    Result.MainFiles.push_back(Main);
    for (analysis::TranslationUnitRecord &Record : Found.Records)
      Result.Records.push_back(std::move(Record));
  }
  analysis::orderRecords(Result.Records);
  return Result;
}

} // namespace clang::tidy::cuda::driver
