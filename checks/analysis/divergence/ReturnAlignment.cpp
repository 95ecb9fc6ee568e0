//===--- ReturnAlignment.cpp - powers of two a small function's result keeps ===//

#include "checks/analysis/divergence/ReturnAlignment.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

namespace clang::tidy::cuda::analysis {

namespace {

constexpr unsigned ZeroAlign = 63;
/// How many helpers deep a call is followed (roundUp -> divUp is two).
constexpr unsigned MaxDepth = 4;

/// The returned expressions of a helper, and the parameters its body may
/// change (assigned, incremented, address taken, bound to a non-const
/// reference): a return reading one of those is not its argument.
struct HelperBody {
  llvm::SmallVector<const Expr *, 2> Returns;
  llvm::SmallPtrSet<const ParmVarDecl *, 2> Changed;
  bool Valid = true;
};

class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  HelperBody Result;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *Return) {
    if (!Return->getRetValue())
      Result.Valid = false;
    else
      Result.Returns.push_back(Return->getRetValue());
    return Result.Valid;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      note(Op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf)
      note(Op->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    if (Var->getType()->isReferenceType() &&
        !Var->getType().getNonReferenceType().isConstQualified() &&
        Var->getInit())
      note(Var->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    // Passed to a non-const reference: may be changed.
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      QualType T = Callee && I < Callee->getNumParams()
                       ? Callee->getParamDecl(I)->getType()
                       : QualType();
      if (T.isNull() || (T->isReferenceType() &&
                         !T.getNonReferenceType().isConstQualified()))
        note(Call->getArg(I));
    }
    return true;
  }

private:
  void note(const Expr *E) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
        Result.Changed.insert(Param);
  }
};

/// Small enough to read: a helper is a rounding or index function, not a
/// kernel-sized body.
constexpr unsigned MaxHelperStatements = 16;

std::optional<HelperBody> helperBody(const FunctionDecl *FD,
                                     const FunctionDecl *&Definition) {
  Definition = nullptr;
  if (!FD || !FD->hasBody(Definition) || !Definition)
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  if (!Body || Body->size() > MaxHelperStatements)
    return std::nullopt;
  BodyScan Scan;
  Scan.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (!Scan.Result.Valid || Scan.Result.Returns.empty())
    return std::nullopt;
  return std::move(Scan.Result);
}

class Evaluator {
public:
  Evaluator(const FunctionDecl *Function, llvm::ArrayRef<unsigned> Args,
            llvm::ArrayRef<std::optional<uint64_t>> Values,
            const ASTContext &Ctx, unsigned Depth)
      : Function(Function), Args(Args), Values(Values), Ctx(Ctx),
        Depth(Depth) {}

  /// \p E's value when it is a constant or a parameter bound to one.
  std::optional<uint64_t> value(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (E->getType()->isIntegerType() && !E->isValueDependent()) {
      Expr::EvalResult Result;
      if (E->EvaluateAsInt(Result, Ctx)) {
        if (Result.Val.getInt().isNegative())
          return std::nullopt;
        return Result.Val.getInt().getLimitedValue();
      }
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
          Param && isParameterOf(Param) && !Changed.contains(Param) &&
          Param->getFunctionScopeIndex() < Values.size())
        return Values[Param->getFunctionScopeIndex()];
    return std::nullopt;
  }

  unsigned align(const Expr *E) const {
    E = E->IgnoreParens();
    if (E->getType()->isIntegerType() && !E->isValueDependent()) {
      Expr::EvalResult Result;
      if (E->EvaluateAsInt(Result, Ctx)) {
        const llvm::APSInt &V = Result.Val.getInt();
        return V == 0 ? ZeroAlign : std::min<unsigned>(V.countr_zero(), 62);
      }
    }
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      // Narrowing keeps the low bits, so the factor too.
      if (Cast->getSubExpr()->getType()->isIntegerType() &&
          E->getType()->isIntegerType())
        return align(Cast->getSubExpr());
      return 0;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
        if (isParameterOf(Param) && !Changed.contains(Param))
          return Param->getFunctionScopeIndex() < Args.size()
                     ? Args[Param->getFunctionScopeIndex()]
                     : 0;
      return 0;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->getOpcode() == UO_Minus || Unary->getOpcode() == UO_Plus)
        return align(Unary->getSubExpr());
      return 0;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      unsigned L = align(Binary->getLHS());
      switch (Binary->getOpcode()) {
      case BO_Mul:
        return std::min(ZeroAlign, L + align(Binary->getRHS()));
      case BO_Add:
      case BO_Sub:
        return std::min(L, align(Binary->getRHS()));
      case BO_And:
        return std::max(L, align(Binary->getRHS()));
      case BO_Shl: {
        if (std::optional<uint64_t> Shift = value(Binary->getRHS());
            Shift && *Shift < 63)
          return std::min<unsigned>(ZeroAlign, L + *Shift);
        return L;
      }
      case BO_Comma:
        return align(Binary->getRHS());
      default:
        return 0;
      }
    }
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
      return std::min(align(Cond->getTrueExpr()), align(Cond->getFalseExpr()));
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (Depth + 1 >= MaxDepth || isa<CXXMemberCallExpr>(Call) ||
          isa<CXXOperatorCallExpr>(Call))
        return 0;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || Callee == Function)
        return 0;
      llvm::SmallVector<unsigned, 4> Inner;
      llvm::SmallVector<std::optional<uint64_t>, 4> InnerValues;
      for (const Expr *Arg : Call->arguments()) {
        Inner.push_back(align(Arg));
        InnerValues.push_back(value(Arg));
      }
      return evaluate(Callee, Inner, InnerValues, Ctx, Depth + 1);
    }
    return 0;
  }

  static unsigned evaluate(const FunctionDecl *Callee,
                           llvm::ArrayRef<unsigned> Args,
                           llvm::ArrayRef<std::optional<uint64_t>> Values,
                           const ASTContext &Ctx, unsigned Depth) {
    if (!Callee->getReturnType()->isIntegerType())
      return 0;
    const FunctionDecl *Definition = nullptr;
    std::optional<HelperBody> Body = helperBody(Callee, Definition);
    if (!Body)
      return 0;
    Evaluator E(Definition, Args, Values, Ctx, Depth);
    E.Changed = Body->Changed;
    // Every return: the result keeps what all of them keep
    // (`if (len == 0) return 0; return ((len - 1) / 32 + 1) * 32;`).
    unsigned Align = ZeroAlign;
    for (const Expr *Returned : Body->Returns)
      Align = std::min(Align, E.align(Returned));
    return Align;
  }

private:
  bool isParameterOf(const ParmVarDecl *Param) const {
    return llvm::is_contained(Function->parameters(), Param);
  }

public:
  llvm::SmallPtrSet<const ParmVarDecl *, 2> Changed;

private:
  const FunctionDecl *Function;
  llvm::ArrayRef<unsigned> Args;
  llvm::ArrayRef<std::optional<uint64_t>> Values;
  const ASTContext &Ctx;
  unsigned Depth;
};

} // namespace

unsigned returnAlignLog2(const FunctionDecl *Callee,
                         llvm::ArrayRef<unsigned> ArgAlignLog2,
                         llvm::ArrayRef<std::optional<uint64_t>> ArgValues,
                         const ASTContext &Ctx) {
  if (!Callee || Callee->isDependentContext())
    return 0;
  unsigned Align =
      Evaluator::evaluate(Callee, ArgAlignLog2, ArgValues, Ctx, 0);
  return Align >= ZeroAlign ? ZeroAlign : Align;
}

} // namespace clang::tidy::cuda::analysis
