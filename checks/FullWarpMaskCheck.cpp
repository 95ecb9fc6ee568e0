//===--- FullWarpMaskCheck.cpp - cuda-full-warp-mask ----------------------===//

#include "checks/FullWarpMaskCheck.h"
#include "checks/FindingsByCause.h"
#include "checks/ProjectOptions.h"
#include "checks/analysis/divergence/ExitedThreads.h"
#include "checks/DivergenceNotes.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/divergence/BlockExtentGuards.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/lanes/WarpMasks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/APSInt.h"
#include <algorithm>

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::AnalysisManager;
using analysis::DivergenceKind;
using analysis::DivergenceReason;
using analysis::FunctionDivergence;
using analysis::Level;
using analysis::MaskEvaluator;

namespace {

/// How deep the search for full-mask sites follows calls.
constexpr unsigned MaxCallDepth = 4;
/// How many sites a function's summary keeps.
constexpr size_t MaxSites = 8;

/// The warp-synchronous intrinsics whose first argument is a lane mask
/// (analysis::maskedWarpIntrinsicName).
bool isMaskedWarpIntrinsic(const FunctionDecl *FD) {
  return !analysis::maskedWarpIntrinsicName(FD).empty();
}

/// The width of a shuffle's segments: its `width` argument when constant,
/// else the warp.
unsigned shuffleWidth(const CallExpr *Shuffle, const ASTContext &Ctx) {
  if (Shuffle->getNumArgs() < 4 || isa<CXXDefaultArgExpr>(Shuffle->getArg(3)))
    return 32;
  Expr::EvalResult R;
  if (!Shuffle->getArg(3)->EvaluateAsInt(R, Ctx))
    return 32;
  llvm::APSInt W = R.Val.getInt();
  return W.isStrictlyPositive() && W.ule(32)
             ? static_cast<unsigned>(W.getZExtValue())
             : 32;
}

/// What the lanes that miss a full-mask intrinsic do to it.
enum class Leavers {
  /// They may take part in another warp collective: the mask names lanes
  /// that are alive elsewhere (a definite finding).
  Stay,
  /// They returned from the kernel: exited, and the Guide's contract for the
  /// *_sync intrinsics concerns only the non-exited lanes named in the mask,
  /// so a vote, __syncwarp or a match is well defined.
  Exited,
  /// They skip the branch or leave the loop and meet no warp collective
  /// again before the kernel ends: they count as exited once they get there
  /// (divergence/ExitedThreads.h), so the finding rests on the code relying
  /// on them taking part, which the tool cannot see (the potential tier).
  LeaveTheKernel,
};

/// A shuffle reads another lane's value: it is well defined after lanes left
/// only when they leave by whole segments of its width (a row-level `return`
/// for rows of 8 lanes, then `__shfl_xor_sync(mask, v, m, 8)`), so that no
/// surviving lane reads one that left; otherwise the lanes that left are as
/// bad as lanes that stay.
Leavers whatLeaversDo(const FunctionDivergence &D,
                      const DivergenceReason &Reason, const CallExpr *Point,
                      const CallExpr *Intrinsic, llvm::StringRef Name,
                      const ASTContext &Ctx,
                      llvm::function_ref<bool(const CallExpr *)> Syncs) {
  const Stmt *Leave = analysis::whereLeaversExit(D, Reason, Point, Syncs);
  if (!Leave)
    return Leavers::Stay;
  if (analysis::maskedShuffleKind(Name)) {
    const unsigned Width = shuffleWidth(Intrinsic, Ctx);
    if (Width >= 32 || D.divergenceWithinTile(Point, Width))
      return Leavers::Stay;
  }
  return isa<ReturnStmt>(Leave) ? Leavers::Exited : Leavers::LeaveTheKernel;
}

constexpr llvm::StringLiteral LeaveTheKernelFact =
    "; potential: the lanes that skip it leave the kernel with no other warp "
    "collective and count as exited, so this is a bug only if the code "
    "relies on them taking part, which the tool does not see here";

/// Whether \p Call passes a mask that names all 32 lanes, and how.
std::optional<FullWarpMaskCheck::MaskSite>
fullMaskSite(const CallExpr *Call, const FunctionDecl *FD,
             MaskEvaluator &Evaluator) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!isMaskedWarpIntrinsic(Callee) || Call->getNumArgs() == 0)
    return std::nullopt;
  FullWarpMaskCheck::MaskSite Site;
  Site.Call = Call;
  Site.Function = FD;
  Site.Intrinsic = Callee->getNameAsString();
  const Expr *Mask = Call->getArg(0);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Mask)) {
    Site.DefaultMask = true;
    Mask = Default->getExpr();
  }
  std::optional<llvm::APSInt> V = Evaluator.value(Mask);
  if (!V || !analysis::isFullWarpMask(*V))
    return std::nullopt;
  if (!Site.DefaultMask)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Mask->IgnoreParenCasts()))
      Site.Variable = dyn_cast<VarDecl>(Ref->getDecl());
  return Site;
}

/// A warp intrinsic whose mask is a parameter of \p FD passed on unchanged:
/// full or not at each call of \p FD (analysis/lanes/WarpMasks.h).
std::optional<FullWarpMaskCheck::MaskSite>
parametricMaskSite(const CallExpr *Call, const FunctionDecl *FD,
                   ASTContext &Ctx) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!isMaskedWarpIntrinsic(Callee) || Call->getNumArgs() == 0 ||
      isa<CXXDefaultArgExpr>(Call->getArg(0)))
    return std::nullopt;
  std::optional<unsigned> Param =
      analysis::maskParameter(Call->getArg(0), FD, Ctx);
  if (!Param)
    return std::nullopt;
  FullWarpMaskCheck::MaskSite Site;
  Site.Call = Call;
  Site.Function = FD;
  Site.Intrinsic = Callee->getNameAsString();
  Site.MaskParam = static_cast<int>(*Param);
  Site.MaskOwner = FD;
  return Site;
}

/// \p Site as seen through \p Call, made in \p Caller: a site with a fixed
/// full mask stays; one whose mask is a parameter of the callee is full when
/// the call binds it to a full mask (its argument, or the default it leaves
/// in place), and stays parametric when the call passes on a parameter of
/// the caller. nullopt: not a full-mask site at this call.
std::optional<FullWarpMaskCheck::MaskSite>
bindAtCall(const FullWarpMaskCheck::MaskSite &Site, const CallExpr *Call,
           const FunctionDecl *Caller, MaskEvaluator &Evaluator,
           ASTContext &Ctx) {
  if (Site.MaskParam < 0)
    return Site;
  const Expr *Bound =
      analysis::boundArgument(Call, static_cast<unsigned>(Site.MaskParam));
  if (!Bound)
    return std::nullopt;
  FullWarpMaskCheck::MaskSite Result = Site;
  if (std::optional<llvm::APSInt> V = Evaluator.value(Bound)) {
    if (!analysis::isFullWarpMask(*V))
      return std::nullopt;
    Result.MaskParam = -1;
    Result.BoundParam = Site.MaskParam;
    Result.BoundMask = Bound;
    Result.BoundDefault = isa<CXXDefaultArgExpr>(
        Call->getArg(static_cast<unsigned>(Site.MaskParam)));
    return Result;
  }
  std::optional<unsigned> Outer = analysis::maskParameter(Bound, Caller, Ctx);
  if (!Outer)
    return std::nullopt;
  Result.MaskParam = static_cast<int>(*Outer);
  Result.MaskOwner = Caller;
  return Result;
}

/// Where a finding about \p Site is reported: the mask as written (the
/// macro's name when it comes from one), or the call for a default mask.
SourceLocation reportLocation(const FullWarpMaskCheck::MaskSite &Site,
                              const SourceManager &SM) {
  SourceLocation Loc = Site.DefaultMask ? beginOf(Site.Call)
                                        : Site.Call->getArg(0)->getBeginLoc();
  return SM.getExpansionLoc(Loc);
}

/// In converged code these full masks assume nothing a tile would state
/// better: `__syncwarp()` with its default mask is the documented way to
/// order a converged warp's memory accesses, and `__ballot_sync(FULL, p)`
/// there computes the very mask a later intrinsic is given.
bool statesNoConvergenceAssumption(const FullWarpMaskCheck::MaskSite &Site) {
  if (analysis::isSyncWarpName(Site.Intrinsic) && Site.DefaultMask)
    return true;
  return analysis::isBallotSyncName(Site.Intrinsic);
}

} // namespace

FullWarpMaskCheck::FullWarpMaskCheck(StringRef Name, ClangTidyContext *Context,
                                     Report What)
    : ClangTidyCheck(Name, Context), What(What),
      ReportPotential(Options.get("ReportPotential", false)),
      AssumeBlockDimXMultipleOf32(
          projectFlag(Options, "AssumeBlockDimXMultipleOf32",
                      BlockDimXMultipleOf32Option, false)),
      GroupByCause(Options.get("GroupByCause", true)) {}

void FullWarpMaskCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  if (What == Report::Hazards) {
    Options.store(Opts, "ReportPotential", ReportPotential);
    Options.store(Opts, "GroupByCause", GroupByCause);
  }
  Options.store(Opts, "AssumeBlockDimXMultipleOf32",
                AssumeBlockDimXMultipleOf32);
}

void FullWarpMaskCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

void FullWarpMaskCheck::onStartOfTranslationUnit() {
  Findings.clear();
  ReachedSites.clear();
  NextOrder = 0;
  Ctx = nullptr;
}

/// The manager for the current TU and options.
static AnalysisManager &managerFor(ASTContext &Ctx, bool AssumeRows) {
  analysis::AnalysisOptions Opts;
  Opts.AssumeBlockDimXMultipleOf32 = AssumeRows;
  return AnalysisManager::forContext(Ctx, Opts);
}

const std::vector<FullWarpMaskCheck::MaskSite> &
FullWarpMaskCheck::sitesReachedFrom(const FunctionDecl *FD, unsigned Depth) {
  static const std::vector<MaskSite> None;
  if (!Ctx || !FD)
    return None;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  auto Found = ReachedSites.find(FD);
  if (Found != ReachedSites.end())
    return Found->second;
  // Functions in system headers (CUDA's, CUB's) are trusted; and the
  // placeholder stops recursion.
  ReachedSites[FD] = {};
  if (Ctx->getSourceManager().isInSystemHeader(FD->getLocation()) ||
      FD->isDependentContext())
    return ReachedSites[FD];

  AnalysisManager &Manager = managerFor(*Ctx, AssumeBlockDimXMultipleOf32);
  const FunctionDivergence *D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed())
    return ReachedSites[FD];

  std::vector<MaskSite> Sites;
  MaskEvaluator Evaluator(FD, *Ctx);
  for (const CallExpr *Call : D->calls()) {
    if (Sites.size() >= MaxSites)
      break;
    if (!D->isReachable(Call))
      continue;
    std::optional<MaskSite> Site = fullMaskSite(Call, FD, Evaluator);
    if (!Site)
      Site = parametricMaskSite(Call, FD, *Ctx);
    if (Site) {
      Site->DivergesOnItsOwn = D->divergenceAt(Call, Level::warp()).has_value();
      Sites.push_back(*Site);
      continue;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Depth >= MaxCallDepth || isMaskedWarpIntrinsic(Callee) ||
        analysis::knownResultModel(Call, AssumeBlockDimXMultipleOf32))
      continue;
    std::vector<MaskSite> Nested = sitesReachedFrom(Callee, Depth + 1);
    for (const MaskSite &S : Nested)
      if (Sites.size() < MaxSites)
        if (std::optional<MaskSite> Bound =
                bindAtCall(S, Call, FD, Evaluator, *Ctx))
          Sites.push_back(*Bound);
  }
  std::vector<MaskSite> &Slot = ReachedSites[FD];
  Slot = std::move(Sites);
  return Slot;
}

void FullWarpMaskCheck::record(Pending P) {
  unsigned Key = P.Loc.getRawEncoding();
  auto It = Findings.find(Key);
  if (It == Findings.end()) {
    P.Order = NextOrder++;
    Findings.try_emplace(Key, std::move(P));
    return;
  }
  // A divergent verdict (from another instantiation) replaces a
  // convergent one; otherwise the first stays.
  if (It->second.K == Pending::Convergent && P.K != Pending::Convergent) {
    P.Order = It->second.Order;
    It->second = std::move(P);
  }
}

void FullWarpMaskCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || Function->isDependentContext() || !Function->getBody() ||
      !isDeviceCode(Function))
    return;
  Ctx = Result.Context;
  const SourceManager &SM = Ctx->getSourceManager();
  AnalysisManager &Manager = managerFor(*Ctx, AssumeBlockDimXMultipleOf32);
  const FunctionDivergence *D = Manager.divergence(Function);
  if (!D || !D->isAnalyzed())
    return;

  MaskEvaluator Evaluator(Function, *Ctx);
  // What lanes that leave a branch must not meet again to count as exited:
  // a warp intrinsic with a mask, a block barrier, a call that reaches one.
  auto Syncs = [&](const CallExpr *Other) {
    const FunctionDecl *Callee = Other->getDirectCallee();
    if (isMaskedWarpIntrinsic(Callee) || analysis::asBarrierCall(Other))
      return true;
    if (!Callee || analysis::knownResultModel(Other,
                                              AssumeBlockDimXMultipleOf32))
      return false;
    if (!sitesReachedFrom(Callee, 1).empty())
      return true;
    const analysis::CallSummary *Summary = Manager.summary(Callee);
    return Summary && !Summary->Barriers.empty();
  };
  for (const CallExpr *Call : D->calls()) {
    if (!D->isReachable(Call))
      continue;

    // A full mask at this call.
    if (isMaskedWarpIntrinsic(Call->getDirectCallee())) {
      std::optional<MaskSite> Site = fullMaskSite(Call, Function, Evaluator);
      if (!Site)
        continue;
      Pending P;
      P.Loc = reportLocation(*Site, SM);
      P.Site = *Site;
      if (SM.isInSystemHeader(P.Loc))
        continue;
      std::optional<DivergenceReason> Reason =
          D->divergenceAt(Call, Level::warp());
      const Leavers Left =
          Reason ? whatLeaversDo(*D, *Reason, Call, Call, Site->Intrinsic,
                                 *Ctx, Syncs)
                 : Leavers::Stay;
      if (Reason && Left != Leavers::Exited) {
        if (What == Report::Hazards) {
          P.K = Pending::Divergent;
          P.Reason = Reason;
          P.Site.DivergesOnItsOwn = true;
          P.PotentialFact =
              Left == Leavers::LeaveTheKernel
                  ? LeaveTheKernelFact.str()
                  : warpPotentialFact(Manager, Function, Call, *Reason, *Ctx,
                                      Level::warp());
          P.Potential = !P.PotentialFact.empty();
          if (!P.Potential || ReportPotential)
            record(std::move(P));
        }
      } else if (What == Report::ConvergedAdvisory &&
                 !statesNoConvergenceAssumption(*Site)) {
        P.K = Pending::Convergent;
        record(std::move(P));
      }
      continue;
    }
    if (What != Report::Hazards)
      continue;

    // A call that reaches a full mask in a callee.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee ||
        analysis::knownResultModel(Call, AssumeBlockDimXMultipleOf32))
      continue;
    // The callee's sites as this call makes them: a mask parameter is full
    // or not by what the call binds to it.
    std::vector<MaskSite> Sites;
    for (const MaskSite &S : sitesReachedFrom(Callee, 1))
      if (std::optional<MaskSite> Bound =
              bindAtCall(S, Call, Function, Evaluator, *Ctx);
          Bound && Bound->MaskParam < 0)
        Sites.push_back(*Bound);
    const FunctionDecl *CalleeDef =
        Callee->getDefinition() ? Callee->getDefinition() : Callee;
    SourceLocation Loc = SM.getExpansionLoc(beginOf(Call));
    if (SM.isInSystemHeader(Loc))
      continue;

    // Sites that diverge inside their own function are reported there.
    std::optional<DivergenceReason> Reason =
        D->divergenceAt(Call, Level::warp());
    if (Reason) {
      // A site the lanes that stay would make definite comes first.
      Leavers Left = Leavers::Exited;
      const MaskSite *Candidate = nullptr;
      for (const MaskSite &S : Sites) {
        if (S.DivergesOnItsOwn && !S.BoundMask)
          continue;
        Leavers L =
            whatLeaversDo(*D, *Reason, Call, S.Call, S.Intrinsic, *Ctx, Syncs);
        if (L == Leavers::Exited || (Candidate && L != Leavers::Stay))
          continue;
        Candidate = &S;
        Left = L;
        if (L == Leavers::Stay)
          break;
      }
      if (!Candidate)
        continue;
      Pending P;
      P.K = Pending::ViaCall;
      P.Loc = Loc;
      P.Site = *Candidate;
      P.Reason = Reason;
      P.Call = Call;
      P.PotentialFact =
          Left == Leavers::LeaveTheKernel
              ? LeaveTheKernelFact.str()
              : warpPotentialFact(Manager, Function, Call, *Reason, *Ctx,
                                  Level::warp());
      P.Potential = !P.PotentialFact.empty();
      if (!P.Potential || ReportPotential)
        record(std::move(P));
      continue;
    }

    // Divergence inside the callee, because of what this call passes.
    const FunctionDivergence *CalleeD = Manager.divergence(CalleeDef);
    if (!CalleeD || !CalleeD->isAnalyzed())
      continue;
    auto Inputs = [&](unsigned Symbol) {
      return D->symbolValueAtCall(Call, Symbol);
    };
    for (const MaskSite &S : Sites) {
      // A site whose mask this call makes full was not reported where it
      // diverges (the mask was a parameter there): it is reported here.
      if ((S.DivergesOnItsOwn && !S.BoundMask) || S.Function != CalleeDef)
        continue;
      std::optional<DivergenceReason> Inner =
          CalleeD->divergenceAt(S.Call, Level::warp(), Inputs);
      if (!Inner)
        continue;
      // Analysed with the thread index it is passed, the callee may reach
      // the site converged after all (CallSummaries.h divergenceAsCalled).
      if (const FunctionDivergence *AsCalled = analysis::divergenceAsCalled(
              *D, Call, CalleeDef, Manager);
          AsCalled && AsCalled->isAnalyzed() &&
          !AsCalled->divergenceAt(S.Call, Level::warp(), Inputs))
        continue;
      Pending P;
      P.K = Pending::ViaCall;
      P.Loc = Loc;
      P.Site = S;
      P.Reason = Inner;
      // A bound mask site that diverges on its own: the callee's branch is
      // the reason, not an argument of this call.
      P.ThroughArgument = !(S.BoundMask && S.DivergesOnItsOwn);
      P.Call = Call;
      // The argument that carries the non-uniform value: the first
      // parameter the diverging condition depends on.
      uint64_t Symbols = Inner->Condition
                             ? CalleeD->uniformityOf(Inner->Condition).symbols()
                             : Inner->ConditionUniformity.symbols();
      // Parameter I is argument I, after the object of a member operator.
      const auto *Method = dyn_cast<CXXMethodDecl>(CalleeDef);
      const unsigned FirstArg = isa<CXXOperatorCallExpr>(Call) && Method &&
                                        !Method->isStatic()
                                    ? 1
                                    : 0;
      for (unsigned I = 0; FirstArg + I < Call->getNumArgs() && I < 32; ++I)
        if (Symbols & (static_cast<uint64_t>(1) << I)) {
          const Expr *Arg = Call->getArg(FirstArg + I);
          if (!isa<CXXDefaultArgExpr>(Arg) &&
              !D->uniformityOf(Arg).isUniformAt(Level::warp())) {
            P.Argument = Arg;
            break;
          }
        }
      record(std::move(P));
      break;
    }
  }
}

void FullWarpMaskCheck::emit(const Pending &P) {
  const MaskSite &Site = P.Site;
  // Divergent and ViaCall findings always carry their reason.
  const DivergenceReason *Reason = P.Reason ? &*P.Reason : nullptr;
  if (P.K != Pending::Convergent && !Reason)
    return;
  llvm::StringRef MaskWords =
      Site.DefaultMask ? "its default full warp mask" : "a full warp mask";
  auto VariableNote = [&] {
    if (Site.Variable)
      diag(Site.Variable->getLocation(), "'%0' holds a full warp mask",
           DiagnosticIDs::Note)
          << Site.Variable->getName();
  };

  switch (P.K) {
  case Pending::Convergent:
    diag(P.Loc, "'%0' is called with %1, which assumes the whole warp is "
                "converged here; a cooperative-groups tile "
                "(cg::tiled_partition<32>(block) with cg::reduce or "
                "tile.shfl_down) carries its own membership")
        << Site.Intrinsic << MaskWords;
    VariableNote();
    return;
  case Pending::Divergent:
    diag(P.Loc, "'%0' is called with %1 under control flow that diverges "
                "within the warp (%2): %3 are named in the mask%4")
        << Site.Intrinsic << MaskWords
        << analysis::divergenceKindName(Reason->Kind)
        << missingThreads(Reason->Kind, "lanes")
        << P.PotentialFact;
    explainDivergence(*this, *Reason, "warp", "the call", *Ctx);
    VariableNote();
    return;
  case Pending::ViaCall: {
    const DivergenceReason &R = *Reason;
    diag(P.Loc, "call to '%0' reaches '%1' with %2 under control flow that "
                "diverges within the warp (%3): %4 are named in the mask%5")
        << calleeDisplayName(P.Call) << Site.Intrinsic << MaskWords
        << analysis::divergenceKindName(
               P.ThroughArgument ? DivergenceKind::ViaCall : R.Kind)
        << missingThreads(R.Kind, "lanes")
        << P.PotentialFact;
    if (P.ThroughArgument) {
      if (P.Argument)
        diag(P.Argument->getBeginLoc(),
             "this argument is not uniform across the warp",
             DiagnosticIDs::Note);
      if (R.Condition)
        diag(R.Condition->getBeginLoc(), "this condition in '%0' depends on it",
             DiagnosticIDs::Note)
            << (R.Function ? R.Function->getNameAsString()
                           : calleeDisplayName(P.Call));
    } else {
      explainDivergence(*this, R, "warp", "the call", *Ctx);
    }
    if (Site.BoundMask && Site.MaskOwner && Site.BoundParam >= 0 &&
        static_cast<unsigned>(Site.BoundParam) <
            Site.MaskOwner->getNumParams()) {
      const ParmVarDecl *Param = Site.MaskOwner->getParamDecl(
          static_cast<unsigned>(Site.BoundParam));
      diag(Site.Call->getArg(0)->getBeginLoc(),
           "'%0' is called here with the mask that '%1' of '%2' passes on",
           DiagnosticIDs::Note)
          << Site.Intrinsic << Param->getName()
          << Site.MaskOwner->getNameAsString();
      diag(Site.BoundDefault ? Param->getDefaultArgRange().getBegin()
                             : Site.BoundMask->getBeginLoc(),
           Site.BoundDefault ? "'%0' defaults to a full warp mask, and the "
                               "call leaves the default"
                             : "the call passes a full warp mask as '%0'",
           DiagnosticIDs::Note)
          << Param->getName();
      return;
    }
    diag(reportLocation(Site, Ctx->getSourceManager()),
         "'%0' is called here with %1", DiagnosticIDs::Note)
        << Site.Intrinsic << MaskWords;
    return;
  }
  }
}

void FullWarpMaskCheck::onEndOfTranslationUnit() {
  if (!Ctx)
    return;
  std::vector<const Pending *> Ordered;
  Ordered.reserve(Findings.size());
  for (const auto &Entry : Findings)
    Ordered.push_back(&Entry.second);
  const SourceManager &SM = Ctx->getSourceManager();
  std::sort(Ordered.begin(), Ordered.end(),
            [&](const Pending *A, const Pending *B) {
              if (A->Loc != B->Loc)
                return SM.isBeforeInTranslationUnit(A->Loc, B->Loc);
              return A->Order < B->Order;
            });
  // One finding per cause (FindingsByCause.h): the calls a divergent
  // branch of the caller puts under it. A divergence inside a callee on an
  // argument belongs to each call that passes it, and a convergence
  // assumption has no branch: those stand alone.
  FindingsByCause Causes;
  for (const Pending *P : Ordered) {
    analysis::DivergenceReason Cause;
    if (P->Reason && P->K != Pending::Convergent && !P->ThroughArgument)
      Cause = *P->Reason;
    Causes.add(Cause, P->Potential ? 1 : 0, P->Loc,
               "'" + P->Site.Intrinsic + "'", [this, P] { emit(*P); });
  }
  Causes.emit(*this, SM, GroupByCause && What == Report::Hazards,
              "full-mask warp intrinsic", "full-mask warp intrinsics");
  Findings.clear();
}

} // namespace clang::tidy::cuda
