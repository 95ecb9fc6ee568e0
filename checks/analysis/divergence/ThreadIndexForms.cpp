//===--- ThreadIndexForms.cpp - thread-dependent terms that cancel --------===//

#include "checks/analysis/divergence/ThreadIndexForms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::analysis {

namespace {

/// The addends of a `+` tree, parentheses and implicit casts stripped.
void addendsOf(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out,
               unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(E);
      Binary && Binary->getOpcode() == BO_Add && Depth < 16) {
    addendsOf(Binary->getLHS(), Out, Depth + 1);
    addendsOf(Binary->getRHS(), Out, Depth + 1);
    return;
  }
  Out.push_back(E);
}

llvm::FoldingSetNodeID profileOf(const Expr *E, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID ID;
  E->Profile(ID, Ctx, /*Canonical=*/true);
  return ID;
}

const VarDecl *varOf(const Expr *E) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

/// The variables \p S assigns (=, compound, ++/--, address taken).
void collectAssigned(const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
    if (Binary->isAssignmentOp())
      if (const VarDecl *Var = varOf(Binary->getLHS()))
        Out.insert(Var);
  } else if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
    if (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf)
      if (const VarDecl *Var = varOf(Unary->getSubExpr()))
        Out.insert(Var);
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      if (const VarDecl *Var = varOf(Op->getArg(0)))
        Out.insert(Var);
  }
  for (const Stmt *Child : S->children())
    collectAssigned(Child, Out);
}

/// T reads only variables and built-in index values: no call, no load
/// through a pointer, nothing that could change between the start and a
/// later test of the bound.
bool isStableTerm(const Expr *T) {
  if (isa<CallExpr>(T) && !isa<CXXOperatorCallExpr>(T))
    return false;
  if (const auto *Unary = dyn_cast<UnaryOperator>(T);
      Unary && Unary->getOpcode() == UO_Deref)
    return false;
  if (isa<ArraySubscriptExpr>(T))
    return false;
  return llvm::all_of(T->children(), [](const Stmt *Child) {
    const auto *E = dyn_cast_or_null<Expr>(Child);
    return !E || isStableTerm(E);
  });
}

void variablesOf(const Stmt *S, llvm::SmallPtrSetImpl<const VarDecl *> &Out) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      Out.insert(Var);
  for (const Stmt *Child : S->children())
    variablesOf(Child, Out);
}

} // namespace

std::optional<CancellingLoop> asCancellingLoop(const ForStmt *For,
                                               const ASTContext &Context) {
  const ASTContext &Ctx = Context;
  if (!For || !For->getInit() || !For->getCond() || !For->getInc())
    return std::nullopt;

  // The induction variable and its start.
  const VarDecl *Induction = nullptr;
  const Expr *Start = nullptr;
  if (const auto *Decl = dyn_cast<DeclStmt>(For->getInit())) {
    if (!Decl->isSingleDecl())
      return std::nullopt;
    Induction = dyn_cast<VarDecl>(Decl->getSingleDecl());
    Start = Induction ? Induction->getInit() : nullptr;
  } else if (const auto *Assign = dyn_cast<BinaryOperator>(For->getInit());
             Assign && Assign->getOpcode() == BO_Assign) {
    Induction = varOf(Assign->getLHS());
    Start = Assign->getRHS();
  }
  if (!Induction || !Start || !Induction->getType()->isIntegerType())
    return std::nullopt;

  // The bound: V < Y + T (V on the left).
  const auto *Compare = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Compare ||
      (!Compare->isRelationalOp() && Compare->getOpcode() != BO_NE) ||
      varOf(Compare->getLHS()) != Induction)
    return std::nullopt;
  const Expr *Bound = Compare->getRHS();

  // The step.
  const Expr *Step = nullptr;
  const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(Inc)) {
    if (!Unary->isIncrementDecrementOp() || varOf(Unary->getSubExpr()) != Induction)
      return std::nullopt;
  } else if (const auto *Binary = dyn_cast<BinaryOperator>(Inc)) {
    if (varOf(Binary->getLHS()) != Induction)
      return std::nullopt;
    if (Binary->getOpcode() == BO_AddAssign || Binary->getOpcode() == BO_SubAssign) {
      Step = Binary->getRHS();
    } else if (Binary->getOpcode() == BO_Assign) {
      const auto *Sum = dyn_cast<BinaryOperator>(Binary->getRHS()->IgnoreParenImpCasts());
      if (!Sum || Sum->getOpcode() != BO_Add)
        return std::nullopt;
      if (varOf(Sum->getLHS()) == Induction)
        Step = Sum->getRHS();
      else if (varOf(Sum->getRHS()) == Induction)
        Step = Sum->getLHS();
      else
        return std::nullopt;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }

  // The addends the start and the bound share (as a multiset) cancel.
  llvm::SmallVector<const Expr *, 4> StartTerms;
  llvm::SmallVector<const Expr *, 4> BoundTerms;
  addendsOf(Start, StartTerms);
  addendsOf(Bound, BoundTerms);
  llvm::SmallVector<bool, 4> StartShared(StartTerms.size(), false);
  llvm::SmallVector<bool, 4> BoundShared(BoundTerms.size(), false);
  llvm::SmallPtrSet<const VarDecl *, 4> TermVars;
  const Expr *FirstShared = nullptr;
  for (unsigned I = 0; I < StartTerms.size(); ++I) {
    if (!isStableTerm(StartTerms[I]))
      continue;
    llvm::FoldingSetNodeID Term = profileOf(StartTerms[I], Ctx);
    for (unsigned J = 0; J < BoundTerms.size(); ++J) {
      if (BoundShared[J] || profileOf(BoundTerms[J], Ctx) != Term)
        continue;
      StartShared[I] = BoundShared[J] = true;
      variablesOf(StartTerms[I], TermVars);
      if (!FirstShared)
        FirstShared = StartTerms[I];
      break;
    }
  }
  if (!FirstShared)
    return std::nullopt;
  // Neither the induction variable (outside the step) nor the shared terms'
  // variables may change inside the loop.
  llvm::SmallPtrSet<const VarDecl *, 8> Assigned;
  collectAssigned(For->getBody(), Assigned);
  collectAssigned(For->getCond(), Assigned);
  if (Assigned.contains(Induction) || TermVars.contains(Induction) ||
      llvm::any_of(TermVars,
                   [&](const VarDecl *V) { return Assigned.contains(V); }))
    return std::nullopt;
  CancellingLoop Loop;
  Loop.SharedTerm = FirstShared;
  for (unsigned K = 0; K < StartTerms.size(); ++K)
    if (!StartShared[K])
      Loop.Deciding.push_back(StartTerms[K]);
  for (unsigned K = 0; K < BoundTerms.size(); ++K)
    if (!BoundShared[K])
      Loop.Deciding.push_back(BoundTerms[K]);
  if (Step)
    Loop.Deciding.push_back(Step);
  return Loop;
}

} // namespace clang::tidy::cuda::analysis
