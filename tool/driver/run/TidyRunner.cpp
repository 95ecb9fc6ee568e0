//===--- TidyRunner.cpp - clang-tidy on one file, with the caches ---------===//

#include "tool/driver/run/TidyRunner.h"
#include "checks/UserFiles.h"
#include "checks/analysis/core/CompileErrors.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "tool/driver/support/MemoryBudget.h"
#include "tool/driver/report/FixApplier.h"
#include "tool/driver/run/PerArchFindings.h"
#include "tool/driver/report/Findings.h"

#include "checks/analysis/launch/LaunchIndex.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/GlobList.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Sema/MultiplexExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <ctime>
#include <mutex>

namespace clang::tidy::cuda::driver {

namespace {

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

/// Times the AST consumer's work after the parse: the matchers' traversal,
/// the checks, and their end-of-translation-unit analyses.
class TimedConsumer : public MultiplexConsumer {
public:
  TimedConsumer(std::unique_ptr<ASTConsumer> Inner, double &Seconds)
      : MultiplexConsumer(wrap(std::move(Inner))), Seconds(Seconds) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    auto Start = std::chrono::steady_clock::now();
    MultiplexConsumer::HandleTranslationUnit(Ctx);
    Seconds += secondsSince(Start);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>>
  wrap(std::unique_ptr<ASTConsumer> Inner) {
    std::vector<std::unique_ptr<ASTConsumer>> V;
    V.push_back(std::move(Inner));
    return V;
  }
  double &Seconds;
};

/// Limits the matchers' walk to the user's code: the top-level
/// declarations that are not in a system header. This is what clangd does
/// for clang-tidy in the editor. Without it every run walks the CUDA and
/// CCCL headers' declarations too (0.2 to 0.5 s a file), and with a
/// precompiled preamble that walk is what is left of the parse's cost: each
/// header declaration is read back from the PCH as the walk reaches it.
/// Diagnostics in system headers are dropped anyway, so the findings are the
/// same; with --system-headers the whole translation unit is walked. The
/// reference run (--no-cache --no-preamble, clang-tidy's own runClangTidy)
/// walks everything, and tests/cache compares the two on the whole lit
/// suite.
/// The top-level declarations of the user's code: those this parse made
/// that are not in a system header, after those of the user headers the
/// preamble \p P holds (if any), in the order a full parse makes them.
/// The preamble's are read back by the IDs its build recorded
/// (Preamble::UserDecls); only when those are not exact is every top-level
/// declaration of the PCH read back to pick the user's (the system headers'
/// are most of them: a seventh of a warm re-lint). noload_decls: without
/// reading the PCH's list back when the preamble holds system headers only.
std::vector<Decl *> userTopLevelDecls(CompilerInstance &CI, const Preamble *P) {
  ASTContext &Ctx = CI.getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const bool PreambleHasUserCode = P && !P->UserFiles.empty();
  std::vector<Decl *> UserDecls;
  auto Add = [&](Decl *D) {
    SourceLocation Loc = D->getLocation();
    if (PreambleHasUserCode && D->isFromASTFile() && Loc.isInvalid())
      return; // what Sema declares for itself: made again by this parse
    if (Loc.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
      return;
    UserDecls.push_back(D);
  };
  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  if (!PreambleHasUserCode) {
    llvm::for_each(TU->noload_decls(), Add);
    return UserDecls;
  }
  // (The shared preamble holds what the driver force-includes: system
  // headers. Were it to hold user code, its declarations are read too.)
  if (P->UserDeclsExact && (!P->Shared || P->Shared->UserFiles.empty())) {
    if (std::optional<std::vector<Decl *>> FromPch =
            declarationsFromPch(P->UserDecls, P->PchPath, CI)) {
      UserDecls = std::move(*FromPch);
      for (Decl *D : TU->noload_decls())
        if (!D->isFromASTFile())
          Add(D);
      return UserDecls;
    }
  }
  llvm::for_each(TU->decls(), Add);
  return UserDecls;
}

class UserCodeScope : public MultiplexConsumer {
public:
  UserCodeScope(std::unique_ptr<ASTConsumer> Inner, CompilerInstance &CI,
                const Preamble *P)
      : MultiplexConsumer(std::move(Inner)), CI(CI), P(P) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::vector<Decl *> UserDecls = userTopLevelDecls(CI, P);
    Ctx.setTraversalScope(UserDecls);
    MultiplexConsumer::HandleTranslationUnit(Ctx);
    Ctx.setTraversalScope({Ctx.getTranslationUnitDecl()});
  }

private:
  CompilerInstance &CI;
  const Preamble *P;
};

/// Once the checks have run on a translation unit with compiler errors:
/// the user's function definitions that do not compile, which the checks
/// left out (checks/analysis/core/CompileErrors.h), each named with the first
/// place it does not compile.
class FunctionsNotAnalyzed : public MultiplexConsumer {
public:
  FunctionsNotAnalyzed(std::unique_ptr<ASTConsumer> Inner,
                       std::vector<std::string> &Names, CompilerInstance &CI,
                       const Preamble *P)
      : MultiplexConsumer(std::move(Inner)), Names(Names), CI(CI), P(P) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    MultiplexConsumer::HandleTranslationUnit(Ctx);
    if (!Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Finder Find(Ctx.getSourceManager(), Names);
    for (Decl *D : userTopLevelDecls(CI, P))
      Find.TraverseDecl(D);
  }

private:
  struct Finder : RecursiveASTVisitor<Finder> {
    Finder(const SourceManager &SM, std::vector<std::string> &Names)
        : SM(SM), Names(Names) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl *FD) {
      // A template instance whose body failed to instantiate is left
      // invalid with no body.
      const bool FailedInstance =
          FD->isInvalidDecl() && FD->isTemplateInstantiation();
      if ((!FD->doesThisDeclarationHaveABody() && !FailedInstance) ||
          FD->isDependentContext())
        return true;
      const SourceLocation Error = analysis::firstCompileError(*FD);
      if (Error.isInvalid())
        return true;
      const PresumedLoc Where = SM.getPresumedLoc(SM.getExpansionLoc(FD->getLocation()));
      const PresumedLoc At = SM.getPresumedLoc(SM.getExpansionLoc(Error));
      if (Where.isInvalid() || !Seen.insert(FD->getLocation().getRawEncoding()).second)
        return true;
      std::string Name = Where.getFilename();
      Name += ":" + std::to_string(Where.getLine()) + ":" +
              std::to_string(Where.getColumn());
      Name += ": function '" + FD->getQualifiedNameAsString() +
              "' was not analyzed: it does not compile";
      if (FailedInstance)
        Name += " (an instance of a template that does not compile for its "
                "arguments)";
      else if (At.isValid())
        Name += " (the first error in it is at line " +
                std::to_string(At.getLine()) + ")";
      Names.push_back(std::move(Name));
      return true;
    }
    const SourceManager &SM;
    std::vector<std::string> &Names;
    llvm::DenseSet<unsigned> Seen;
  };
  std::vector<std::string> &Names;
  CompilerInstance &CI;
  const Preamble *P;
};

/// Shows the checks what a full parse's preprocessor callbacks see of the
/// user headers a preamble holds (PreambleCache::replayUserFiles), for the
/// compile on this thread while it lives.
class ReplayFromPreamble : public PreambleReplay {
public:
  explicit ReplayFromPreamble(const Preamble *P) : P(P) {
    if (P && (!P->UserFiles.empty() || !P->MainSkipped.empty()))
      PreambleReplay::set(this);
  }
  ~ReplayFromPreamble() override { PreambleReplay::set(nullptr); }
  ReplayFromPreamble(const ReplayFromPreamble &) = delete;
  ReplayFromPreamble &operator=(const ReplayFromPreamble &) = delete;
  void replay(const SourceManager &SM, std::vector<FileID> &Files,
              std::vector<SourceRange> &Skipped) const override {
    PreambleCache::replayUserFiles(*P, SM, Files, Skipped);
  }

private:
  const Preamble *P;
};

/// CUDA's deferred diagnostics over a preamble, given to Sema at the end of
/// the translation unit (Sema::emitDeferredDiags, which first asks the
/// external source for the functions to walk from):
/// - the ones the preamble's build recorded in user headers
///   (DeferredDiagnostics.h): a PCH drops them, and a full parse reports
///   them when the file's device code reaches the function;
/// - and the PCH's list of functions to walk, read only when there is a
///   deferred diagnostic to look for. emitDeferredDiags reads back every
///   function the headers define that it might have to walk (a tenth of a
///   warm run, each one deserialized) and then returns at once if none was
///   recorded, the common case: testing first gives the same diagnostics
///   without the read.
/// It is the compile's external Sema source before Sema attaches the PCH
/// reader, which Sema then adds to it (Sema::addExternalSource adds to a
/// multiplexing source), so it stands in front of the reader; the end of
/// the main file (a PPCallbacks' EndOfMainFile) comes after the end of the
/// translation unit and would be too late.
class PreambleDeferredDiagnostics : public MultiplexExternalSemaSource {
public:
  PreambleDeferredDiagnostics(CompilerInstance &Compiler, const Preamble &P)
      : MultiplexExternalSemaSource(
            llvm::makeIntrusiveRefCnt<ExternalSemaSource>(),
            llvm::makeIntrusiveRefCnt<ExternalSemaSource>()),
        Compiler(Compiler), P(P) {}

  void InitializeSema(Sema &S) override {
    MultiplexExternalSemaSource::InitializeSema(S);
    TheSema = &S;
  }

  void ForgetSema() override {
    MultiplexExternalSemaSource::ForgetSema();
    TheSema = nullptr;
  }

  void ReadDeclsToCheckForDeferredDiags(
      llvm::SmallSetVector<Decl *, 4> &Decls) override {
    if (!TheSema) {
      MultiplexExternalSemaSource::ReadDeclsToCheckForDeferredDiags(Decls);
      return;
    }
    if (!Restored) {
      Restored = true;
      PreambleCache::restoreDeferredDiagnostics(P, Compiler);
    }
    // The condition emitDeferredDiags returns on, with the list unread.
    if (TheSema->DeviceDeferredDiags.empty() && !TheSema->getLangOpts().OpenMP)
      return;
    // The headers' functions first, as a full parse met them: the walk's
    // order decides which caller a "called by" note names.
    llvm::SmallSetVector<Decl *, 4> InOrder;
    MultiplexExternalSemaSource::ReadDeclsToCheckForDeferredDiags(InOrder);
    InOrder.insert(Decls.begin(), Decls.end());
    Decls = std::move(InOrder);
  }

private:
  CompilerInstance &Compiler;
  const Preamble &P;
  Sema *TheSema = nullptr;
  bool Restored = false;
};

/// What one file's run learns between the compile command and the end.
struct FileState {
  // Result cache.
  bool Cacheable = false;
  Digest ResultKey{};
  std::optional<StoredResult> Replayed;
  /// RunCaches::ResultOnly, and the cache did not answer.
  bool NeedsParse = false;
  bool Success = true;
  std::vector<FileDigest> Dependencies;
  bool DependenciesComplete = true;
  /// What the compile looked up and did not find (the file system under the
  /// compile records it), and what was found missing so far.
  LookupRecorder *Lookups = nullptr;
  std::vector<std::string> Missing;
  std::vector<std::string> Found;
  Digest SameFiles{}; ///< sameFileDigest of the two above, after the parse.
  std::string IndexDir;
  std::string MainFile; ///< Absolute, as the launch records name it.
  llvm::StringSet<> RecordsBefore;
  // Preamble.
  std::shared_ptr<const Preamble> UsedPreamble;
  PreambleSource Source = PreambleSource::None;
  // Timing.
  double AnalysisSeconds = 0;
  unsigned Commands = 0;
  // The user's files as the parse read them (FileRun::UserFilesRead).
  std::vector<std::pair<std::string, std::string>> UserFilesRead;
  std::vector<std::string> FunctionsNotAnalyzed;
  // Each command's findings apart (PerArchFindings.h): the consumer holds
  // those since the last command began, which are CommandArch's.
  ClangTidyDiagnosticConsumer *Consumer = nullptr;
  std::string CommandArch;
  std::vector<CommandFindings> PerCommand;
  void closeCommand() {
    std::vector<ClangTidyError> Errors = Consumer->take();
    absoluteFileNames(Errors);
    sortAsClangTidy(Errors); // in the order of those names (issue 38 G11)
    PerCommand.push_back({CommandArch, std::move(Errors)});
  }
};

/// Whether clang-tidy's header and line filters give each user header of
/// \p P the same verdict under the name the PCH gives it as under the one
/// a full parse gives it (Preamble::UserFile::LookedUpAs): if not, the
/// file is parsed without the preamble, since the findings kept would
/// differ.
bool headerNamesAgree(const Preamble &P, const ClangTidyOptions &Options,
                      const ClangTidyGlobalOptions &Global) {
  const bool AnyRenamed = llvm::any_of(P.UserFiles, [](const auto &File) {
    return !File.LookedUpAs.empty();
  });
  if (!AnyRenamed)
    return true;
  llvm::Regex Header(Options.HeaderFilterRegex.value_or(""));
  llvm::Regex Exclude(Options.ExcludeHeaderFilterRegex.value_or(""));
  for (const Preamble::UserFile &File : P.UserFiles) {
    if (File.LookedUpAs.empty())
      continue;
    for (llvm::Regex *Filter : {&Header, &Exclude})
      if (Filter->match(File.Path) != Filter->match(File.LookedUpAs))
        return false;
    for (const FileFilter &Lines : Global.LineFilter)
      if (llvm::StringRef(File.Path).ends_with(Lines.Name) !=
          llvm::StringRef(File.LookedUpAs).ends_with(Lines.Name))
        return false;
  }
  return true;
}

llvm::StringSet<> recordNames(llvm::StringRef Dir) {
  llvm::StringSet<> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.starts_with("tu-") && Name.ends_with(".json"))
      Names.insert(Name);
  }
  return Names;
}

/// Whether a run with \p Options may report a compiler warning: a
/// `clang-diagnostic-*` check is enabled by name or by a wider glob (`*`,
/// `clang-*`). Conservative: no check list counts as yes.
bool compilerWarningsShown(const ClangTidyOptions &Options) {
  if (!Options.Checks)
    return true;
  if (llvm::StringRef(*Options.Checks).contains("clang-diagnostic"))
    return true;
  return GlobList(*Options.Checks).contains("clang-diagnostic-any-warning");
}

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(ClangTidyContext &Context,
          const llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> &BaseFS,
          bool ApplyAnyFix, const RunCaches &Caches, FileState &State)
      : ConsumerFactory(Context, BaseFS), Context(Context), BaseFS(BaseFS),
        ApplyAnyFix(ApplyAnyFix), Caches(Caches), State(State) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(*this);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As runClangTidy: __clang_analyzer__ defined, no "N warnings
    // generated" lines.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    // `#pragma clang __debug crash` (and parser_crash, assert,
    // llvm_fatal_error, llvm_unreachable, overflow_stack) stop the compiler
    // on purpose: in a worker thread, they end the process and every other
    // file's findings with it. A file's text must not decide that; as in
    // clangd, they are ignored. The preamble builds copy this invocation.
    // The crash-recovery test (lit cli/crash-recovery.test) turns them back
    // on through the environment, as clangd's tests do, to crash a parse.
    static const bool CrashPragmasForTest =
        llvm::sys::Process::GetEnv("CUDA_TIDY_TEST_CRASH_PRAGMAS").has_value();
    Invocation->getPreprocessorOpts().DisablePragmaDebugCrash =
        !CrashPragmasForTest;
    Invocation->getDiagnosticOpts().ShowCarets = false;
    if (State.Commands > 0)
      State.closeCommand();
    State.CommandArch = Invocation->getLangOpts().CUDAIsDevice
                            ? Invocation->getTargetOpts().CPU
                            : std::string();
    ++State.Commands;
    // Asked of the result cache only (RunCaches::ResultOnly): whatever it
    // does not answer is parsed in the run's second step, from the start.
    auto NeedsParse = [&] {
      State.NeedsParse = true;
      return true;
    };
    if (Invocation->getFrontendOpts().Inputs.size() != 1 ||
        (!Caches.Preambles && !Caches.Results))
      return Caches.ResultOnly
                 ? NeedsParse()
                 : FrontendActionFactory::runInvocation(Invocation, Files,
                                                        PCHOps, DiagConsumer);
    const std::string MainPath =
        Invocation->getFrontendOpts().Inputs[0].getFile().str();
    // The bytes analyzed, read once: the preamble is checked against them,
    // the result keyed by them, and the compiler reads them from here.
    auto Main = Files->getBufferForFile(MainPath, /*isVolatile=*/true);
    if (!Main)
      return Caches.ResultOnly
                 ? NeedsParse()
                 : FrontendActionFactory::runInvocation(Invocation, Files,
                                                        PCHOps, DiagConsumer);
    std::string Cwd;
    if (auto Dir = Files->getVirtualFileSystem().getCurrentWorkingDirectory())
      Cwd = *Dir;

    if (Caches.Results && State.Commands == 1 && !Caches.TimeChecks) {
      ClangTidyOptions Options = Context.getOptionsForFile(MainPath);
      State.ResultKey =
          ResultCache::key(*Invocation, MainPath, Cwd, Options,
                           Context.getGlobalOptions(), ApplyAnyFix);
      if (std::optional<StoredResult> Hit =
              Caches.ResultLookedUp
                  ? std::nullopt
                  : Caches.Results->lookup(State.ResultKey)) {
        // Its dependencies, the main file first, were just found unchanged.
        State.Replayed = std::move(Hit);
        return State.Replayed->Success;
      }
      if (Caches.ResultOnly)
        return NeedsParse();
      State.Cacheable = true;
      // The driver's probes (for the CUDA installation, the GCC toolchain)
      // made the cc1 command line, which is in the key; from here on the
      // lookups are the compile's.
      if (State.Lookups)
        State.Lookups->clear();
      llvm::SmallString<256> Absolute(MainPath);
      Files->makeAbsolutePath(Absolute);
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
      State.MainFile = std::string(Absolute);
      State.Dependencies.push_back(
          {State.MainFile, digestOf((*Main)->getBuffer())});
      auto Dir =
          Options.CheckOptions.find((analysis::GridSyncLaunchCheckName + "." +
                                     analysis::ProjectIndexDirOption)
                                        .str());
      // Only the run's own folder (F22): never one a .clang-tidy names.
      if (Dir != Options.CheckOptions.end() &&
          analysis::isTrustedIndexFolder(Dir->second.Value)) {
        State.IndexDir = Dir->second.Value;
        State.RecordsBefore = recordNames(State.IndexDir);
      }
    }

    if (Caches.ResultOnly)
      return NeedsParse();
    if (Caches.Preambles) {
      LeadingIncludes Scan = scanLeadingIncludes((*Main)->getBuffer());
      State.UsedPreamble = Caches.Preambles->acquire(
          *Invocation, MainPath, **Main, Scan, Files->getVirtualFileSystemPtr(),
          PCHOps, State.Source,
          compilerWarningsShown(Context.getOptionsForFile(MainPath)));
      if (Caches.PreambleAcquired)
        Caches.PreambleAcquired();
      if (State.UsedPreamble &&
          !headerNamesAgree(*State.UsedPreamble,
                            Context.getOptionsForFile(MainPath),
                            Context.getGlobalOptions())) {
        State.UsedPreamble.reset();
        State.Source = PreambleSource::None;
      }
      if (State.UsedPreamble) {
        PreambleCache::apply(*State.UsedPreamble, Scan, State.Source,
                             *Invocation, *BaseFS,
                             std::move(*Main));
        llvm::append_range(State.Dependencies,
                           State.UsedPreamble->Dependencies);
        // Its lookups were made when it was built, maybe in another run.
        mergePaths(State.Missing, State.UsedPreamble->Missing);
        mergePaths(State.Found, State.UsedPreamble->Found);
        // The user headers' bytes it was built from, for --fix.
        llvm::append_range(State.UserFilesRead,
                           State.UsedPreamble->UserFilesRead);
      }
    }
    const ReplayFromPreamble Replay(State.UsedPreamble.get());
    State.Success = FrontendActionFactory::runInvocation(Invocation, Files,
                                                         PCHOps, DiagConsumer);
    return State.Success;
  }

private:
  class Action : public ASTFrontendAction {
  public:
    explicit Action(Factory &Owner) : Owner(Owner) {}

    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                   StringRef File) override {
      std::unique_ptr<ASTConsumer> Consumer =
          Owner.ConsumerFactory.createASTConsumer(Compiler, File);
      // Before createSema, which adds it, then the PCH reader.
      if (Owner.State.UsedPreamble)
        Compiler.setExternalSemaSource(
            llvm::makeIntrusiveRefCnt<PreambleDeferredDiagnostics>(
                Compiler, *Owner.State.UsedPreamble));
      const Preamble *From = Owner.State.UsedPreamble.get();
      if (Consumer && !Owner.Context.getOptions().SystemHeaders.value_or(false))
        Consumer = std::make_unique<UserCodeScope>(std::move(Consumer),
                                                   Compiler, From);
      if (Consumer)
        Consumer = std::make_unique<FunctionsNotAnalyzed>(
            std::move(Consumer), Owner.State.FunctionsNotAnalyzed, Compiler,
            From);
      if (Owner.Caches.TimeChecks && Consumer)
        return std::make_unique<TimedConsumer>(std::move(Consumer),
                                               Owner.State.AnalysisSeconds);
      return Consumer;
    }

    /// Every file the analysis read, with its contents' digest.
    void EndSourceFileAction() override {
      FileState &State = Owner.State;
      CompilerInstance &CI = getCompilerInstance();
      SourceManager &Sources = CI.getSourceManager();
      recordUserFilesRead(CI, Sources);
      if (!State.Cacheable)
        return;
      llvm::StringMap<Digest> Known;
      for (const FileDigest &D : State.Dependencies)
        Known[D.Path] = D.Hash;
      for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end();
           ++It) {
        llvm::SmallString<256> Path(It->first.getName());
        CI.getFileManager().makeAbsolutePath(Path);
        llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
        if (Known.contains(Path))
          continue;
        // The preamble's own main file: its text is in the PCH.
        if (llvm::sys::path::filename(Path).starts_with(".cuda-tidy-preamble-"))
          continue;
        std::optional<Digest> Hash;
        if (std::optional<llvm::MemoryBufferRef> Buffer =
                It->second->getBufferIfLoaded())
          Hash = digestOf(Buffer->getBuffer());
        else if (Owner.Caches.Hasher)
          // Known to the source manager but never read: as on disk now.
          Hash = Owner.Caches.Hasher->hashFile(Path);
        if (!Hash) {
          State.DependenciesComplete = false;
          continue;
        }
        Known[Path] = *Hash;
        State.Dependencies.push_back({std::string(Path), *Hash});
      }
      // What the parse looked for: the paths that named nothing, and those
      // found but not read (folders, `__has_include` answers).
      if (State.Lookups) {
        mergePaths(State.Missing, State.Lookups->missing());
        mergePaths(State.Found, State.Lookups->found(State.Dependencies));
        // Right after the parse, so that a header that becomes a link (or
        // stops being one) while the result is being reported is not taken
        // for what this parse saw (issue 38 G1).
        State.SameFiles = sameFileDigest(State.Dependencies, State.Found);
      } else {
        State.DependenciesComplete = false;
      }
      ASTFrontendAction::EndSourceFileAction();
    }

  private:
    /// The bytes of the main file and of every non-system header, as this
    /// parse read them: a fix is computed against these, so --fix must find
    /// the same bytes on disk (issue 16 F3: a header edited during the run
    /// once got its fixes at stale offsets).
    void recordUserFilesRead(CompilerInstance &CI, SourceManager &Sources) {
      HeaderSearch *Search = CI.hasPreprocessor()
                                 ? &CI.getPreprocessor().getHeaderSearchInfo()
                                 : nullptr;
      for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end();
           ++It) {
        std::optional<llvm::MemoryBufferRef> Buffer =
            It->second->getBufferIfLoaded();
        if (!Buffer)
          continue;
        if (Search && Search->getFileDirFlavor(It->first) != SrcMgr::C_User)
          continue;
        llvm::SmallString<256> Path(It->first.getName());
        CI.getFileManager().makeAbsolutePath(Path);
        if (llvm::sys::path::filename(Path).starts_with(".cuda-tidy-preamble-"))
          continue;
        Owner.State.UserFilesRead.emplace_back(
            Path.str().str(), contentHash(Buffer->getBuffer()));
      }
    }

    Factory &Owner;
  };

  ClangTidyASTConsumerFactory ConsumerFactory;
  ClangTidyContext &Context;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS;
  bool ApplyAnyFix;
  const RunCaches &Caches;
  FileState &State;
};

/// The launch records this file's translation unit wrote during the run.
std::vector<std::string> newRecords(const FileState &State) {
  std::vector<std::string> Records;
  if (State.IndexDir.empty())
    return Records;
  for (const auto &Name : recordNames(State.IndexDir)) {
    if (State.RecordsBefore.contains(Name.getKey()))
      continue;
    llvm::SmallString<256> Path(State.IndexDir);
    llvm::sys::path::append(Path, Name.getKey());
    auto Buffer = llvm::MemoryBuffer::getFile(Path);
    if (!Buffer)
      continue;
    llvm::Expected<analysis::TranslationUnitRecord> Record =
        analysis::parseRecord((*Buffer)->getBuffer());
    if (!Record) {
      llvm::consumeError(Record.takeError());
      continue;
    }
    if (Record->MainFile == State.MainFile)
      Records.push_back((*Buffer)->getBuffer().str());
  }
  llvm::sort(Records);
  return Records;
}

void replayRecords(const FileState &State, const StoredResult &Result,
                   ClangTidyContext &Context, llvm::StringRef File) {
  if (Result.Records.empty())
    return;
  ClangTidyOptions Options = Context.getOptionsForFile(File);
  auto Dir = Options.CheckOptions.find((analysis::GridSyncLaunchCheckName +
                                        "." + analysis::ProjectIndexDirOption)
                                           .str());
  if (Dir == Options.CheckOptions.end() ||
      !analysis::isTrustedIndexFolder(Dir->second.Value))
    return;
  for (const std::string &Text : Result.Records) {
    llvm::Expected<analysis::TranslationUnitRecord> Record =
        analysis::parseRecord(Text);
    if (!Record) {
      llvm::consumeError(Record.takeError());
      continue;
    }
    if (llvm::Error E = analysis::writeRecord(Dir->second.Value, *Record))
      llvm::consumeError(std::move(E));
  }
}

llvm::StringRef sourceName(PreambleSource Source) {
  switch (Source) {
  case PreambleSource::None:
    return "none";
  case PreambleSource::Memory:
    return "shared";
  case PreambleSource::Disk:
    return "cache";
  case PreambleSource::Built:
    return "built";
  case PreambleSource::SharedBase:
    return "shared base";
  }
  return "none";
}

} // namespace

FileRun runFileWithCaches(
    ClangTidyContext &Context, const tooling::CompilationDatabase &Compilations,
    llvm::StringRef File,
    const llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> &BaseFS,
    bool ApplyAnyFix, const RunCaches &Caches) {
  auto Start = std::chrono::steady_clock::now();
  // Every file system access of the compile goes through the recorder: a
  // result is replayed only while what it did not find is still not there.
  auto Lookups = llvm::makeIntrusiveRefCnt<LookupRecorder>(BaseFS);
  tooling::ClangTool Tool(Compilations, {File.str()},
                          std::make_shared<PCHContainerOperations>(), Lookups);
  // Extra arguments from the clang-tidy configuration, as runClangTidy adds
  // them.
  Tool.appendArgumentsAdjuster(
      [&Context](const tooling::CommandLineArguments &Args,
                 StringRef Filename) {
        ClangTidyOptions Opts = Context.getOptionsForFile(Filename);
        tooling::CommandLineArguments Adjusted = Args;
        if (Opts.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !StringRef(*I).starts_with("-"))
            ++I;
          Adjusted.insert(I, Opts.ExtraArgsBefore->begin(),
                          Opts.ExtraArgsBefore->end());
        }
        // Before a `--`, as clang's END insertion does: after it they would
        // be file names.
        if (Opts.ExtraArgs)
          Adjusted.insert(llvm::find(Adjusted, "--"), Opts.ExtraArgs->begin(),
                          Opts.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true, ApplyAnyFix);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIDs::create(), *DiagOpts, &DiagConsumer,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  FileState State;
  State.Lookups = Lookups.get();
  State.Consumer = &DiagConsumer;
  // Results are cached only for a file with one compile command.
  const RunCaches Effective = [&] {
    RunCaches C = Caches;
    if (C.Results && Compilations.getCompileCommands(File).size() != 1)
      C.Results = nullptr;
    return C;
  }();
  Factory ActionFactory(Context, BaseFS, ApplyAnyFix, Effective, State);
  // "Error while processing <file>." is the caller's to print, after the
  // file's findings and never across another line of output.
  Tool.setPrintErrorMessage(false);
  const bool Failed = Tool.run(&ActionFactory) != 0;

  FileRun Run;
  if (State.NeedsParse) {
    Run.NeedsParse = true;
    return Run;
  }
  Run.Failed = Failed;
  Run.UserFilesRead = std::move(State.UserFilesRead);
  Run.FunctionsNotAnalyzed = std::move(State.FunctionsNotAnalyzed);
  State.closeCommand();
  Run.Errors = mergeCommandFindings(std::move(State.PerCommand));
  Run.Stats = Context.getStats();
  // A compile that fails is kept too (issue 39: a project's files that
  // never compile were parsed again on every re-lint, and made an edited
  // file's re-lint a multi-file run). What it read and looked for is
  // recorded as for any other, so a header that appears or changes misses;
  // only a lookup that failed for another reason than absence (a file that
  // exists and cannot be read) leaves the failure unkept.
  const bool FailureKeepable =
      State.Lookups && !State.Lookups->sawUnreadable();
  const bool CompilerErrors =
      !State.Success || llvm::any_of(Run.Errors, [](const ClangTidyError &E) {
        return E.DiagLevel == ClangTidyError::Error &&
               llvm::StringRef(E.DiagnosticName)
                   .starts_with("clang-diagnostic-");
      });
  if (State.Replayed) {
    llvm::append_range(Run.Errors, State.Replayed->Errors);
    Run.Stats = State.Replayed->Stats;
    Run.FunctionsNotAnalyzed = State.Replayed->FunctionsNotAnalyzed;
    replayRecords(State, *State.Replayed, Context, File);
  } else if (State.Cacheable && State.DependenciesComplete &&
             State.Commands == 1 && (!CompilerErrors || FailureKeepable)) {
    StoredResult Stored;
    Stored.Success = State.Success;
    Stored.Errors = Run.Errors;
    Stored.Stats = Run.Stats;
    Stored.FunctionsNotAnalyzed = Run.FunctionsNotAnalyzed;
    Stored.Records = newRecords(State);
    Stored.Dependencies = State.Dependencies;
    Stored.Missing = State.Missing;
    Stored.Found = State.Found;
    Stored.SameFiles = State.SameFiles;
    Effective.Results->store(State.ResultKey, Stored);
  }

  if (Caches.TimeChecks) {
    static std::mutex OutputMutex;
    const MemoryStopDeferred Deferred; // not stopped holding the lock
    std::scoped_lock Lock(OutputMutex);
    llvm::errs() << llvm::format(
        "cuda-tidy: time: %s: total %.4f s, checks %.4f s, preamble %s\n",
        File.str().c_str(), secondsSince(Start), State.AnalysisSeconds,
        sourceName(State.Source).str().c_str());
  }
  return Run;
}

CacheSession::CacheSession(bool UseFolder, llvm::StringRef Dir,
                           bool UsePreambles, bool TimeChecks,
                           uint64_t MaxBytes) {
  if (UseFolder) {
    std::string Folder = Dir.empty() ? defaultCacheDirectory() : Dir.str();
    if (!Folder.empty()) {
      auto Opened = CacheStore::open(Folder);
      if (Opened) {
        Disk = std::move(*Opened);
        Disk->setMaxBytes(MaxBytes);
      } else if (!Dir.empty()) {
        Problem =
            "cache folder not used: " + llvm::toString(Opened.takeError());
      } else { // the default folder is a convenience: no noise without it
        llvm::consumeError(Opened.takeError());
      }
    }
  }
  CacheCounters &Counters = Disk ? Disk->Counters : LocalCounters;
  if (UsePreambles)
    Preambles = std::make_unique<PreambleCache>(Disk.get(), Hasher, Counters);
  if (Disk)
    Results = std::make_unique<ResultCache>(*Disk, Hasher);
  Caches.Disk = Disk.get();
  Caches.Preambles = Preambles.get();
  Caches.Results = Results.get();
  Caches.Hasher = &Hasher;
  Caches.TimeChecks = TimeChecks;
}

CacheSession::~CacheSession() = default;

void CacheSession::finish(bool PrintStats) {
  if (Disk)
    Disk->finish();
  if (!PrintStats)
    return;
  const CacheCounters &C = Disk ? Disk->Counters : LocalCounters;
  llvm::errs() << "cuda-tidy: cache: folder "
               << (Disk ? Disk->directory() : llvm::StringRef("(none)"))
               << "; preambles: " << C.PreambleHits << " from the folder, "
               << C.PreamblesBuilt << " built, " << C.PreamblesShared
               << " shared, " << C.PreamblesUnusable
               << " unusable; results: " << C.ResultHits << " replayed, "
               << C.ResultMisses << " analyzed; " << C.CorruptEntries
               << " damaged entries dropped; " << C.Writes << " written, "
               << C.WriteFailures << " failed\n";
  if (Disk)
    printListing(Disk->listing(), Disk->maxBytes(), llvm::errs());
}

void printListing(llvm::ArrayRef<CacheStore::ListedEntry> Entries,
                  uint64_t MaxBytes, llvm::raw_ostream &OS) {
  uint64_t Total = 0;
  uint64_t PreambleBytes = 0;
  uint64_t ResultBytes = 0;
  unsigned Preambles = 0;
  unsigned Results = 0;
  unsigned Sightings = 0;
  for (const CacheStore::ListedEntry &E : Entries) {
    Total += E.Size;
    if (E.Kind == EntryKind::Preamble) {
      ++Preambles;
      PreambleBytes += E.Size;
    } else if (E.Kind == EntryKind::Sighting) {
      ++Sightings; // (100 bytes each)
    } else {
      ++Results;
      ResultBytes += E.Size;
    }
  }
  OS << "cuda-tidy: cache: " << Entries.size() << " entries, "
     << formatByteSize(Total)
     << (MaxBytes ? " of a " + formatByteSize(MaxBytes) + " budget"
                  : std::string(", no budget"))
     << ": " << Preambles << " preambles (" << formatByteSize(PreambleBytes)
     << "), " << Results << " results (" << formatByteSize(ResultBytes)
     << ")";
  if (Sightings)
    OS << ", " << Sightings << " preamble sightings";
  OS << "\n";
  if (Entries.empty())
    return;
  // The preambles one by one (they are what the budget is about); the
  // results, a few KiB each, as one line. Every line starts like the
  // counters', so that a script drops the whole report with one prefix.
  OS << "cuda-tidy: cache: in eviction order, first to go first "
        "(uses over all runs; stale: unused for "
     << CacheStore::StaleAfterSeconds / (int64_t{24} * 3600) << " days):\n";
  unsigned Rank = 0;
  uint64_t ResultUses = 0;
  for (const CacheStore::ListedEntry &E : Entries) {
    ++Rank;
    if (E.Kind == EntryKind::Sighting)
      continue;
    if (E.Kind != EntryKind::Preamble) {
      ResultUses += E.Uses;
      continue;
    }
    char When[32] = "?";
    const auto T = static_cast<std::time_t>(E.LastUsed);
    if (std::tm *UTC = std::gmtime(&T))
      std::strftime(When, sizeof(When), "%Y-%m-%d %H:%M UTC", UTC);
    OS << llvm::format("cuda-tidy: cache: %4u  %-10s  uses %-5llu  "
                       "last used %s%s  ",
                       Rank,
                       formatByteSize(E.Size).c_str(),
                       static_cast<unsigned long long>(E.Uses), When,
                       E.Stale ? " (stale)" : "")
       << E.Name << "\n";
  }
  if (Results)
    OS << "cuda-tidy: cache:       " << Results << " results, "
       << formatByteSize(ResultBytes)
       << ", " << ResultUses << " uses in all\n";
}

} // namespace clang::tidy::cuda::driver
