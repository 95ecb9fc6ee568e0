//===--- GridSyncLaunchCheck.cpp - cuda-grid-sync-launch ------------------===//

#include "checks/GridSyncLaunchCheck.h"
#include "checks/analysis/launch/GridSyncReachability.h"
#include "checks/analysis/launch/KernelLaunch.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

struct GridSyncLaunchCheck::PreprocessedFiles {
  /// The user's files the TU entered and the ranges #if skipped in them.
  std::shared_ptr<UserFiles> Entered = std::make_shared<UserFiles>();
  /// Removed CUDA names the user's code declares for itself, and where the
  /// user declares members by those names.
  llvm::StringSet<> UserDeclaredNames;
  llvm::DenseSet<SourceLocation> UserMemberLocations;
};

namespace {

/// How messages name a function: qualified, with template arguments, and a
/// lambda type as "(lambda)" rather than by its file and line.
std::string functionName(const FunctionDecl *FD, const ASTContext &Context) {
  PrintingPolicy Policy(Context.getLangOpts());
  Policy.AnonymousTagLocations = false;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return Name;
}

/// "'helper'", or "the lambda" for a lambda's call operator.
std::string describe(const FunctionDecl *FD, const ASTContext &Context) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
    if (Method->getParent()->isLambda())
      return "the lambda";
  return "'" + functionName(FD, Context) + "'";
}

struct ChainNote {
  SourceLocation Where;
  std::string Message;
};

std::vector<ChainNote> chainNotes(llvm::ArrayRef<analysis::GridSyncStep> Chain,
                                  const ASTContext &Context) {
  std::vector<ChainNote> Notes;
  for (const analysis::GridSyncStep &Step : Chain) {
    std::string Caller = describe(Step.Caller, Context);
    if (Step.Callee)
      Notes.push_back(
          {Step.Call->getBeginLoc(),
           Caller + " calls " + describe(Step.Callee, Context) + " here"});
    else
      Notes.push_back({Step.Call->getBeginLoc(),
                       Caller + " synchronizes the whole grid here"});
  }
  return Notes;
}

std::string formDescription(const analysis::KernelLaunch &Launch) {
  std::string Form = analysis::launchFormSpelling(Launch.Form);
  if (Launch.Form == analysis::LaunchForm::LaunchKernelEx ||
      Launch.Form == analysis::LaunchForm::LaunchKernelExC)
    Form += Launch.CooperativeSetToZero
                ? " with cudaLaunchAttributeCooperative set to 0"
                : " without cudaLaunchAttributeCooperative";
  return Form;
}

std::vector<ChainNote> launchNotes(const analysis::KernelLaunch &Launch) {
  std::vector<ChainNote> Notes;
  if (Launch.CooperativeSetToZero)
    Notes.push_back({Launch.CooperativeSetToZero->getBeginLoc(),
                     "cudaLaunchAttributeCooperative is set to 0 here"});
  else if (Launch.Config)
    Notes.push_back({Launch.Config->getLocation(),
                     "launch configuration '" + Launch.Config->getName().str() +
                         "' is declared here; none of its attributes is "
                         "cudaLaunchAttributeCooperative"});
  return Notes;
}

analysis::IndexLocation indexLocation(SourceLocation Loc,
                                      const SourceManager &SM) {
  analysis::IndexLocation Where;
  Loc = SM.getFileLoc(Loc);
  FileID FID = SM.getFileID(Loc);
  if (OptionalFileEntryRef Entry = SM.getFileEntryRefForID(FID)) {
    llvm::SmallString<256> Path(Entry->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    Where.File = std::string(Path);
  }
  Where.Offset = SM.getFileOffset(Loc);
  Where.Line = SM.getSpellingLineNumber(Loc);
  Where.Column = SM.getSpellingColumnNumber(Loc);
  return Where;
}

std::vector<analysis::IndexNote> indexNotes(llvm::ArrayRef<ChainNote> Notes,
                                            const SourceManager &SM) {
  std::vector<analysis::IndexNote> Result;
  for (const ChainNote &Note : Notes)
    Result.push_back({indexLocation(Note.Where, SM), Note.Message});
  return Result;
}

std::string mangledName(const FunctionDecl *FD, ASTContext &Context) {
  std::unique_ptr<MangleContext> Mangler(Context.createMangleContext());
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  if (Mangler->shouldMangleDeclName(FD))
    Mangler->mangleName(GlobalDecl(FD, KernelReferenceKind::Kernel), OS);
  else
    OS << FD->getName();
  return Name;
}

} // namespace

GridSyncLaunchCheck::GridSyncLaunchCheck(StringRef Name,
                                         ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ProjectIndexDir(Options.get(analysis::ProjectIndexDirOption, "")),
      IndexTrusted(analysis::isTrustedIndexFolder(ProjectIndexDir)),
      Files(std::make_shared<PreprocessedFiles>()) {}

GridSyncLaunchCheck::~GridSyncLaunchCheck() = default;

void GridSyncLaunchCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, analysis::ProjectIndexDirOption, ProjectIndexDir);
}

void GridSyncLaunchCheck::registerPPCallbacks(const SourceManager &SM,
                                              Preprocessor *PP,
                                              Preprocessor *) {
  PP->addPPCallbacks(trackUserFiles(SM, Files->Entered));
}

void GridSyncLaunchCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"),
                     this);
  Finder->addMatcher(
      functionDecl(hasAttr(attr::CUDAGlobal), isDefinition()).bind("kernel"),
      this);
  // The user's own declarations of a removed name (a field, a variable)
  // are not the CUDA API.
  std::vector<llvm::StringRef> Removed;
  for (const analysis::RemovedCudaName &Name :
       analysis::removedMultiDeviceNames())
    Removed.push_back(Name.Name);
  Finder->addMatcher(
      namedDecl(hasAnyName(Removed), unless(isExpansionInSystemHeader()))
          .bind("own-name"),
      this);
}

const analysis::GridSyncReachability &GridSyncLaunchCheck::reachability() {
  if (!Reachability)
    Reachability = std::make_unique<analysis::GridSyncReachability>(*Context);
  return *Reachability;
}

void GridSyncLaunchCheck::check(const MatchFinder::MatchResult &Result) {
  Context = Result.Context;
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call")) {
    checkLaunch(Call, *Result.Context);
    return;
  }
  if (const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
    if (!Kernel->isDependentContext())
      DefinedKernels.push_back(Kernel);
  if (const auto *Own = Result.Nodes.getNodeAs<NamedDecl>("own-name")) {
    // A member is reached through `.` or `->`: only its declaration needs
    // skipping. Any other entity of the user's owns the name in this file.
    if (Own->getDeclContext()->isRecord())
      Files->UserMemberLocations.insert(
          Result.SourceManager->getFileLoc(Own->getLocation()));
    else
      Files->UserDeclaredNames.insert(Own->getName());
  }
}

void GridSyncLaunchCheck::checkLaunch(const CallExpr *Call,
                                      ASTContext &Context) {
  std::optional<analysis::KernelLaunch> Launch =
      analysis::asKernelLaunch(Call, Context);
  if (!Launch)
    return;
  const SourceLocation Where = Call->getBeginLoc();

  if (Launch->Coop == analysis::Cooperation::Cooperative) {
    analysis::GridSizeTrace Trace =
        analysis::traceGridSize(Launch->GridSizes, Context, Call);
    if (Trace.Source != analysis::GridSizeSource::DataSize)
      return;
    std::string Subject =
        Launch->Kernel
            ? "of kernel '" + functionName(Launch->Kernel, Context) + "' "
            : "";
    diag(Where, "cooperative launch %0sizes its grid from the data size, not "
                "from an occupancy query; a cooperative grid larger than the "
                "GPU holds at once fails with "
                "cudaErrorCooperativeLaunchTooLarge: bound it by "
                "cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM "
                "count")
        << Subject;
    diag(Trace.Division->getBeginLoc(),
         "the grid size is derived from the data size here",
         DiagnosticIDs::Note);
    return;
  }

  // An unresolved kernel or configuration: say nothing rather than guess.
  if (Launch->Coop != analysis::Cooperation::NotCooperative ||
      !Launch->Kernel || !Launch->Kernel->hasAttr<CUDAGlobalAttr>())
    return;
  const FunctionDecl *Kernel = Launch->Kernel;
  const std::string KernelName = functionName(Kernel, Context);
  const std::string Form = formDescription(*Launch);
  const SourceManager &SM = Context.getSourceManager();

  const FunctionDecl *Definition = Kernel->getDefinition();
  if (!Definition) {
    // Defined in another file: the driver decides, from the index.
    if (!IndexTrusted || !Kernel->isExternallyVisible())
      return;
    SourceLocation FileLoc = SM.getFileLoc(Where);
    if (!IndexedLaunches
             .insert({Kernel->getCanonicalDecl(), FileLoc.getRawEncoding()})
             .second)
      return;
    analysis::IndexedLaunch Indexed;
    Indexed.MangledName = mangledName(Kernel, Context);
    Indexed.KernelName = KernelName;
    Indexed.Form = Form;
    Indexed.Where = indexLocation(Where, SM);
    Indexed.Notes = indexNotes(launchNotes(*Launch), SM);
    Record.Launches.push_back(std::move(Indexed));
    return;
  }

  llvm::SmallVector<analysis::GridSyncStep, 4> Chain =
      reachability().chainFrom(Definition);
  if (Chain.empty())
    return;
  diag(Where, "%0") << analysis::needsCooperativeLaunchMessage(
      KernelName, analysis::GridSyncReachability::syncSpelling(Chain.back()),
      Form);
  for (const ChainNote &Note : chainNotes(Chain, Context))
    diag(Note.Where, Note.Message, DiagnosticIDs::Note);
  for (const ChainNote &Note : launchNotes(*Launch))
    diag(Note.Where, Note.Message, DiagnosticIDs::Note);
}

void GridSyncLaunchCheck::reportRemovedNames() {
  if (!Files->Entered->SM)
    return;
  const SourceManager &SM = *Files->Entered->SM;
  llvm::StringMap<llvm::StringRef> Replacements;
  for (const analysis::RemovedCudaName &Name :
       analysis::removedMultiDeviceNames())
    Replacements[Name.Name] = Name.Replacement;

  std::vector<FileID> ToScan = Files->Entered->withMainFile();
  for (FileID FID : ToScan) {
    std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(FID);
    if (!Buffer)
      continue;
    Lexer Raw(FID, *Buffer, SM, getLangOpts());
    Token Tok;
    Token Previous;
    Previous.startToken();
    while (true) {
      Raw.LexFromRawLexer(Tok);
      if (Tok.is(tok::eof))
        break;
      if (Tok.is(tok::raw_identifier) &&
          !Previous.isOneOf(tok::period, tok::arrow)) {
        auto It = Replacements.find(Tok.getRawIdentifier());
        if (It != Replacements.end() &&
            !Files->UserDeclaredNames.contains(It->first()) &&
            !Files->UserMemberLocations.contains(Tok.getLocation()) &&
            !Files->Entered->isSkipped(Tok.getLocation()))
          diag(Tok.getLocation(), "'%0' was removed in CUDA 13 with the "
                                  "multi-device cooperative launch; %1")
              << It->first() << It->second;
      }
      Previous = Tok;
    }
  }
}

void GridSyncLaunchCheck::writeIndexRecord() {
  if (ProjectIndexDir.empty() || !Context)
    return;
  if (!IndexTrusted) {
    // From a repository's .clang-tidy, say: not a folder to write into.
    configurationDiag("%0.%1 ignored: %2")
        << analysis::GridSyncLaunchCheckName << analysis::ProjectIndexDirOption
        << llvm::toString(analysis::untrustedFolderError(ProjectIndexDir));
    return;
  }
  const SourceManager &SM = Context->getSourceManager();
  llvm::DenseSet<const FunctionDecl *> Done;
  for (const FunctionDecl *Kernel : DefinedKernels) {
    if (!Done.insert(Kernel->getCanonicalDecl()).second ||
        !Kernel->isExternallyVisible())
      continue;
    llvm::SmallVector<analysis::GridSyncStep, 4> Chain =
        reachability().chainFrom(Kernel);
    if (Chain.empty())
      continue;
    analysis::IndexedKernel Indexed;
    Indexed.MangledName = mangledName(Kernel, *Context);
    Indexed.SyncSpelling =
        analysis::GridSyncReachability::syncSpelling(Chain.back());
    Indexed.Chain = indexNotes(chainNotes(Chain, *Context), SM);
    Record.Kernels.push_back(std::move(Indexed));
  }
  if (Record.Kernels.empty() && Record.Launches.empty())
    return;
  Record.MainFile =
      indexLocation(SM.getLocForStartOfFile(SM.getMainFileID()), SM).File;
  if (llvm::Error E = analysis::writeRecord(ProjectIndexDir, Record))
    configurationDiag("cannot write the cross-file launch index: %0")
        << llvm::toString(std::move(E));
}

void GridSyncLaunchCheck::onEndOfTranslationUnit() {
  reportRemovedNames();
  writeIndexRecord();
  Reachability.reset();
  DefinedKernels.clear();
  Files->UserDeclaredNames.clear();
  Record = {};
  IndexedLaunches.clear();
  Context = nullptr;
}

} // namespace clang::tidy::cuda
