//===--- WarpReductions.cpp - butterfly reductions over warp lanes --------===//

#include "checks/analysis/divergence/WarpReductions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {

namespace {

const VarDecl *varOf(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

bool isPowerOfTwo(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

/// `__shfl_xor_sync(mask, X, Offset[, width])`: the width, or nullopt.
std::optional<unsigned> xorShuffleOf(const Expr *E, const VarDecl *X,
                                     const VarDecl *Offset,
                                     const ASTContext &Ctx) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!Call || Call->getNumArgs() < 3)
    return std::nullopt;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "__shfl_xor_sync")
    return std::nullopt;
  if (varOf(Call->getArg(1)) != X || varOf(Call->getArg(2)) != Offset)
    return std::nullopt;
  if (Call->getNumArgs() < 4 || isa<CXXDefaultArgExpr>(Call->getArg(3)))
    return 32u;
  std::optional<int64_t> Width = constantOf(Call->getArg(3), Ctx);
  if (!Width || !isPowerOfTwo(*Width) || *Width > 32)
    return std::nullopt;
  return static_cast<unsigned>(*Width);
}

/// The one statement of the loop: `x op= shfl`, `x = x op shfl`,
/// `x = f(x, shfl)` (either order). Returns x and the width.
std::optional<ButterflyLoop> combineStep(const Stmt *S, const VarDecl *Offset,
                                         const ASTContext &Ctx) {
  if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    if (Block->size() != 1)
      return std::nullopt;
    S = Block->body_front();
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  const VarDecl *X = nullptr;
  const Expr *Combined = nullptr;
  bool Compound = false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (!Binary->isAssignmentOp())
      return std::nullopt;
    X = varOf(Binary->getLHS());
    Combined = Binary->getRHS();
    Compound = Binary->isCompoundAssignmentOp();
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (!Op->isAssignmentOp() || Op->getNumArgs() != 2)
      return std::nullopt;
    X = varOf(Op->getArg(0));
    Combined = Op->getArg(1);
    Compound = Op->getOperator() != OO_Equal;
  }
  if (!X || !Combined)
    return std::nullopt;
  if (Compound) {
    std::optional<unsigned> Width = xorShuffleOf(Combined, X, Offset, Ctx);
    if (!Width)
      return std::nullopt;
    return ButterflyLoop{X, *Width};
  }
  // x = x op shfl, x = f(x, shfl), either operand order.
  const Expr *Operands[2] = {nullptr, nullptr};
  const Expr *C = Combined->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(C)) {
    Operands[0] = Binary->getLHS();
    Operands[1] = Binary->getRHS();
  } else if (const auto *Call = dyn_cast<CallExpr>(C);
             Call && Call->getNumArgs() == 2) {
    Operands[0] = Call->getArg(0);
    Operands[1] = Call->getArg(1);
  } else {
    return std::nullopt;
  }
  for (int Self = 0; Self < 2; ++Self)
    if (varOf(Operands[Self]) == X)
      if (std::optional<unsigned> Width =
              xorShuffleOf(Operands[1 - Self], X, Offset, Ctx))
        return ButterflyLoop{X, *Width};
  return std::nullopt;
}

} // namespace

std::optional<ButterflyLoop> asButterflyLoop(const ForStmt *For,
                                             const ASTContext &Context) {
  const ASTContext &Ctx = Context;
  if (!For || !For->getInit() || !For->getCond() || !For->getInc() ||
      !For->getBody())
    return std::nullopt;
  const auto *Decl = dyn_cast<DeclStmt>(For->getInit());
  const auto *Offset =
      Decl && Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl())
                                   : nullptr;
  if (!Offset || !Offset->getInit())
    return std::nullopt;
  std::optional<int64_t> Start = constantOf(Offset->getInit(), Ctx);
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Start || !Cond || varOf(Cond->getLHS()) != Offset)
    return std::nullopt;
  std::optional<int64_t> Limit = constantOf(Cond->getRHS(), Ctx);
  if (!Limit)
    return std::nullopt;
  // The step halves or doubles the offset.
  const auto *Step = dyn_cast<BinaryOperator>(For->getInc()->IgnoreParenImpCasts());
  if (!Step || varOf(Step->getLHS()) != Offset)
    return std::nullopt;
  std::optional<int64_t> By = constantOf(Step->getRHS(), Ctx);
  bool Halves = By && ((Step->getOpcode() == BO_ShrAssign && *By == 1) ||
                       (Step->getOpcode() == BO_DivAssign && *By == 2));
  bool Doubles = By && ((Step->getOpcode() == BO_ShlAssign && *By == 1) ||
                        (Step->getOpcode() == BO_MulAssign && *By == 2));

  std::optional<ButterflyLoop> Loop = combineStep(For->getBody(), Offset, Ctx);
  if (!Loop)
    return std::nullopt;
  int64_t Width = Loop->Width;
  // Descending: o = W/2; o > 0 (or o >= 1). Ascending: o = 1; o < W (or
  // o <= W/2).
  bool Descending = Halves && *Start == Width / 2 &&
                    ((Cond->getOpcode() == BO_GT && *Limit == 0) ||
                     (Cond->getOpcode() == BO_GE && *Limit == 1));
  bool Ascending = Doubles && *Start == 1 &&
                   ((Cond->getOpcode() == BO_LT && *Limit == Width) ||
                    (Cond->getOpcode() == BO_LE && *Limit == Width / 2));
  if (!(Descending || Ascending) || Width < 2)
    return std::nullopt;
  return Loop;
}

} // namespace clang::tidy::cuda::analysis
