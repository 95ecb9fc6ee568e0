//===--- BlockExtentGuards.cpp - exits that only an oversized block takes -===//

#include "checks/analysis/divergence/BlockExtentGuards.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda::analysis {
namespace {

/// True when \p Inner is \p Outer or nested in it.
bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (!Outer || !Inner)
    return false;
  if (Outer == Inner)
    return true;
  return llvm::any_of(Outer->children(), [&](const Stmt *Child) {
    return contains(Child, Inner);
  });
}

/// True when \p Var may change after its initialisation.
bool isModified(const VarDecl *Var, const FunctionDecl *Function,
                ASTContext &Ctx) {
  if (Var->getType().isConstQualified())
    return false;
  if (!Function || !Function->getBody())
    return true;
  return ExprMutationAnalyzer(*Function->getBody(), Ctx).isMutated(Var);
}

/// threadIdx.D read directly, or through a local initialised to it that is
/// never modified afterwards: the dimension, and the local.
std::optional<std::pair<char, const ValueDecl *>>
plainThreadIndex(const Expr *E, const FunctionDecl *Function, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (auto Read = asBuiltinIndexRead(E))
    if (Read->Var == BuiltinIndexRead::ThreadIdx && Read->Component)
      return std::make_pair(Read->Component, nullptr);
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDecl() || !Var->getInit() || !Function ||
      !Function->getBody())
    return std::nullopt;
  auto Read = asBuiltinIndexRead(Var->getInit()->IgnoreParenImpCasts());
  if (!Read || Read->Var != BuiltinIndexRead::ThreadIdx || !Read->Component)
    return std::nullopt;
  if (isModified(Var, Function, Ctx))
    return std::nullopt;
  return std::make_pair(Read->Component, Var);
}

/// threadIdx.D in units of Scale threads: threadIdx.D itself (Scale 1), or
/// divided by a positive constant or shifted right by one (`threadIdx.x /
/// WARP_SIZE`, `threadIdx.x >> 5`: a warp index), read directly or through
/// an unmodified local initialised to it (`const int warp_id = ...`).
struct ScaledThreadIndex {
  char Dimension = 'x';
  const ValueDecl *Index = nullptr;
  uint64_t Scale = 1;
};

std::optional<ScaledThreadIndex>
scaledThreadIndex(const Expr *E, const FunctionDecl *Function,
                  ASTContext &Ctx) {
  if (auto Plain = plainThreadIndex(E, Function, Ctx))
    return ScaledThreadIndex{Plain->first, Plain->second, 1};
  E = E->IgnoreParenImpCasts();
  const VarDecl *Local = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->isLocalVarDecl() || !Var->getInit() ||
        isModified(Var, Function, Ctx))
      return std::nullopt;
    Local = Var;
    E = Var->getInit()->IgnoreParenImpCasts();
  }
  const auto *Quotient = dyn_cast<BinaryOperator>(E);
  if (!Quotient || (Quotient->getOpcode() != BO_Div &&
                    Quotient->getOpcode() != BO_Shr))
    return std::nullopt;
  auto Plain = plainThreadIndex(Quotient->getLHS(), Function, Ctx);
  Expr::EvalResult Divisor;
  if (!Plain || Quotient->getRHS()->isValueDependent() ||
      !Quotient->getRHS()->EvaluateAsInt(Divisor, Ctx))
    return std::nullopt;
  const llvm::APSInt &D = Divisor.Val.getInt();
  if (D.isNegative() || D.getActiveBits() > 31)
    return std::nullopt;
  uint64_t Scale = Quotient->getOpcode() == BO_Div
                       ? D.getZExtValue()
                       : static_cast<uint64_t>(1) << D.getZExtValue();
  if (Scale == 0)
    return std::nullopt;
  return ScaledThreadIndex{Plain->first, Local ? Local : Plain->second, Scale};
}

/// A bound written as a literal says the code trims the block on purpose.
/// A template argument is not one: in an instance it is a literal wrapped
/// in SubstNonTypeTemplateParmExpr, which IgnoreParenImpCasts would strip.
bool isLiteralBound(const Expr *E) {
  while (true) {
    if (const auto *Paren = dyn_cast<ParenExpr>(E))
      E = Paren->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else
      break;
  }
  return isa<IntegerLiteral>(E) || isa<CharacterLiteral>(E) ||
         isa<CXXBoolLiteralExpr>(E);
}

/// The if statement, in \p Body, whose condition holds \p Branch (the
/// condition's own terminator, or one operand's of a short-circuit
/// condition) and one of whose branches holds \p Exit.
const IfStmt *ifHolding(const Stmt *Body, const Stmt *Branch,
                        const Stmt *Exit) {
  if (!Body)
    return nullptr;
  if (const auto *If = dyn_cast<IfStmt>(Body);
      If && If->getCond() && contains(If->getCond(), Branch) &&
      (contains(If->getThen(), Exit) || contains(If->getElse(), Exit)))
    return If;
  for (const Stmt *Child : Body->children())
    if (const IfStmt *Found = ifHolding(Child, Branch, Exit))
      return Found;
  return nullptr;
}

/// \p Cond without its logical negations (each flips \p ExitWhenTrue),
/// parentheses and implicit casts; false when another unary operator is
/// outermost.
bool stripNegations(const Expr *&Cond, bool &ExitWhenTrue) {
  Cond = Cond->IgnoreParenImpCasts();
  while (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
    if (Not->getOpcode() != UO_LNot)
      return false;
    ExitWhenTrue = !ExitWhenTrue;
    Cond = Not->getSubExpr()->IgnoreParenImpCasts();
  }
  return true;
}

/// `Index Op Bound` as a guard whose true side (or false side, when
/// \p ExitWhenTrue is false) is the threads at or beyond the bound.
std::optional<BlockExtentGuard> guardComparison(const Expr *Cond,
                                                bool ExitWhenTrue,
                                                const FunctionDivergence &D,
                                                ASTContext &Ctx) {
  // !(a < b) is a >= b.
  if (!stripNegations(Cond, ExitWhenTrue))
    return std::nullopt;
  const auto *Compare = dyn_cast<BinaryOperator>(Cond);
  if (!Compare || !Compare->isRelationalOp())
    return std::nullopt;
  const FunctionDecl *Function = D.function();
  const Expr *Index = Compare->getLHS();
  const Expr *Bound = Compare->getRHS();
  BinaryOperatorKind Op = Compare->getOpcode();
  auto Scaled = scaledThreadIndex(Index, Function, Ctx);
  if (!Scaled) {
    std::swap(Index, Bound);
    Scaled = scaledThreadIndex(Index, Function, Ctx);
    if (!Scaled)
      return std::nullopt;
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  // Now `Index Op Bound`; the exit must be the side above the bound.
  bool AboveWhenTrue = Op == BO_GE || Op == BO_GT;
  if (AboveWhenTrue != ExitWhenTrue)
    return std::nullopt;
  if (isLiteralBound(Bound) || !D.uniformityOf(Bound).isUniformAt(Scope::Block))
    return std::nullopt;
  BlockExtentGuard Guard;
  Guard.Dimension = Scaled->Dimension;
  Guard.Bound = Bound;
  Guard.Index = Scaled->Index;
  Guard.Scale = Scaled->Scale;
  return Guard;
}

/// The operands of a chain of one short-circuit operator (`a || b || c`).
void chainOperands(const Expr *E, BinaryOperatorKind Op,
                   llvm::SmallVectorImpl<const Expr *> &Operands) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(E);
      Binary && Binary->getOpcode() == Op) {
    chainOperands(Binary->getLHS(), Op, Operands);
    chainOperands(Binary->getRHS(), Op, Operands);
    return;
  }
  Operands.push_back(E);
}

} // namespace

std::optional<BlockExtentGuard>
blockExtentGuard(const Stmt *Branch, const Stmt *Exit,
                 const FunctionDivergence &D, ASTContext &Ctx) {
  // In a __device__ function the bound is whatever a caller passes, a
  // literal as often as not: only a kernel's own bound speaks of the launch.
  const FunctionDecl *Function = D.function();
  if (!Function || !Function->hasAttr<CUDAGlobalAttr>() || !Branch || !Exit)
    return std::nullopt;
  const auto *If = dyn_cast<IfStmt>(Branch);
  if (!If)
    If = ifHolding(Function->getBody(), Branch, Exit);
  if (!If || !If->getCond() || If->getConditionVariable())
    return std::nullopt;
  bool ExitWhenTrue = contains(If->getThen(), Exit);
  if (!ExitWhenTrue && !contains(If->getElse(), Exit))
    return std::nullopt;
  const Expr *Cond = If->getCond();
  if (!stripNegations(Cond, ExitWhenTrue))
    return std::nullopt;
  // `guard || u` and `guard && u` with u the same for the whole block: u
  // makes every thread exit or none (or every thread the guard picks), so
  // the threads that leave alone are still the guard's (vllm's
  // `if (warp_id >= n_group || num_warps < n_group) return;`). Both
  // operators are monotone in each operand: the guard keeps its side.
  const auto *Chain = dyn_cast<BinaryOperator>(Cond);
  if (!Chain || !Chain->isLogicalOp())
    return guardComparison(Cond, ExitWhenTrue, D, Ctx);
  llvm::SmallVector<const Expr *, 4> Operands;
  chainOperands(Chain, Chain->getOpcode(), Operands);
  std::optional<BlockExtentGuard> Guard;
  for (const Expr *Operand : Operands) {
    if (D.uniformityOf(Operand).isUniformAt(Scope::Block))
      continue;
    if (Guard)
      return std::nullopt; // two thread-dependent operands
    Guard = guardComparison(Operand, ExitWhenTrue, D, Ctx);
    if (!Guard)
      return std::nullopt;
  }
  return Guard;
}

std::string boundSpelling(const BlockExtentGuard &Guard,
                          const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionRange(Guard.Bound->getSourceRange()).getAsRange());
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  if (Text.empty() || Text.size() > 60)
    return "the bound";
  // A guard on a warp index (`threadIdx.x / 32 >= n`) is on 32 * n threads.
  return Guard.Scale > 1 ? std::to_string(Guard.Scale) + " * " + Text.str()
                         : Text.str();
}

} // namespace clang::tidy::cuda::analysis
