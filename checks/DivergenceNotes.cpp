//===--- DivergenceNotes.cpp - how warp/group checks explain divergence ---===//

#include "checks/DivergenceNotes.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/divergence/BlockExtentGuards.h"
#include "checks/analysis/api/CooperativeGroups.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::cuda {

using analysis::DivergenceKind;
using analysis::Level;
using analysis::OriginKind;

bool isDeviceCode(const FunctionDecl *FD) {
  if (FD->hasAttr<CUDAGlobalAttr>() || FD->hasAttr<CUDADeviceAttr>())
    return true;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
    return Method->getParent() && Method->getParent()->isLambda();
  return false;
}

std::string levelName(Level L) {
  if (L.isTile() && L != Level::warp())
    return "tile of " + std::to_string(1u << L.tileLog2Value()) + " threads";
  return analysis::scopeName(L.scope()).str();
}

std::string quoteSource(const Stmt *S, const ASTContext &Ctx,
                        llvm::StringRef Fallback, size_t MaxLength) {
  if (!S)
    return Fallback.str();
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Range.isInvalid())
    return Fallback.str();
  llvm::StringRef Text = Lexer::getSourceText(Range, SM, Ctx.getLangOpts());
  std::string OneLine;
  bool Space = false;
  for (char C : Text) {
    if (C == '\n' || C == '\r' || C == '\t' || C == ' ') {
      Space = !OneLine.empty();
      continue;
    }
    if (Space)
      OneLine += ' ';
    Space = false;
    OneLine += C;
  }
  if (OneLine.empty() || OneLine.size() > MaxLength)
    return Fallback.str();
  return OneLine;
}

static std::string calleeName(const Stmt *S) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee())
      return FD->getNameAsString();
  return "the call";
}

std::string quoteOrigin(const Stmt *Where, const ASTContext &Ctx) {
  return quoteSource(Where, Ctx, calleeName(Where) + "()");
}

std::string calleeDisplayName(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee))
    if (Method->getParent() && Method->getParent()->isLambda()) {
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
          return Ref->getDecl()->getNameAsString();
      return "lambda";
    }
  return Callee ? Callee->getNameAsString() : "the callee";
}

static const char *jumpName(const Stmt *Jump) {
  if (isa<ReturnStmt>(Jump))
    return "return";
  if (isa<BreakStmt>(Jump))
    return "break";
  if (isa<ContinueStmt>(Jump))
    return "continue";
  if (isa<CXXThrowExpr>(Jump))
    return "throw";
  return "goto";
}

static bool contains(const Stmt *Outer, const Stmt *Inner,
                     const SourceManager &SM) {
  if (!Outer || !Inner)
    return false;
  SourceRange O = Outer->getSourceRange();
  SourceRange I = Inner->getSourceRange();
  return !SM.isBeforeInTranslationUnit(I.getBegin(), O.getBegin()) &&
         !SM.isBeforeInTranslationUnit(O.getEnd(), I.getEnd());
}

void explainDivergence(ClangTidyCheck &Check,
                       const analysis::DivergenceReason &Reason,
                       llvm::StringRef Within, llvm::StringRef Skipped,
                       const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Reason.Condition)
    Check.diag(Reason.Condition->getBeginLoc(),
               "this condition is not uniform across the %0",
               DiagnosticIDs::Note)
        << Within;
  if (Reason.Exit)
    Check.diag(Reason.Exit->getBeginLoc(),
               "threads that take this '%0' skip %1", DiagnosticIDs::Note)
        << jumpName(Reason.Exit) << Skipped;

  const analysis::ValueOrigin &Origin = Reason.Origin;
  std::string Source;
  switch (Origin.Kind) {
  case OriginKind::HardwareIndex:
  case OriginKind::Intrinsic:
    Source = "'" + quoteOrigin(Origin.Where, Ctx) + "'";
    break;
  case OriginKind::AtomicResult:
  case OriginKind::CallResult:
    Source = "the result of '" + calleeName(Origin.Where) + "'";
    break;
  default:
    break;
  }

  // A group handle is not what diverges (the analysis may see it written
  // through `this` by a member call); its rank or size in the condition is,
  // and the condition note already points there.
  if (Reason.Via &&
      analysis::groupKindOfType(Reason.Via->getType().getNonReferenceType()))
    return;
  if (const ValueDecl *Via = Reason.Via) {
    auto Note = [&](llvm::StringRef Message) {
      return Check.diag(Via->getLocation(), Message, DiagnosticIDs::Note)
             << Via->getName();
    };
    switch (Origin.Kind) {
    case OriginKind::HardwareIndex:
    case OriginKind::Intrinsic:
    case OriginKind::AtomicResult:
    case OriginKind::CallResult:
      Note("'%0' depends on %1") << Source;
      return;
    case OriginKind::VolatileLoad:
      Note("'%0' depends on a volatile load");
      return;
    case OriginKind::SharedMemory:
      Note("'%0' is loaded from shared memory, which each block has its own "
           "copy of");
      return;
    case OriginKind::SyncDivergence:
      Note("'%0' is assigned under a condition that is not uniform across "
           "the %1")
          << Within;
      return;
    case OriginKind::TemporalDivergence:
      Note("'%0' is updated in a loop whose exit is not uniform across the "
           "%1")
          << Within;
      return;
    case OriginKind::InlineAsm:
      Note("'%0' is written by inline assembly");
      return;
    default:
      Note("'%0' is not uniform across the %1") << Within;
      return;
    }
  }
  if (!Source.empty() && Origin.Where &&
      !contains(Reason.Condition, Origin.Where, SM))
    Check.diag(Origin.Where->getBeginLoc(), "%0 is not uniform across the %1",
               DiagnosticIDs::Note)
        << Source << Within;
}

llvm::StringRef missingThreads(DivergenceKind Kind, llvm::StringRef Who) {
  // Who is "lanes" or "threads"; the phrases are fixed strings so that the
  // result can be streamed into a diagnostic without owning storage.
  bool Lanes = Who == "lanes";
  switch (Kind) {
  case DivergenceKind::Branch:
  case DivergenceKind::Switch:
    return Lanes ? "lanes that skipped this branch"
                 : "threads that skipped this branch";
  case DivergenceKind::EarlyExit:
  case DivergenceKind::Goto:
    return Lanes ? "lanes that left early" : "threads that left early";
  case DivergenceKind::LoopTripCount:
    return Lanes ? "lanes that left the loop" : "threads that left the loop";
  case DivergenceKind::ViaCall:
    return Lanes ? "lanes that did not make the call"
                 : "threads that did not make the call";
  }
  return Lanes ? "lanes that skipped this branch"
               : "threads that skipped this branch";
}

/// What the potential tier's messages add when only an unknown block width
/// makes threadIdx.y/z split a warp.
constexpr llvm::StringLiteral UnknownRowWidth =
    "; potential: the condition depends on threadIdx.y or .z, which is the "
    "same across a warp when blockDim.x is a multiple of 32, and no launch in "
    "this file shows the block's width";

std::string unanalyzedCalleeFact(analysis::AnalysisManager &Manager,
                                 const FunctionDecl *Function, const Stmt *Site,
                                 analysis::Level Within) {
  const FunctionDecl *Unanalyzed =
      Manager.divergesOnlyThroughUnanalyzedCallee(Function, Site, Within);
  if (!Unanalyzed)
    return "";
  return "; potential: the condition depends on what '" +
         Unanalyzed->getNameAsString() +
         "' may store through its arguments, and that function was not "
         "analyzed (it does not compile in this parse)";
}

std::string warpPotentialFact(analysis::AnalysisManager &Manager,
                              const FunctionDecl *Function, const Stmt *Site,
                              const analysis::DivergenceReason &Reason,
                              ASTContext &Ctx, analysis::Level Within,
                              llvm::StringRef Members) {
  if (Manager.divergesOnlyForUnknownRowWidth(Function, Site, Within))
    return UnknownRowWidth.str();
  if (std::string Unseen = unanalyzedCalleeFact(Manager, Function, Site, Within);
      !Unseen.empty())
    return Unseen;
  if (Reason.Kind != analysis::DivergenceKind::EarlyExit || !Reason.Function)
    return "";
  const analysis::FunctionDivergence *Exiting =
      Manager.divergence(Reason.Function);
  if (!Exiting || !Exiting->isAnalyzed())
    return "";
  std::optional<analysis::BlockExtentGuard> Guard = analysis::blockExtentGuard(
      Reason.Branch, Reason.Exit, *Exiting, Ctx);
  if (!Guard)
    return "";
  std::string Bound = analysis::boundSpelling(*Guard, Ctx);
  std::string Dim(1, Guard->Dimension);
  return ("; potential: only threads with threadIdx." + Dim +
          " at or beyond '" + Bound +
          "' return, so " + Members.str() +
          " leave only if the kernel is launched with a "
          "block wider than that in " +
          Dim + ", which the tool does not see here");
}


} // namespace clang::tidy::cuda
