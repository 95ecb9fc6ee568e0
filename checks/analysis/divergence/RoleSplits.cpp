//===--- RoleSplits.cpp - warp-aligned roles that run the same barriers ---===//

#include "checks/analysis/divergence/RoleSplits.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::cuda::analysis {

namespace {

/// What a statement holds that makes its barrier count unknowable from its
/// shape: a call that synchronizes, and a jump out of the function.
class SyncAndExits : public RecursiveASTVisitor<SyncAndExits> {
public:
  explicit SyncAndExits(llvm::function_ref<SyncKind(const CallExpr *)> C)
      : Classify(C) {}
  bool Synchronizes = false;
  bool Leaves = false;
  // A lambda's body runs where it is called, not where it is written.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (Classify(Call) != SyncKind::None)
      Synchronizes = true;
    return true;
  }
  // `bar.sync` / `barrier.sync` written in PTX: a block barrier the calls
  // do not show, counted as unknown.
  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    std::string Text = Asm->getAsmString();
    if (llvm::StringRef(Text).contains("bar.") ||
        llvm::StringRef(Text).contains("barrier."))
      Synchronizes = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) { return !(Leaves = true); }
  bool VisitGotoStmt(GotoStmt *) { return !(Leaves = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(Leaves = true); }
  bool VisitLabelStmt(LabelStmt *) { return !(Leaves = true); }
  bool VisitCXXThrowExpr(CXXThrowExpr *) { return !(Leaves = true); }
  bool VisitCoreturnStmt(CoreturnStmt *) { return !(Leaves = true); }

private:
  llvm::function_ref<SyncKind(const CallExpr *)> Classify;
};

SyncAndExits scan(const Stmt *S,
                  llvm::function_ref<SyncKind(const CallExpr *)> Classify) {
  SyncAndExits V(Classify);
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V;
}

/// `__syncthreads();` or `(void)__syncthreads();` as a statement of its own.
const CallExpr *asStatementCall(const Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<CStyleCastExpr>(E))
    if (Cast->getType()->isVoidType())
      E = Cast->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreParenImpCasts();
  return dyn_cast<CallExpr>(E);
}

} // namespace

std::optional<unsigned>
exactBarrierCount(const Stmt *S,
                  llvm::function_ref<SyncKind(const CallExpr *)> Classify) {
  if (!S)
    return 0u;
  if (const auto *Compound = dyn_cast<CompoundStmt>(S)) {
    unsigned Sum = 0;
    for (const Stmt *Child : Compound->body()) {
      std::optional<unsigned> N = exactBarrierCount(Child, Classify);
      if (!N)
        return std::nullopt;
      Sum += *N;
    }
    return Sum;
  }
  if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
    return exactBarrierCount(Attributed->getSubStmt(), Classify);
  // break and continue at this level leave S (a loop around it is not
  // inside S).
  if (isa<BreakStmt, ContinueStmt>(S))
    return std::nullopt;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    for (const Stmt *Part : {If->getInit(),
                             static_cast<const Stmt *>(If->getCond()),
                             static_cast<const Stmt *>(
                                 If->getConditionVariableDeclStmt())}) {
      if (!Part)
        continue;
      SyncAndExits Found = scan(Part, Classify);
      if (Found.Synchronizes || Found.Leaves)
        return std::nullopt;
    }
    // Each thread runs one arm: the count is exact when both arms agree,
    // whatever the condition.
    std::optional<unsigned> Then = exactBarrierCount(If->getThen(), Classify);
    std::optional<unsigned> Else = exactBarrierCount(If->getElse(), Classify);
    if (!Then || !Else || *Then != *Else)
      return std::nullopt;
    return Then;
  }
  if (const CallExpr *Call = asStatementCall(S)) {
    SyncKind Kind = Classify(Call);
    if (Kind == SyncKind::Unknown)
      return std::nullopt;
    // The arguments must not synchronize either.
    for (const Expr *Arg : Call->arguments()) {
      SyncAndExits Found = scan(Arg, Classify);
      if (Found.Synchronizes || Found.Leaves)
        return std::nullopt;
    }
    return Kind == SyncKind::Barrier ? 1u : 0u;
  }
  // Anything else (loops, switches, expressions, declarations) counts as
  // no barrier when it holds none and does not leave; a barrier inside a
  // loop or under ?: runs a thread-dependent number of times.
  SyncAndExits Found = scan(S, Classify);
  if (Found.Synchronizes || Found.Leaves)
    return std::nullopt;
  return 0u;
}

bool isMatchedRoleSplit(const FunctionDivergence &D,
                        const DivergenceReason &Reason,
                        llvm::function_ref<SyncKind(const CallExpr *)>
                            Classify) {
  if (Reason.Kind != DivergenceKind::Branch &&
      Reason.Kind != DivergenceKind::EarlyExit)
    return false;
  const auto *If = dyn_cast_or_null<IfStmt>(Reason.Branch);
  if (!If || If->isConsteval())
    return false;
  // Whole warps on each side: a split inside a warp runs two barrier
  // instructions in one warp, which synccheck reports and -G builds hang
  // on.
  if (Reason.ConditionUniformity.level() < Level::warp())
    return false;
  // The split itself is reached by the whole block; otherwise an earlier
  // divergence is the cause, and it is not matched here.
  if (D.divergenceAt(If, Scope::Block))
    return false;
  for (const Stmt *Part :
       {If->getInit(), static_cast<const Stmt *>(If->getCond()),
        static_cast<const Stmt *>(If->getConditionVariableDeclStmt())}) {
    if (!Part)
      continue;
    SyncAndExits Found = scan(Part, Classify);
    if (Found.Synchronizes || Found.Leaves)
      return false;
  }

  if (If->getElse()) {
    std::optional<unsigned> Then = exactBarrierCount(If->getThen(), Classify);
    std::optional<unsigned> Else = exactBarrierCount(If->getElse(), Classify);
    return Then && Else && *Then == *Else && *Then > 0;
  }

  // `if (c) { ...; return; }` and the rest of the function after it.
  const FunctionDecl *F = D.function();
  const auto *Body = F ? dyn_cast_or_null<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body)
    return false;
  llvm::SmallVector<const Stmt *, 8> ThenStmts;
  if (const auto *ThenBlock = dyn_cast<CompoundStmt>(If->getThen()))
    ThenStmts.append(ThenBlock->body_begin(), ThenBlock->body_end());
  else
    ThenStmts.push_back(If->getThen());
  if (ThenStmts.empty() || !isa<ReturnStmt>(ThenStmts.back()))
    return false;
  ThenStmts.pop_back();
  const auto *Position = llvm::find(Body->body(), If);
  if (Position == Body->body_end())
    return false;
  llvm::SmallVector<const Stmt *, 16> Rest(std::next(Position),
                                           Body->body_end());
  if (!Rest.empty() && isa<ReturnStmt>(Rest.back()))
    Rest.pop_back();
  auto CountOf =
      [&](llvm::ArrayRef<const Stmt *> Stmts) -> std::optional<unsigned> {
    unsigned Sum = 0;
    for (const Stmt *S : Stmts) {
      std::optional<unsigned> N = exactBarrierCount(S, Classify);
      if (!N)
        return std::nullopt;
      Sum += *N;
    }
    return Sum;
  };
  std::optional<unsigned> Leaving = CountOf(ThenStmts);
  std::optional<unsigned> Staying = CountOf(Rest);
  return Leaving && Staying && *Leaving == *Staying && *Leaving > 0;
}

} // namespace clang::tidy::cuda::analysis
