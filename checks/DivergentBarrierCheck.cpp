//===--- DivergentBarrierCheck.cpp - cuda-divergent-barrier ---------------===//

#include "checks/DivergentBarrierCheck.h"
#include "checks/analysis/divergence/BlockExtentGuards.h"
#include "checks/analysis/memory/SharedExchange.h"
#include "checks/DivergenceNotes.h"
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

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::AnalysisManager;
using analysis::DivergenceKind;
using analysis::DivergenceReason;
using analysis::OriginKind;
using analysis::Scope;
using analysis::scopeName;

namespace {

/// Collectives of a tile or block handle besides its barrier: every member
/// of the group must reach them (tile.sync() included; block.sync() is a
/// barrier and reported as one).
bool isGroupCollectiveMember(llvm::StringRef Name) {
  return Name == "sync" || Name == "shfl" || Name == "shfl_up" ||
         Name == "shfl_down" || Name == "shfl_xor" || Name == "ballot" ||
         Name == "any" || Name == "all" || Name == "match_any" ||
         Name == "match_all";
}
bool isGroupCollectiveFunction(llvm::StringRef Name) {
  return Name == "reduce" || Name == "reduce_update_async" ||
         Name == "reduce_store_async" || Name == "inclusive_scan" ||
         Name == "exclusive_scan" || Name == "inclusive_scan_update" ||
         Name == "exclusive_scan_update" || Name == "invoke_one" ||
         Name == "invoke_one_broadcast" || Name == "sync" ||
         Name == "memcpy_async" || Name == "wait" || Name == "wait_prior";
}

/// "thread_block", "thread_block_tile<16>".
std::string groupSpelling(const analysis::GroupOperand &Group) {
  std::string Spelling = analysis::groupKindSpelling(Group.Kind);
  if (Group.TileSize)
    Spelling += "<" + std::to_string(*Group.TileSize) + ">";
  return Spelling;
}

/// The threads that miss the barrier have returned from the kernel itself:
/// since Volta a block barrier waits only for threads that have not exited.
/// (A return from a __device__ function leaves them alive in the caller.)
bool onlyExitedThreadsMissIt(const DivergenceReason &Reason,
                             const FunctionDecl *Kernel) {
  return Reason.Kind == DivergenceKind::EarlyExit && Reason.Exit &&
         isa<ReturnStmt>(Reason.Exit) && Reason.Function == Kernel &&
         Kernel->hasAttr<CUDAGlobalAttr>();
}

} // namespace

DivergentBarrierCheck::DivergentBarrierCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AssumeBlockDimXMultipleOf32(
          Options.get("AssumeBlockDimXMultipleOf32", false)),
      ReportPotential(Options.get("ReportPotential", false)) {}

void DivergentBarrierCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AssumeBlockDimXMultipleOf32",
                AssumeBlockDimXMultipleOf32);
  Options.store(Opts, "ReportPotential", ReportPotential);
}

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
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
    if (!isGroupCollectiveMember(Name))
      return false;
    Spelling = groupSpelling(*Group) + "::" + Name.str() + "()";
  } else {
    if (!analysis::isCooperativeGroupsFunction(Callee) ||
        !isGroupCollectiveFunction(Name))
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
      const bool ExitedOnly = Barrier->BarrierScope == Scope::Block &&
                              onlyExitedThreadsMissIt(*Reason, Function);
      // Two facts the kernel does not show make an exit harmless: that no
      // survivor reads what an exited thread should have written, and, for
      // an exit on `threadIdx.D >= bound`, that the block is launched no
      // wider than the bound (then nobody exits).
      const bool NoExchange =
          ExitedOnly && !SharedAccessesOf(Function).readsWrittenByOthers(
                            Reason->Exit, Call);
      std::optional<analysis::BlockExtentGuard> Guard;
      if (ExitedOnly && !NoExchange)
        Guard = analysis::blockExtentGuard(Reason->Branch, Reason->Exit,
                                           *Divergence, Ctx);
      const bool Potential = NoExchange || Guard;
      if ((Potential && !ReportPotential) ||
          !Reported.insert(Loc.getRawEncoding()).second)
        continue;
      if (NoExchange)
        diag(Loc, "'%0' is reached under control flow that diverges within "
                  "the %1 (%2); potential: the threads that returned count "
                  "as arrived, so this is a bug only if a surviving thread "
                  "reads what an exited one should have written, which the "
                  "tool does not see here")
            << Barrier->Spelling << scopeName(Barrier->BarrierScope)
            << analysis::divergenceKindName(Reason->Kind);
      else if (Guard)
        diag(Loc, "'%0' is reached under control flow that diverges within "
                  "the %1 (%2); potential: only threads with threadIdx.%3 at "
                  "or beyond '%4' return, so this is a bug only if the "
                  "kernel is launched with a block wider than that in %3, "
                  "which the tool does not see here")
            << Barrier->Spelling << scopeName(Barrier->BarrierScope)
            << analysis::divergenceKindName(Reason->Kind)
            << std::string(1, Guard->Dimension)
            << analysis::boundSpelling(*Guard, Ctx);
      else
        diag(Loc, "'%0' is reached under control flow that diverges within "
                  "the %1 (%2)")
            << Barrier->Spelling << scopeName(Barrier->BarrierScope)
            << analysis::divergenceKindName(Reason->Kind);
      explainReason(*Reason, Barrier->BarrierScope, Ctx);
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
    if (!AtCall || !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    const analysis::BarrierSite &Site = *AtCall->Site;
    diag(Loc, "call to '%0' reaches '%1' under control flow that diverges "
              "within the %2 (%3)")
        << calleeDisplayName(Call) << Site.Spelling
        << scopeName(Site.BarrierScope)
        << analysis::divergenceKindName(AtCall->Reason.Kind);
    if (AtCall->Reason.Kind == DivergenceKind::ViaCall) {
      if (const Expr *Arg = AtCall->Argument) {
        diag(Arg->getBeginLoc(), "this argument is not uniform across the %0",
             DiagnosticIDs::Note)
            << scopeName(Site.BarrierScope);
        auto [Via, Origin] = Divergence->explain(
            Arg, analysis::Level::of(Site.BarrierScope));
        if (Via && (Origin.Kind == OriginKind::HardwareIndex ||
                    Origin.Kind == OriginKind::Intrinsic))
          diag(Via->getLocation(), "'%0' depends on '%1'", DiagnosticIDs::Note)
              << Via->getName() << quoteOrigin(Origin.Where, Ctx);
      }
      if (AtCall->Reason.Condition)
        diag(AtCall->Reason.Condition->getBeginLoc(),
             "this condition in '%0' depends on it", DiagnosticIDs::Note)
            << (AtCall->Reason.Function
                    ? AtCall->Reason.Function->getNameAsString()
                    : calleeDisplayName(Call));
    } else {
      explainReason(AtCall->Reason, Site.BarrierScope, Ctx);
    }
    diag(beginOf(Site.Barrier), "'%0' is called here",
         DiagnosticIDs::Note)
        << Site.Spelling;
  }
}

} // namespace clang::tidy::cuda
