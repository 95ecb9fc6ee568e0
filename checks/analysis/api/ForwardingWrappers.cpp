//===--- ForwardingWrappers.cpp - helpers that only pass a call on --------===//

#include "checks/analysis/api/ForwardingWrappers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {

namespace {

constexpr unsigned MaxWrapperDepth = 4;

/// \p E without parentheses, implicit and explicit casts and temporaries.
const Expr *withoutCasts(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = Temporary->getSubExpr();
      continue;
    }
    if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = Bind->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}

/// A call that is neither a member call nor an operator: the wrappers and
/// the intrinsics they wrap are free functions (or static members).
bool isPlainCall(const CallExpr *Call) {
  return !isa<CXXMemberCallExpr>(Call) && !isa<CXXOperatorCallExpr>(Call) &&
         !isa<CUDAKernelCallExpr>(Call);
}

/// The call \p Wrapper's body consists of returning, or nullptr.
const CallExpr *returnedCall(const FunctionDecl *Wrapper) {
  const FunctionDecl *Definition = nullptr;
  if (!Wrapper->hasBody(Definition) || Definition->isDependentContext())
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  if (!Body)
    return nullptr;
  const ReturnStmt *Return = nullptr;
  for (const Stmt *S : Body->body()) {
    if (isa<NullStmt>(S))
      continue;
    if (Return)
      return nullptr;
    Return = dyn_cast<ReturnStmt>(S);
    if (!Return)
      return nullptr;
  }
  if (!Return || !Return->getRetValue())
    return nullptr;
  const auto *Inner = dyn_cast<CallExpr>(withoutCasts(Return->getRetValue()));
  return Inner && isPlainCall(Inner) && Inner->getDirectCallee() ? Inner
                                                                 : nullptr;
}

/// What \p Operand, an argument of a call in \p Wrapper's body, is at
/// \p Call: the argument (or default) \p Call passes for the parameter it
/// names, or the operand itself when it is a constant; nullptr otherwise.
const Expr *spelledAtCall(const Expr *Operand, const FunctionDecl *Wrapper,
                          const CallExpr *Call) {
  if (!Operand)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(withoutCasts(Operand)))
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl())) {
      const auto *Owner = dyn_cast<FunctionDecl>(Param->getDeclContext());
      if (!Owner || Owner->getCanonicalDecl() != Wrapper->getCanonicalDecl())
        return nullptr;
      unsigned Index = Param->getFunctionScopeIndex();
      return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
    }
  if (!Operand->isValueDependent() && !Operand->isTypeDependent() &&
      Operand->isIntegerConstantExpr(Wrapper->getASTContext()))
    return Operand;
  return nullptr;
}

bool isForwardableRule(ResultRule Rule) {
  switch (Rule) {
  case ResultRule::ShuffleIndexed:
  case ResultRule::ShuffleRelative:
  case ResultRule::WarpCollective:
  case ResultRule::FirstArgument:
    return true;
  case ResultRule::Fixed:
  case ResultRule::Atomic:
  case ResultRule::GroupHandle:
    return false;
  }
  return false;
}

std::optional<ForwardedCall> forwarded(const CallExpr *Call,
                                       bool AssumeWarpAlignedRows,
                                       unsigned Depth) {
  const FunctionDecl *Wrapper = Call->getDirectCallee();
  if (!Wrapper || Depth >= MaxWrapperDepth || !isPlainCall(Call))
    return std::nullopt;
  const CallExpr *Inner = returnedCall(Wrapper);
  if (!Inner)
    return std::nullopt;
  // The operands of the API call, as the wrapper's body spells them.
  ForwardedCall Found;
  llvm::SmallVector<const Expr *, 4> InWrapper;
  if (std::optional<ResultModel> Model =
          knownResultModel(Inner, AssumeWarpAlignedRows)) {
    Found.Inner = Inner;
    Found.Model = *Model;
    InWrapper.assign(Inner->arg_begin(), Inner->arg_end());
  } else if (std::optional<ForwardedCall> Deeper =
                 forwarded(Inner, AssumeWarpAlignedRows, Depth + 1)) {
    Found = std::move(*Deeper);
    InWrapper = Found.Args;
  } else {
    return std::nullopt;
  }
  if (!isForwardableRule(Found.Model.Rule))
    return std::nullopt;
  Found.Args.clear();
  for (const Expr *Operand : InWrapper)
    Found.Args.push_back(spelledAtCall(Operand, Wrapper, Call));
  // Every operand the model reads must be known at the call.
  for (int Index : {Found.Model.ValueArg, Found.Model.SourceArg,
                    Found.Model.WidthArg, Found.Model.MaskArg})
    if (Index >= 0 && (static_cast<unsigned>(Index) >= Found.Args.size() ||
                       !Found.Args[Index]))
      return std::nullopt;
  if (Found.Model.Rule == ResultRule::FirstArgument &&
      (Found.Args.empty() || !Found.Args[0]))
    return std::nullopt;
  return Found;
}

} // namespace

std::optional<ForwardedCall> forwardedResultModel(const CallExpr *Call,
                                                  bool AssumeWarpAlignedRows) {
  if (knownResultModel(Call, AssumeWarpAlignedRows))
    return std::nullopt;
  return forwarded(Call, AssumeWarpAlignedRows, 0);
}

} // namespace clang::tidy::cuda::analysis
