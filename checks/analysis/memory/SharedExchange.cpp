//===--- SharedExchange.cpp - threads reading what others wrote -----------===//

#include "checks/analysis/memory/SharedExchange.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::analysis {

namespace {

/// One subscripted access to a __shared__ array.
struct SharedAccess {
  const VarDecl *Variable = nullptr;
  const ArraySubscriptExpr *Element = nullptr;
  SourceLocation Where;
  bool IsWrite = false;
};

bool isSharedVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasAttr<CUDASharedAttr>();
}

/// A local pointer into __shared__ memory: initialised from a __shared__
/// array, plus an offset (`float *bias = shared; float *w = shared + C;`,
/// the usual carving of one `extern __shared__` buffer). Accesses through
/// it are keyed by the pointer: each names its own part of the buffer.
bool pointsIntoShared(const VarDecl *Var) {
  if (!Var->hasLocalStorage() || !Var->getType()->isPointerType() ||
      !Var->getInit())
    return false;
  const Expr *Init = Var->getInit()->IgnoreParenImpCasts();
  if (const auto *Sum = dyn_cast<BinaryOperator>(Init);
      Sum && (Sum->getOpcode() == BO_Add || Sum->getOpcode() == BO_Sub))
    Init = Sum->getLHS()->IgnoreParenImpCasts();
  if (const auto *Address = dyn_cast<UnaryOperator>(Init);
      Address && Address->getOpcode() == UO_AddrOf)
    if (const auto *Element = dyn_cast<ArraySubscriptExpr>(
            Address->getSubExpr()->IgnoreParenImpCasts()))
      Init = Element->getBase();
  return isSharedVariable(Init);
}

/// The __shared__ array (or local pointer into one) an element access
/// names, through nested subscripts (`tile[y][x]`), or nullptr.
const VarDecl *sharedArrayOf(const ArraySubscriptExpr *Subscript) {
  const Expr *Base = Subscript->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(Base))
    Base = Inner->getBase()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return nullptr;
  return Var->hasAttr<CUDASharedAttr>() || pointsIntoShared(Var) ? Var
                                                                   : nullptr;
}

class AccessCollector : public RecursiveASTVisitor<AccessCollector> {
public:
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Subscript) {
    // The outermost subscript of a chain is the element; inner ones are
    // visited too and skipped here.
    if (const auto *Parent = Parents.lookup(Subscript);
        Parent && isa<ArraySubscriptExpr>(Parent) &&
        cast<ArraySubscriptExpr>(Parent)->getBase()->IgnoreParenImpCasts() ==
            Subscript)
      return true;
    if (const VarDecl *Var = sharedArrayOf(Subscript))
      Accesses.push_back(
          {Var, Subscript, Subscript->getBeginLoc(), Written.contains(Subscript)});
    return true;
  }
  bool VisitStmt(Stmt *S) {
    for (Stmt *Child : S->children())
      if (Child)
        Parents[Child] = S;
    auto MarkWritten = [&](const Expr *E) {
      if (const auto *Subscript =
              dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
        Written.insert(Subscript);
    };
    if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
      if (Binary->isAssignmentOp())
        MarkWritten(Binary->getLHS());
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
      // An increment writes; `&tile[i]` handed to an atomic writes too.
      if (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf)
        MarkWritten(Unary->getSubExpr());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
        MarkWritten(Op->getArg(0));
    }
    return true;
  }
  // Parents are recorded before children are visited (pre-order), so a
  // subscript knows whether it is an assignment's target when visited.
  llvm::DenseMap<const Stmt *, const Stmt *> Parents;
  llvm::DenseSet<const ArraySubscriptExpr *> Written;
  std::vector<SharedAccess> Accesses;
};

llvm::FoldingSetNodeID spelling(const Expr *Element, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID ID;
  Element->Profile(ID, Ctx, /*Canonical=*/true);
  return ID;
}

} // namespace

SharedAccesses::SharedAccesses(const FunctionDecl *Function,
                               ASTContext &Context)
    : Context(Context) {
  if (!Function || !Function->getBody())
    return;
  FunctionBegin = Function->getBeginLoc();
  AccessCollector Collector;
  Collector.TraverseStmt(Function->getBody());
  const SourceManager &SM = Context.getSourceManager();
  for (const SharedAccess &A : Collector.Accesses)
    Accesses.push_back(
        {A.Variable, spelling(A.Element, Context), A.Where, A.IsWrite});
  llvm::sort(Accesses, [&](const Access &L, const Access &R) {
    return SM.isBeforeInTranslationUnit(L.Where, R.Where);
  });
}

bool SharedAccesses::readsWrittenByOthers(const Stmt *Exit,
                                          const Stmt *Barrier) const {
  return readsWrittenByOthers(Exit ? Exit->getEndLoc() : FunctionBegin,
                              Barrier);
}

bool SharedAccesses::readsWrittenByOthers(SourceLocation From,
                                          const Stmt *Barrier) const {
  if (!Barrier || Accesses.empty())
    return false;
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation BarrierLoc = Barrier->getBeginLoc();
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Access *, 2>>
      Written;
  for (const Access &A : Accesses) {
    bool AfterBarrier = SM.isBeforeInTranslationUnit(BarrierLoc, A.Where);
    if (!AfterBarrier) {
      if (A.IsWrite && SM.isBeforeInTranslationUnit(From, A.Where))
        Written[A.Variable].push_back(&A);
      continue;
    }
    if (A.IsWrite)
      continue;
    auto It = Written.find(A.Variable);
    if (It == Written.end())
      continue;
    if (llvm::none_of(It->second, [&](const Access *W) {
          return W->Element == A.Element;
        }))
      return true;
  }
  return false;
}

} // namespace clang::tidy::cuda::analysis
