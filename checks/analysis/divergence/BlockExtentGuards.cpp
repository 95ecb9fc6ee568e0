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
  if (!Var->getType().isConstQualified() &&
      ExprMutationAnalyzer(*Function->getBody(), Ctx).isMutated(Var))
    return std::nullopt;
  return std::make_pair(Read->Component, Var);
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

} // namespace

std::optional<BlockExtentGuard>
blockExtentGuard(const Stmt *Branch, const Stmt *Exit,
                 const FunctionDivergence &D, ASTContext &Ctx) {
  const auto *If = dyn_cast_or_null<IfStmt>(Branch);
  if (!If || !Exit || !If->getCond() || If->getConditionVariable())
    return std::nullopt;
  bool ExitWhenTrue = contains(If->getThen(), Exit);
  if (!ExitWhenTrue && !contains(If->getElse(), Exit))
    return std::nullopt;
  const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
  // !(a < b) is a >= b.
  while (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
    if (Not->getOpcode() != UO_LNot)
      return std::nullopt;
    ExitWhenTrue = !ExitWhenTrue;
    Cond = Not->getSubExpr()->IgnoreParenImpCasts();
  }
  const auto *Compare = dyn_cast<BinaryOperator>(Cond);
  if (!Compare || !Compare->isRelationalOp())
    return std::nullopt;
  // In a __device__ function the bound is whatever a caller passes, a
  // literal as often as not: only a kernel's own bound speaks of the launch.
  const FunctionDecl *Function = D.function();
  if (!Function || !Function->hasAttr<CUDAGlobalAttr>())
    return std::nullopt;
  const Expr *Index = Compare->getLHS();
  const Expr *Bound = Compare->getRHS();
  BinaryOperatorKind Op = Compare->getOpcode();
  auto Plain = plainThreadIndex(Index, Function, Ctx);
  if (!Plain) {
    std::swap(Index, Bound);
    Plain = plainThreadIndex(Index, Function, Ctx);
    if (!Plain)
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
  Guard.Dimension = Plain->first;
  Guard.Bound = Bound;
  Guard.Index = Plain->second;
  return Guard;
}

std::string boundSpelling(const BlockExtentGuard &Guard,
                          const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionRange(Guard.Bound->getSourceRange()).getAsRange());
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  return Text.empty() || Text.size() > 60 ? "the bound" : Text.str();
}

} // namespace clang::tidy::cuda::analysis
