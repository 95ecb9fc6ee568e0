//===--- DivergentBarrierCheck.cpp - cuda-divergent-barrier ---------------===//

#include "checks/DivergentBarrierCheck.h"
#include "checks/ProjectOptions.h"
#include "checks/analysis/api/HipPortability.h"
#include "checks/analysis/divergence/BlockExtentGuards.h"
#include "checks/analysis/divergence/ExitedThreads.h"
#include "checks/analysis/divergence/RoleSplits.h"
#include "checks/analysis/memory/GroupPrivateExchange.h"
#include "checks/analysis/memory/SharedExchange.h"
#include "checks/DivergenceNotes.h"
#include "checks/FindingsByCause.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::AnalysisManager;
using analysis::DivergenceKind;
using analysis::DivergenceReason;
using analysis::OriginKind;
using analysis::Scope;
using analysis::scopeName;

namespace {

/// "thread_block", "thread_block_tile<16>".
std::string groupSpelling(const analysis::GroupOperand &Group) {
  std::string Spelling = analysis::groupKindSpelling(Group.Kind);
  if (Group.TileSize)
    Spelling += "<" + std::to_string(*Group.TileSize) + ">";
  return Spelling;
}

/// \p Call synchronizes the block: a block (or wider) barrier, or a call
/// of a function that executes one.
bool synchronizesBlock(const CallExpr *Call, AnalysisManager &Manager) {
  if (std::optional<analysis::BarrierCall> B = analysis::asBarrierCall(Call))
    return B->BarrierScope >= Scope::Block;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  const analysis::CallSummary *Summary = Manager.summary(Callee);
  return Summary && llvm::any_of(Summary->Barriers,
                                 [](const analysis::BarrierSite &Site) {
                                   return Site.BarrierScope >= Scope::Block;
                                 });
}

} // namespace

DivergentBarrierCheck::DivergentBarrierCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AssumeBlockDimXMultipleOf32(
          projectFlag(Options, "AssumeBlockDimXMultipleOf32",
                      BlockDimXMultipleOf32Option, false)),
      ReportPotential(Options.get("ReportPotential", false)),
      GroupByCause(Options.get("GroupByCause", true)),
      Platforms(projectString(Options, "Platforms", PlatformsOption, "auto")) {}

/// "auto", or a comma-separated list of "cuda" and "hip".
static bool validPlatforms(llvm::StringRef Platforms) {
  if (Platforms == "auto")
    return true;
  llvm::SmallVector<llvm::StringRef, 2> Names;
  Platforms.split(Names, ',', -1, false);
  return !Names.empty() && llvm::all_of(Names, [](llvm::StringRef N) {
    return N.trim() == "cuda" || N.trim() == "hip";
  });
}

void DivergentBarrierCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AssumeBlockDimXMultipleOf32",
                AssumeBlockDimXMultipleOf32);
  Options.store(Opts, "ReportPotential", ReportPotential);
  Options.store(Opts, "GroupByCause", GroupByCause);
  Options.store(Opts, "Platforms", Platforms);
}

void DivergentBarrierCheck::registerPPCallbacks(const SourceManager &SM,
                                                Preprocessor *PP,
                                                Preprocessor *) {
  PP->addPPCallbacks(trackUserFiles(SM, Entered));
}

const DivergentBarrierCheck::HipPortability &
DivergentBarrierCheck::portability(const SourceManager &SM) {
  if (Portability)
    return *Portability;
  Portability.emplace();
  if (Platforms != "auto" && validPlatforms(Platforms)) {
    Portability->Portable = llvm::StringRef(Platforms).contains("hip");
    return *Portability;
  }
  // The main file first, then the user's headers in the order a full parse
  // enters them (the preamble's part replayed): the first file that tests
  // a HIP platform macro or includes a hip/ header decides, and its
  // directive is named in the finding.
  for (FileID FID : Entered->withMainFile()) {
    std::optional<llvm::MemoryBufferRef> Buffer = SM.getBufferOrNone(FID);
    if (!Buffer)
      continue;
    if (std::optional<analysis::HipEvidence> E =
            analysis::hipEvidenceIn(Buffer->getBuffer())) {
      Portability->Portable = true;
      Portability->Where =
          SM.getLocForStartOfFile(FID).getLocWithOffset(
              static_cast<SourceLocation::IntTy>(E->Offset));
      Portability->What = E->What;
      break;
    }
  }
  return *Portability;
}

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  if (!validPlatforms(Platforms))
    configurationDiag("invalid value '%0' for cuda-divergent-barrier.Platforms: "
                      "expected 'auto', 'cuda', 'hip' or 'cuda,hip'; 'auto' "
                      "is used")
        << Platforms;
  // One callback per function body; the analysis of the body is shared by
  // every barrier and call in it (and, through the manager, by other
  // checks).
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

void DivergentBarrierCheck::explainReason(const DivergenceReason &Reason,
                                          Scope Within,
                                          const ASTContext &Ctx) {
  explainReason(Reason, scopeName(Within), "the barrier", Ctx);
}

void DivergentBarrierCheck::explainReason(const DivergenceReason &Reason,
                                          llvm::StringRef Within,
                                          llvm::StringRef Skipped,
                                          const ASTContext &Ctx) {
  explainDivergence(*this, Reason, Within, Skipped, Ctx);
}

bool DivergentBarrierCheck::checkGroupCollective(
    const CallExpr *Call, const analysis::FunctionDivergence &D,
    const ASTContext &Ctx) {
  std::optional<analysis::GroupOperand> Group = analysis::groupOperandOf(Call);
  if (!Group)
    return false;
  // Coalesced and type-erased groups have a membership known only at run
  // time (cuda-divergent-group-creation checks coalesced groups).
  bool Known = Group->Kind == analysis::GroupKind::ThreadBlock ||
               (Group->Kind == analysis::GroupKind::Tile && Group->TileSize);
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Known || !Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef Name = Callee->getName();
  std::string Spelling;
  if (isa<CXXMethodDecl>(Callee)) {
    if (!analysis::isCollectiveMemberName(Name))
      return false;
    Spelling = groupSpelling(*Group) + "::" + Name.str() + "()";
  } else {
    if (!analysis::isCooperativeGroupsFunction(Callee) ||
        !analysis::isCollectiveFunctionName(Name))
      return false;
    Spelling =
        "cooperative_groups::" + Name.str() + "(" + groupSpelling(*Group) + ")";
  }
  analysis::Level Within = analysis::collectiveLevel(*Group);
  std::optional<DivergenceReason> Reason = D.divergenceAt(Call, Within);
  SourceLocation Loc = beginOf(Call);
  if (!Reason || !Reported.insert(Loc.getRawEncoding()).second)
    return true;
  diag(Loc, "'%0' is reached under control flow that diverges within the %1 "
            "(%2)")
      << Spelling << levelName(Within)
      << analysis::divergenceKindName(Reason->Kind);
  explainReason(*Reason, levelName(Within), "the collective", Ctx);
  return true;
}

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || Function->isDependentContext() || !Function->getBody() ||
      !isDeviceCode(Function))
    return;
  ASTContext &Ctx = *Result.Context;

  analysis::AnalysisOptions AnalysisOpts;
  AnalysisOpts.AssumeBlockDimXMultipleOf32 = AssumeBlockDimXMultipleOf32;
  AnalysisManager &Manager = AnalysisManager::forContext(Ctx, AnalysisOpts);
  const analysis::FunctionDivergence *Divergence =
      Manager.divergence(Function);
  if (!Divergence || !Divergence->isAnalyzed())
    return;

  // Built on first need: only barriers after a kernel's return ask.
  std::optional<analysis::SharedAccesses> Shared;
  auto SharedAccessesOf =
      [&](const FunctionDecl *F) -> const analysis::SharedAccesses & {
    if (!Shared)
      Shared.emplace(F, Ctx);
    return *Shared;
  };

  for (const CallExpr *Call : Divergence->calls()) {
    if (!Divergence->isReachable(Call))
      continue;
    SourceLocation Loc = beginOf(Call);

    if (std::optional<analysis::BarrierCall> Barrier =
            analysis::asBarrierCall(Call)) {
      std::optional<DivergenceReason> Reason =
          Divergence->divergenceAt(Call, Barrier->BarrierScope);
      if (!Reason)
        continue;
      // Whole warps split into roles that each run the same number of
      // block barriers: the k-th of one role completes with the k-th of
      // the other (divergence/RoleSplits.h).
      if (Barrier->BarrierScope == Scope::Block &&
          analysis::isMatchedRoleSplit(
              *Divergence, *Reason, [&](const CallExpr *Other) {
                if (std::optional<analysis::BarrierCall> B =
                        analysis::asBarrierCall(Other))
                  return B->BarrierScope == Scope::Block
                             ? analysis::SyncKind::Barrier
                         : B->BarrierScope > Scope::Block
                             ? analysis::SyncKind::Unknown
                             : analysis::SyncKind::None;
                return synchronizesBlock(Other, Manager)
                           ? analysis::SyncKind::Unknown
                           : analysis::SyncKind::None;
              }))
        continue;
      // The threads that miss the barrier leave the kernel for good: they
      // returned, or they skip the branch (or leave the loop) that holds
      // it and reach no block barrier again (divergence/ExitedThreads.h).
      const Stmt *LeavesAt = nullptr;
      if (Barrier->BarrierScope == Scope::Block)
        LeavesAt = analysis::whereLeaversExit(
            *Divergence, *Reason, Call, [&](const CallExpr *Other) {
              return synchronizesBlock(Other, Manager);
            });
      const bool ExitedOnly = LeavesAt != nullptr;
      const bool Returned = ExitedOnly && isa<ReturnStmt>(LeavesAt);
      // Two facts the kernel does not show make an exit harmless: that no
      // survivor reads what an exited thread should have written, and, for
      // an exit on `threadIdx.D >= bound`, that the block is launched no
      // wider than the bound (then nobody exits).
      bool NoExchange =
          ExitedOnly &&
          !SharedAccessesOf(Function).readsWrittenByOthers(
              Returned ? LeavesAt->getEndLoc() : LeavesAt->getBeginLoc(),
              Call);
      // Survivors read what others wrote, but only inside groups of
      // threads that every exit leaves whole (memory/GroupPrivateExchange.h).
      std::optional<analysis::GroupPrivateExchange> Groups;
      if (Returned && !NoExchange) {
        Groups = analysis::groupPrivateExchange(Function, Call, Ctx);
        NoExchange = Groups.has_value();
      }
      // Under HIP a thread that returned never arrives: the exit alone is
      // a hang there, whatever the survivors read; the launch-shape guard
      // still decides whether anyone exits at all.
      const bool Portable =
          NoExchange && portability(Ctx.getSourceManager()).Portable;
      std::optional<analysis::BlockExtentGuard> Guard;
      if (Returned && (!NoExchange || Portable))
        Guard = analysis::blockExtentGuard(Reason->Branch, Reason->Exit,
                                           *Divergence, Ctx);
      const bool HangsUnderHip = Portable && !Guard;
      // Divergent only through a callee that does not compile.
      const std::string Unseen =
          HangsUnderHip || NoExchange || Guard
              ? std::string()
              : unanalyzedCalleeFact(Manager, Function, Call,
                                     analysis::Level::of(Barrier->BarrierScope));
      const bool Potential =
          (NoExchange && !Portable) || Guard || !Unseen.empty();
      if ((Potential && !ReportPotential) ||
          !Reported.insert(Loc.getRawEncoding()).second)
        continue;
      // The tier decides which findings may stand for each other.
      const unsigned Tier = HangsUnderHip             ? 1
                            : (NoExchange && !Guard) ? 2
                            : Guard                  ? 3
                            : !Unseen.empty()        ? 4
                                                     : 0;
      Causes.add(
          *Reason, Tier, Loc, "'" + Barrier->Spelling + "'",
          [this, &Ctx, Loc, Barrier = *Barrier, Reason = *Reason, Returned,
           HangsUnderHip, NoExchange, Guard, Unseen, Groups] {
            if (HangsUnderHip) {
              diag(Loc,
                   "'%0' is reached under control flow that diverges within "
                   "the %1 (%2): the threads that %select{returned|leave the "
                   "kernel}3 skip this barrier, a hang on AMD GPUs under HIP, "
                   "where exited threads do not count as arrived (on NVIDIA "
                   "since Volta it completes)")
                  << Barrier.Spelling << scopeName(Barrier.BarrierScope)
                  << analysis::divergenceKindName(Reason.Kind) << !Returned;
              explainReason(Reason, Barrier.BarrierScope, Ctx);
              const HipPortability &P = portability(Ctx.getSourceManager());
              if (P.Where.isValid())
                diag(P.Where, "this code is also built for HIP: it %0 '%1'",
                     DiagnosticIDs::Note)
                    << (llvm::StringRef(P.What).starts_with("hip/")
                            ? "includes"
                            : "tests")
                    << P.What;
              return;
            }
            if (NoExchange && !Guard)
              diag(Loc,
                   "'%0' is reached under control flow that diverges within "
                   "the %1 (%2); potential: the threads that %select{returned|"
                   "skip it leave the kernel with no other barrier and}3 count "
                   "as arrived, so this is a bug only if a surviving thread "
                   "reads what an exited one should have written, which the "
                   "tool does not see here")
                  << Barrier.Spelling << scopeName(Barrier.BarrierScope)
                  << analysis::divergenceKindName(Reason.Kind) << !Returned;
            else if (Guard)
              diag(Loc,
                   "'%0' is reached under control flow that diverges within "
                   "the %1 (%2); potential: only threads with threadIdx.%3 at "
                   "or beyond '%4' return, so this is a bug only if the "
                   "kernel is launched with a block wider than that in %3, "
                   "which the tool does not see here")
                  << Barrier.Spelling << scopeName(Barrier.BarrierScope)
                  << analysis::divergenceKindName(Reason.Kind)
                  << std::string(1, Guard->Dimension)
                  << analysis::boundSpelling(*Guard, Ctx);
            else
              diag(Loc, "'%0' is reached under control flow that diverges "
                        "within the %1 (%2)%3")
                  << Barrier.Spelling << scopeName(Barrier.BarrierScope)
                  << analysis::divergenceKindName(Reason.Kind) << Unseen;
            explainReason(Reason, Barrier.BarrierScope, Ctx);
            if (Groups && !Guard) {
              diag(Groups->FirstExit,
                   "the threads that return leave by whole groups of '%0' "
                   "(threadIdx.x / %0), and every thread reads and writes "
                   "__shared__ memory only in its own group's part",
                   DiagnosticIDs::Note)
                  << Groups->Width;
              for (const auto &Pre : Groups->Preconditions)
                diag(Pre.Where,
                     "groups stay whole here only if '%0' is a multiple of "
                     "'%1', which the tool does not see",
                     DiagnosticIDs::Note)
                    << Pre.Bound << Groups->Width;
            }
          });
      continue;
    }

    if (checkGroupCollective(Call, *Divergence, Ctx))
      continue;

    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee ||
        analysis::knownResultModel(Call, AssumeBlockDimXMultipleOf32))
      continue;
    const analysis::CallSummary *Summary = Manager.summary(Callee);
    if (!Summary || Summary->Barriers.empty())
      continue;
    std::optional<analysis::CallSiteDivergence> AtCall =
        analysis::callSiteDivergence(*Divergence, Call, *Summary, Manager);
    if (!AtCall)
      continue;
    // Divergent at the call only through a callee that does not compile.
    const std::string Unseen =
        AtCall->Reason.Kind == DivergenceKind::ViaCall
            ? std::string()
            : unanalyzedCalleeFact(
                  Manager, Function, Call,
                  analysis::Level::of(AtCall->Site->BarrierScope));
    if ((!Unseen.empty() && !ReportPotential) ||
        !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    Causes.add(
        AtCall->Reason, /*Tier=*/Unseen.empty() ? 0 : 4, Loc,
        "the call to '" + calleeDisplayName(Call) + "'",
        [this, &Ctx, Divergence, Loc, Call, AtCall = *AtCall, Unseen] {
          const analysis::BarrierSite &Site = *AtCall.Site;
          diag(Loc, "call to '%0' reaches '%1' under control flow that "
                    "diverges within the %2 (%3)%4")
              << calleeDisplayName(Call) << Site.Spelling
              << scopeName(Site.BarrierScope)
              << analysis::divergenceKindName(AtCall.Reason.Kind) << Unseen;
          if (AtCall.Reason.Kind == DivergenceKind::ViaCall) {
            if (const Expr *Arg = AtCall.Argument) {
              diag(Arg->getBeginLoc(),
                   "this argument is not uniform across the %0",
                   DiagnosticIDs::Note)
                  << scopeName(Site.BarrierScope);
              auto [Via, Origin] = Divergence->explain(
                  Arg, analysis::Level::of(Site.BarrierScope));
              if (Via && (Origin.Kind == OriginKind::HardwareIndex ||
                          Origin.Kind == OriginKind::Intrinsic))
                diag(Via->getLocation(), "'%0' depends on '%1'",
                     DiagnosticIDs::Note)
                    << Via->getName() << quoteOrigin(Origin.Where, Ctx);
            }
            if (AtCall.Reason.Condition)
              diag(AtCall.Reason.Condition->getBeginLoc(),
                   "this condition in '%0' depends on it", DiagnosticIDs::Note)
                  << (AtCall.Reason.Function
                          ? AtCall.Reason.Function->getNameAsString()
                          : calleeDisplayName(Call));
          } else {
            explainReason(AtCall.Reason, Site.BarrierScope, Ctx);
          }
          diag(beginOf(Site.Barrier), "'%0' is called here",
               DiagnosticIDs::Note)
              << Site.Spelling;
        });
  }
  Causes.emit(*this, Ctx.getSourceManager(), GroupByCause, "barrier",
              "barriers");
}

} // namespace clang::tidy::cuda
