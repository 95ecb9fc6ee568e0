//===--- ClusterExitSyncCheck.cpp - cuda-cluster-exit-sync ----------------===//

#include "checks/ClusterExitSyncCheck.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/protocols/ClusterExits.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

void ClusterExitSyncCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     this);
}

void ClusterExitSyncCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!Kernel || Kernel->isDependentContext() || !Kernel->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  analysis::AnalysisManager &Manager =
      analysis::AnalysisManager::forContext(Ctx, analysis::AnalysisOptions());
  analysis::ClusterExitAnalysis Exits(Kernel, Ctx, Manager);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const analysis::UnsyncedExit &Exit : Exits.unsyncedExits()) {
    const analysis::DsmemAccess &Access = Exits.accesses()[Exit.Access];
    SourceLocation Loc = SM.getExpansionLoc(Access.Where->getBeginLoc());
    if (!Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "access to another block's shared memory%select{| through "
              "'%1'}0 with no cluster barrier after it before the kernel "
              "exits%select{|: an arrive follows it, but no wait}2; the block "
              "that owns the memory may have exited (and its shared memory "
              "with it)")
        << (Access.Via ? 1 : 0) << (Access.Via ? Access.Via->getName() : "")
        << (Exit.ArriveOnly ? 1 : 0);
    if (Access.Via && Access.MappedBy)
      diag(SM.getExpansionLoc(Access.MappedBy->getBeginLoc()),
           "'%0' points into another block's shared memory, mapped here",
           DiagnosticIDs::Note)
          << Access.Via->getName();
    SourceLocation Leaves =
        Exit.Exit ? Exit.Exit->getBeginLoc() : Kernel->getBody()->getEndLoc();
    diag(SM.getExpansionLoc(Leaves),
         "the kernel exits here; a cluster.sync() before it keeps every block "
         "of the cluster until all are done",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::cuda
