//===--- SharedMemoryRaceCheck.cpp - cuda-shared-memory-race --------------===//

#include "checks/SharedMemoryRaceCheck.h"
#include "checks/DivergenceNotes.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/memory/SharedAccesses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"


using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::SharedAccess;
using analysis::SharedConflict;
using analysis::ThreadCoord;

namespace {

llvm::StringRef verb(const SharedAccess &A) {
  switch (A.K) {
  case SharedAccess::Read:
    return "reads";
  case SharedAccess::Write:
    return "writes";
  case SharedAccess::ReadWrite:
    return "updates";
  case SharedAccess::Atomic:
    return "atomically updates";
  }
  return "reads";
}

llvm::StringRef noun(const SharedAccess &A) {
  switch (A.K) {
  case SharedAccess::Read:
    return "read";
  case SharedAccess::Write:
    return "write";
  case SharedAccess::ReadWrite:
    return "update";
  case SharedAccess::Atomic:
    return "atomic update";
  }
  return "read";
}

} // namespace

void SharedMemoryRaceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void SharedMemoryRaceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!Kernel || Kernel->isDependentContext() || !Kernel->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  llvm::ArrayRef<analysis::SharedAccessSite> Sites =
      analysis::AnalysisManager::forContext(Ctx, analysis::AnalysisOptions())
          .sharedAccessSites(Kernel, analysis::Scope::Block);
  // The kernel's own accesses, then call-site context: each device function
  // the kernel passes an array to.
  for (const analysis::SharedAccessSite &Site : Sites)
    report(*Site.Accesses, *Site.Divergence, *Sites.front().Divergence, Kernel,
           Site.Call, Ctx);
}

void SharedMemoryRaceCheck::report(
    const analysis::SharedAccessAnalysis &Accesses,
    const analysis::FunctionDivergence &Div,
    const analysis::FunctionDivergence &KernelD, const FunctionDecl *Kernel,
    const CallExpr *Call, ASTContext &Ctx) {
  const analysis::FunctionDivergence *D = &Div;
  const SourceManager &SM = Ctx.getSourceManager();

  // A store of a block-uniform value that no thread-dependent branch
  // guards: every thread writes the same value, which no reader can miss.
  // (In a callee analyzed for a call site, the value and the control must
  // not depend on its parameters either: the callee's own analysis takes
  // them as uniform.)
  auto BenignStore = [&](const SharedAccess &A) {
    if (A.K != SharedAccess::Write || !A.Stored)
      return false;
    analysis::Uniformity Value = D->uniformityOf(A.Stored);
    analysis::Uniformity Control = D->controlUniformity(A.Where);
    return Value.isUniformAt(analysis::Scope::Block) &&
           Control.isUniformAt(analysis::Scope::Block) &&
           (!Call || (!Value.dependsOnSymbols() && !Control.dependsOnSymbols()));
  };

  for (const analysis::SharedAccessGroup &Group : Accesses.groups()) {
    const std::vector<const SharedAccess *> &Members = Group.Members;
    struct Pair {
      const SharedAccess *First;
      const SharedAccess *Second;
      SharedConflict Witness;
    };
    std::vector<Pair> Pairs;
    for (size_t I = 0; I < Members.size(); ++I)
      for (size_t J = I; J < Members.size(); ++J) {
        const SharedAccess *A = Members[I];
        const SharedAccess *B = Members[J];
        if ((A->writes() && BenignStore(*A) && (!B->writes() || BenignStore(*B))) ||
            (B->writes() && BenignStore(*B) && !A->writes()))
          continue;
        std::optional<SharedConflict> Witness = Accesses.conflict(*A, *B);
        if (!Witness || !Witness->CrossWarp)
          continue;
        Pairs.push_back({A, B, *Witness});
      }
    if (Pairs.empty())
      continue;
    const Pair &Shown = Pairs.front();
    SourceLocation Loc = SM.getExpansionLoc(Shown.Second->Where->getBeginLoc());
    if (!Reported.insert(Loc.getRawEncoding()).second)
      continue;
    // One barrier fixes the group when one point separates every pair.
    const Stmt *Point = Accesses.separatingPoint(*Shown.First, *Shown.Second);
    for (const Pair &Other : Pairs)
      if (Point &&
          Accesses.separatingPoint(*Other.First, *Other.Second) != Point)
        Point = nullptr;
    std::optional<FixItHint> Fix;
    // In a callee, a barrier is right only when the call is made by every
    // thread of the block together.
    if (Call && KernelD.divergenceAt(Call, analysis::Scope::Block))
      Point = nullptr;
    if (Point && Point->getBeginLoc().isFileID()) {
      std::string Text = "__syncthreads();";
      StringRef Indent = Lexer::getIndentationForLine(Point->getBeginLoc(), SM);
      bool StartsLine = SM.getSpellingColumnNumber(Point->getBeginLoc()) ==
                        Indent.size() + 1;
      Text += StartsLine ? "\n" + Indent.str() : " ";
      Fix = FixItHint::CreateInsertion(Point->getBeginLoc(), Text);
    }
    ThreadCoord Shape = Accesses.blockShape();
    std::string More;
    if (Pairs.size() > 1)
      More = " (" + std::to_string(Pairs.size()) +
             " conflicting pairs of accesses to '" +
             Group.Var->getName().str() + "' in this barrier interval)";
    {
      // The warning is emitted when its builder goes, before its notes.
      auto Warning =
          diag(Loc, "data race on __shared__ '%0': %1 %2 %3 while %4 %5 it, "
                    "with no block barrier between the two accesses%6%7");
      Warning << Group.Var->getName()
              << analysis::threadName(Shown.Witness.Second, Shape) << verb(*Shown.Second)
              << Shown.Witness.Cell << analysis::threadName(Shown.Witness.First, Shape)
              << verb(*Shown.First)
              << (Shown.Witness.AcrossIterations
                      ? " (in different iterations of the loop: it has no "
                        "barrier on its way back)"
                      : "")
              << More;
      if (Fix)
        Warning << *Fix;
    }
    if (Point)
      diag(SM.getExpansionLoc(Point->getBeginLoc()),
           "a __syncthreads() before this statement orders every pair",
           DiagnosticIDs::Note);
    if (Shown.First != Shown.Second)
      diag(SM.getExpansionLoc(Shown.First->Where->getBeginLoc()),
           "the conflicting %0", DiagnosticIDs::Note)
          << noun(*Shown.First);
    diag(Kernel->getLocation(),
         "in a block of %0 x %1 x %2 threads; a __syncthreads() between the "
         "accesses orders them",
         DiagnosticIDs::Note)
        << Shape[0] << Shape[1] << Shape[2];
    if (Call)
      diag(SM.getExpansionLoc(Call->getBeginLoc()),
           "'%0' accesses '%1' through its parameter, for the threads that "
           "make this call",
           DiagnosticIDs::Note)
          << Call->getDirectCallee()->getName() << Group.Var->getName();
  }
}

} // namespace clang::tidy::cuda
