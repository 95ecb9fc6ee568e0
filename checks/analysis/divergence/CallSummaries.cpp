//===--- CallSummaries.cpp - what a call does, for the caller's analysis --===//

#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>

namespace clang::tidy::cuda::analysis {

std::optional<Scope> CallSummary::requiredConvergence() const {
  std::optional<Scope> Widest;
  for (const BarrierSite &Site : Barriers)
    if (!Widest || Site.BarrierScope > *Widest)
      Widest = Site.BarrierScope;
  return Widest;
}

namespace {

void addSite(CallSummary &Summary, BarrierSite Site) {
  for (const BarrierSite &Existing : Summary.Barriers)
    if (Existing.Barrier == Site.Barrier &&
        Existing.BarrierScope == Site.BarrierScope &&
        Existing.Control.sameAs(Site.Control))
      return;
  if (Summary.Barriers.size() < CallSummary::MaxBarrierSites) {
    Summary.Barriers.push_back(std::move(Site));
    return;
  }
  // Full: a wider barrier is worth more to callers than a narrower one.
  auto *Narrowest =
      std::min_element(Summary.Barriers.begin(), Summary.Barriers.end(),
                       [](const BarrierSite &A, const BarrierSite &B) {
                         return A.BarrierScope < B.BarrierScope;
                       });
  if (Narrowest->BarrierScope < Site.BarrierScope)
    *Narrowest = std::move(Site);
}

/// The argument of \p Call that binds parameter \p Param of the callee.
const Expr *argumentFor(const CallExpr *Call, const ParmVarDecl *Param) {
  unsigned Shift = 0;
  if (isa<CXXOperatorCallExpr>(Call))
    if (const auto *Method =
            dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()))
      if (!Method->isStatic())
        Shift = 1;
  unsigned Index = Param->getFunctionScopeIndex() + Shift;
  return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
}

} // namespace

CallSummary conservativeSummary(const FunctionDecl *FD) {
  CallSummary Summary;
  Summary.Function = FD;
  Summary.Conservative = true;
  Summary.ReturnValue = Uniformity::varying({OriginKind::Unknown, nullptr});
  Summary.IndirectStores = Summary.ReturnValue;
  return Summary;
}

CallSummary summarize(const FunctionDivergence &D, FactQueries &Manager) {
  CallSummary Summary;
  Summary.Function = D.function();
  Summary.ReturnValue = D.returnUniformity();
  Summary.IndirectStores = D.indirectStoreUniformity();
  if (!D.isAnalyzed())
    return Summary;
  if (const FunctionDecl *FD = D.function())
    for (unsigned Index = 0; Index < FD->getNumParams(); ++Index)
      Summary.ReferenceParamExit.push_back(D.referenceParameterExit(Index));
  if (const std::vector<std::optional<Uniformity>> *Exits =
          D.thisFieldExits()) {
    Summary.ThisFieldsKept = true;
    Summary.ThisFieldExit.assign(Exits->begin(), Exits->end());
  }

  for (const CallExpr *Call : D.calls()) {
    if (!D.isReachable(Call))
      continue;
    if (std::optional<BarrierCall> Barrier = asBarrierCall(Call)) {
      BarrierSite Site;
      Site.Barrier = Call;
      Site.Function = D.function();
      Site.BarrierScope = Barrier->BarrierScope;
      Site.Spelling = Barrier->Spelling;
      Site.Control = D.controlUniformity(Call);
      addSite(Summary, std::move(Site));
      continue;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    // Modelled API calls (shuffles, group handles, ...) are leaves.
    if (!Callee ||
        knownResultModel(Call, Manager.rowsAreWarpAligned(D.function())))
      continue;
    const CallSummary *CalleeSummary = Manager.summary(Callee);
    if (!CalleeSummary)
      continue;
    Uniformity AtCall = D.controlUniformity(Call);
    for (const BarrierSite &Inner : CalleeSummary->Barriers) {
      BarrierSite Site = Inner;
      Site.Control = Uniformity::join(
          AtCall, Inner.Control.resolve([&](unsigned Symbol) {
            return D.symbolValueAtCall(Call, Symbol);
          }));
      Site.Through = Call;
      addSite(Summary, std::move(Site));
    }
  }
  return Summary;
}

const FunctionDivergence *
divergenceAsCalled(const FunctionDivergence &Caller, const CallExpr *Call,
                   const FunctionDecl *Callee, FactQueries &Manager) {
  if (!Callee || !Call)
    return nullptr;
  llvm::SmallVector<std::optional<Uniformity>, 4> Values;
  bool Any = false;
  const unsigned Params =
      std::min<unsigned>(Callee->getNumParams(), Uniformity::FirstCaptureSymbol);
  for (unsigned I = 0; I < Params; ++I) {
    Uniformity V = Caller.symbolValueAtCall(Call, I);
    const bool LaneForm = V.isScaledLaneLinear() || V.isLaneQuotient();
    if (LaneForm && V.symbols() == 0 && V.collectiveSymbols() == 0 &&
        !V.mayPointToLocal()) {
      Values.emplace_back(V);
      Any = true;
    } else {
      Values.emplace_back(std::nullopt);
    }
  }
  return Any ? Manager.divergenceForCall(Callee, Call, Values) : nullptr;
}

std::optional<CallSiteDivergence>
callSiteDivergence(const FunctionDivergence &Caller, const CallExpr *Call,
                   const CallSummary &Summary, FactQueries &Manager) {
  if (Summary.Barriers.empty())
    return std::nullopt;
  llvm::SmallVector<const BarrierSite *, 4> Order;
  for (const BarrierSite &Site : Summary.Barriers)
    Order.push_back(&Site);
  // Widest scope first; source order among equals.
  llvm::sort(Order, [](const BarrierSite *A, const BarrierSite *B) {
    if (A->BarrierScope != B->BarrierScope)
      return A->BarrierScope > B->BarrierScope;
    return A < B;
  });

  // The call itself runs under divergence in the caller.
  for (const BarrierSite *Site : Order) {
    Level Need = Level::of(Site->BarrierScope);
    if (std::optional<DivergenceReason> Reason =
            Caller.divergenceAt(Call, Need)) {
      CallSiteDivergence Result;
      Result.Site = Site;
      Result.Reason = *Reason;
      return Result;
    }
  }

  // The callee diverges because of what this call passes it.
  auto Inputs = [&](unsigned Symbol) {
    return Caller.symbolValueAtCall(Call, Symbol);
  };
  // The callee analysed as this call calls it, made on first need.
  std::optional<const FunctionDivergence *> InContext;
  for (const BarrierSite *Site : Order) {
    Level Need = Level::of(Site->BarrierScope);
    // Diverging on its own: reported where it happens.
    if (Site->Control.level() < Need)
      continue;
    if (!(Site->Control.resolve(Inputs).level() < Need))
      continue;
    // A symbol carries how widely its argument is shared, not the
    // arithmetic facts that make `tid < n * 32` split no warp when tid is
    // the caller's thread index (nccl's `run(tid, ...)`, a cta lambda's
    // `tid` argument). Analysed with such arguments bound, the callee may
    // reach the barrier converged after all.
    if (!Site->Through) {
      if (!InContext)
        InContext =
            divergenceAsCalled(Caller, Call, Summary.Function, Manager);
      if (*InContext &&
          !(*InContext)->divergenceAt(Site->Barrier, Need, Inputs))
        continue;
    }
    CallSiteDivergence Result;
    Result.Site = Site;
    if (const FunctionDivergence *Callee =
            Manager.divergence(Summary.Function)) {
      const Stmt *Point = Site->Through
                              ? static_cast<const Stmt *>(Site->Through)
                              : Site->Barrier;
      if (std::optional<DivergenceReason> Inner =
              Callee->divergenceAt(Point, Need, Inputs))
        Result.Reason = *Inner;
    }
    Result.Reason.Kind = DivergenceKind::ViaCall;
    if (const auto *Param =
            dyn_cast_or_null<ParmVarDecl>(Result.Reason.Via))
      Result.Argument = argumentFor(Call, Param);
    if (!Result.Reason.Function)
      Result.Reason.Function = Summary.Function;
    return Result;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::analysis
