//===--- ProjectIndex.cpp - cuda-grid-sync-launch across files ------------===//

#include "tool/driver/ProjectIndex.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <iterator>
#include <map>
#ifdef LLVM_ON_UNIX
#include <dirent.h>
#include <csignal>
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
                  ClangTidyStats &Stats) {
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

  for (const auto &[MainFile, UnitFindings] : ByUnit) {
    OptionalFileEntryRef Main = Files.getOptionalFileRef(MainFile);
    if (!Main)
      continue;
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
      return Sources.getLocForStartOfFile(It->second)
          .getLocWithOffset(static_cast<SourceLocation::IntTy>(Where.Offset));
    };

    for (const CrossFileFinding *Finding : UnitFindings) {
      std::optional<SourceLocation> Launch = LocationOf(Finding->Where);
      if (!Launch)
        continue;
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
struct sigaction PreviousActions[3];
constexpr int CleanupSignals[3] = {SIGINT, SIGTERM, SIGHUP};

/// On SIGINT, SIGTERM or SIGHUP: removes the index folder (the records in
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
  for (size_t I = 0; I < std::size(CleanupSignals); ++I)
    ::sigaction(CleanupSignals[I], &Action, &PreviousActions[I]);
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

} // namespace clang::tidy::cuda::driver
