//===--- MissingFenceCheck.cpp - cuda-missing-fence -----------------------===//

#include "checks/MissingFenceCheck.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/memory/CrossBlockSignals.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

namespace {

std::string signalText(const analysis::CrossBlockSignal &Sig) {
  std::string Text = "'" + Sig.Name + "'";
  if (Sig.Base)
    Text += " on '" + Sig.Base->getNameAsString() + "'";
  if (Sig.K == analysis::CrossBlockSignal::AtomicRef)
    Text += " (" + analysis::memoryOrderName(Sig.Order).str() + ")";
  return Text;
}

} // namespace

void MissingFenceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void MissingFenceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!Kernel || Kernel->isDependentContext() || !Kernel->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  analysis::AnalysisManager &Manager =
      analysis::AnalysisManager::forContext(Ctx, analysis::AnalysisOptions());
  analysis::CrossBlockSignalAnalysis A(Kernel, Ctx, Manager);
  const SourceManager &SM = Ctx.getSourceManager();
  auto Loc = [&](const Stmt *S) { return SM.getExpansionLoc(S->getBeginLoc()); };

  // Release side: one warning per signal, naming the first unordered store.
  llvm::DenseSet<unsigned> SignalDone;
  for (const analysis::UnfencedRelease &U : A.unfencedReleases()) {
    if (!SignalDone.insert(U.Signal).second)
      continue;
    const analysis::CrossBlockSignal &Sig = A.signals()[U.Signal];
    const analysis::GlobalStore &Store = A.stores()[U.Store];
    SourceLocation At = Loc(Sig.Where);
    if (!Reported.insert(At.getRawEncoding()).second)
      continue;
    unsigned Missing = U.MissingFence ? (U.MissingBarrier ? 2 : 0) : 1;
    {
      auto D = diag(At, "signal to other blocks (%0) with %select{no "
                        "device-scope fence|no __syncthreads()|neither a "
                        "__syncthreads() nor a device-scope fence}1 after "
                        "the global store to '%2'%select{| by other threads "
                        "of the block}3; a block that sees the signal may "
                        "read stale data")
               << signalText(Sig) << Missing
               << Store.Base->getNameAsString() << (U.MissingBarrier ? 1 : 0);
      if (U.MissingFence && !U.MissingBarrier)
        if (const Stmt *Point = A.fenceInsertionPoint(U.Signal)) {
          SourceLocation Begin = Point->getBeginLoc();
          StringRef Indent = Lexer::getIndentationForLine(Begin, SM);
          D << FixItHint::CreateInsertion(
              Begin, ("__threadfence();\n" + Indent).str());
        }
    }
    diag(Loc(Store.Where), "the global store to '%0' is here",
         DiagnosticIDs::Note)
        << Store.Base->getNameAsString();
    if (U.Reader >= 0)
      diag(Loc(A.reads()[U.Reader].Where),
           "'%0' is read here after a branch on the signal",
           DiagnosticIDs::Note)
          << A.reads()[U.Reader].Base->getNameAsString();
  }

  // Acquire side.
  for (const analysis::UnacquiredRead &R : A.unacquiredReads()) {
    const analysis::GlobalRead &Read = A.reads()[R.Read];
    const analysis::SignalWait &Wait = A.waits()[R.Wait];
    SourceLocation At = Loc(Read.Where);
    if (!Reported.insert(At.getRawEncoding()).second)
      continue;
    diag(At, "read of '%0', which other blocks wrote, after a branch on "
             "%select{a signal|the signal %2}1 with no device-scope fence "
             "between; it may see stale data (add __threadfence() after the "
             "branch, or read it volatile, with __ldcg() or an acquire load)")
        << Read.Base->getNameAsString() << (Wait.Signal >= 0 ? 1 : 0)
        << (Wait.Signal >= 0 ? signalText(A.signals()[Wait.Signal])
                             : std::string());
    diag(Loc(Wait.Where), "the branch on %select{the value of '%1'|the "
                          "signal}0 is here",
         DiagnosticIDs::Note)
        << (Wait.Signal >= 0 ? 1 : 0)
        << (Wait.Base ? Wait.Base->getNameAsString() : std::string("?"));
  }
}

} // namespace clang::tidy::cuda
