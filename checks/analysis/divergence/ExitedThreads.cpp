//===--- ExitedThreads.cpp - threads that leave and never synchronize again ===//

#include "checks/analysis/divergence/ExitedThreads.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::analysis {

namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

bool contains(const SourceManager &SM, const Stmt *Outer, const Stmt *Inner) {
  SourceRange O = Outer->getSourceRange();
  SourceRange I = Inner->getSourceRange();
  SourceLocation OB = SM.getExpansionLoc(O.getBegin());
  SourceLocation OE = SM.getExpansionLoc(O.getEnd());
  SourceLocation IB = SM.getExpansionLoc(I.getBegin());
  SourceLocation IE = SM.getExpansionLoc(I.getEnd());
  return !SM.isBeforeInTranslationUnit(IB, OB) &&
         !SM.isBeforeInTranslationUnit(OE, IE);
}

/// A condition that reads memory other threads may be changing: a
/// volatile load, an atomic, inline assembly. A loop on one may be waiting
/// for them (a hand-written barrier: `atomicAdd(&count, 1); while
/// (*(volatile unsigned *)&count < blockDim.x) {}`).
class ReadsSharedState : public RecursiveASTVisitor<ReadsSharedState> {
public:
  bool Found = false;
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_LValueToRValue &&
        Cast->getSubExpr()->getType().isVolatileQualified())
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *F = Call->getDirectCallee())
      if (const IdentifierInfo *Id = F->getIdentifier()) {
        if (mayReadOthersStateByName(Id->getName()))
          Found = true;
      }
    return !Found;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *) { return !(Found = true); }
};

/// \p S holds, or calls (up to a few levels), a loop whose condition reads
/// state other threads change: the thread may wait there for them.
class WaitsForOthers : public RecursiveASTVisitor<WaitsForOthers> {
public:
  explicit WaitsForOthers(unsigned Depth) : Depth(Depth) {}
  bool Found = false;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitWhileStmt(WhileStmt *S) { return check(S->getCond()); }
  bool VisitDoStmt(DoStmt *S) { return check(S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return check(S->getCond()); }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *F = Call->getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (Depth == 0 || !F || !F->hasBody(Def) || !Def->getBody())
      return true;
    if (!Visited.insert(Def).second)
      return true;
    WaitsForOthers Inner(Depth - 1);
    Inner.Visited = Visited;
    Inner.TraverseStmt(Def->getBody());
    Found |= Inner.Found;
    return !Found;
  }
  llvm::SmallPtrSet<const FunctionDecl *, 8> Visited;

private:
  bool check(const Expr *Cond) {
    if (!Cond)
      return true;
    ReadsSharedState R;
    R.TraverseStmt(const_cast<Expr *>(Cond));
    Found |= R.Found;
    return !Found;
  }
  unsigned Depth;
};

class HasGoto : public RecursiveASTVisitor<HasGoto> {
public:
  bool Found = false;
  bool VisitGotoStmt(GotoStmt *) { return !(Found = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(Found = true); }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
};

} // namespace

const Stmt *whereLeaversExit(
    const FunctionDivergence &D, const DivergenceReason &Reason,
    const Stmt *Point,
    llvm::function_ref<bool(const CallExpr *)> Synchronizes) {
  const FunctionDecl *Kernel = D.function();
  if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>() ||
      Reason.Function != Kernel || !Kernel->getBody() || !Reason.Branch)
    return nullptr;
  Stmt *Body = Kernel->getBody();
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  ParentMap Parents(Body);

  // Where the threads that miss Point go: out of the kernel (return), past
  // the loop a break leaves, past the branch or the loop they skip.
  const Stmt *Leave = nullptr;
  switch (Reason.Kind) {
  case DivergenceKind::EarlyExit:
    if (Reason.Exit && isa<ReturnStmt>(Reason.Exit))
      return Reason.Exit;
    if (Reason.Exit && isa<BreakStmt>(Reason.Exit))
      for (const Stmt *P = Parents.getParent(Reason.Exit); P;
           P = Parents.getParent(P))
        if (isLoop(P) || isa<SwitchStmt>(P)) {
          Leave = isLoop(P) ? P : nullptr;
          break;
        }
    break;
  case DivergenceKind::Branch:
    // An if: the threads that skip Point's arm run the other one, which
    // must not synchronize (checked below with the rest of the body).
    if (isa<IfStmt>(Reason.Branch))
      Leave = Reason.Branch;
    break;
  case DivergenceKind::LoopTripCount:
    if (isLoop(Reason.Branch))
      Leave = Reason.Branch;
    break;
  default:
    break;
  }
  if (!Leave)
    return nullptr;
  HasGoto Gotos;
  Gotos.TraverseStmt(Body);
  if (Gotos.Found)
    return nullptr;
  // In a loop of the kernel the leavers come back to Point on the next
  // iteration.
  for (const Stmt *P = Parents.getParent(Leave); P; P = Parents.getParent(P))
    if (isLoop(P))
      return nullptr;

  // The code the leavers still run: everything after Leave, and the arm of
  // an if that Point is not in.
  const Stmt *OtherArm = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(Leave)) {
    const Stmt *Then = If->getThen();
    const Stmt *Else = If->getElse();
    if (Then && contains(SM, Then, Point))
      OtherArm = Else;
    else if (Else && contains(SM, Else, Point))
      OtherArm = Then;
    else
      return nullptr; // Point is in the condition
  }
  const SourceLocation LeaveEnd = SM.getExpansionLoc(Leave->getEndLoc());
  for (const CallExpr *Call : D.calls()) {
    SourceLocation At = SM.getExpansionLoc(Call->getBeginLoc());
    const bool After = SM.isBeforeInTranslationUnit(LeaveEnd, At);
    const bool InOtherArm = OtherArm && contains(SM, OtherArm, Call);
    if ((After || InOtherArm) && Synchronizes(Call))
      return nullptr;
  }
  // A thread that spins on memory the others change after it left (a
  // hand-written barrier, a ticket lock) waits for them: it does not leave.
  auto Waits = [](const Stmt *S) {
    WaitsForOthers W(/*Depth=*/4);
    W.TraverseStmt(const_cast<Stmt *>(S));
    return W.Found;
  };
  if (OtherArm && Waits(OtherArm))
    return nullptr;
  for (const Stmt *Child : Body->children())
    if (Child && SM.isBeforeInTranslationUnit(
                     LeaveEnd, SM.getExpansionLoc(Child->getBeginLoc())) &&
        Waits(Child))
      return nullptr;
  for (const Stmt *P = Leave; P && P != Body; P = Parents.getParent(P)) {
    // Statements after Leave in each enclosing compound statement.
    const Stmt *Parent = Parents.getParent(P);
    if (!Parent || Parent == Body)
      break;
    for (const Stmt *Sibling : Parent->children())
      if (Sibling && Sibling != P &&
          SM.isBeforeInTranslationUnit(
              LeaveEnd, SM.getExpansionLoc(Sibling->getBeginLoc())) &&
          Waits(Sibling))
        return nullptr;
  }
  return Leave;
}

} // namespace clang::tidy::cuda::analysis
