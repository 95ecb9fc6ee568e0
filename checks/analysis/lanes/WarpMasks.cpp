//===--- WarpMasks.cpp - the lane masks warp intrinsics are called with ---===//

#include "checks/analysis/lanes/WarpMasks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::cuda::analysis {

namespace {

llvm::APSInt convertTo(llvm::APSInt V, QualType To, const ASTContext &Ctx) {
  V = V.extOrTrunc(Ctx.getIntWidth(To));
  V.setIsUnsigned(To->isUnsignedIntegerOrEnumerationType());
  return V;
}

} // namespace

std::optional<llvm::APSInt> MaskEvaluator::value(const Expr *E,
                                                 unsigned Depth) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegerType())
    return std::nullopt;
  Expr::EvalResult Result;
  if (E->EvaluateAsInt(Result, Ctx))
    return Result.Val.getInt();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_IntegralCast:
    case CK_NoOp:
    case CK_LValueToRValue:
      if (auto V = value(Cast->getSubExpr(), Depth + 1))
        return convertTo(*V, E->getType(), Ctx);
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl() ||
        Var->getType()->isReferenceType() || !Var->getInit() ||
        Var->getParentFunctionOrMethod() != FD || isMutated(Var))
      return std::nullopt;
    if (auto V = value(Var->getInit(), Depth + 1))
      return convertTo(*V, Var->getType(), Ctx);
  }
  return std::nullopt;
}

bool MaskEvaluator::isMutated(const VarDecl *Var) {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return true;
  if (!Analyzer)
    Analyzer.emplace(*Body, Ctx);
  return Analyzer->isMutated(Var);
}

bool isFullWarpMask(const llvm::APSInt &Value) {
  // The argument expression includes the conversion to the 32-bit unsigned
  // parameter, so a wider constant has been narrowed already.
  return Value.getBitWidth() >= 32 && Value.trunc(32).isAllOnes();
}

std::optional<unsigned> maskParameter(const Expr *Mask, const FunctionDecl *FD,
                                      ASTContext &Ctx) {
  if (!Mask || !FD || !FD->getBody())
    return std::nullopt;
  // Integer conversions on the way keep the low 32 bits the intrinsic reads:
  // the bound argument is judged by those bits (isFullWarpMask).
  const Expr *E = Mask->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getType()->isReferenceType() ||
      !Param->getType()->isIntegerType())
    return std::nullopt;
  unsigned Index = Param->getFunctionScopeIndex();
  if (Index >= FD->getNumParams() || FD->getParamDecl(Index) != Param)
    return std::nullopt;
  ExprMutationAnalyzer Mutations(*FD->getBody(), Ctx);
  if (Mutations.isMutated(Param))
    return std::nullopt;
  return Index;
}

const Expr *boundArgument(const CallExpr *Call, unsigned Index) {
  if (!Call || isa<CXXOperatorCallExpr>(Call) || Index >= Call->getNumArgs())
    return nullptr;
  const Expr *Arg = Call->getArg(Index);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
    return Default->getExpr();
  return Arg;
}

} // namespace clang::tidy::cuda::analysis
