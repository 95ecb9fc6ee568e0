//===--- MemcpyAsyncWaitCheck.cpp - cuda-memcpy-async-wait ----------------===//

#include "checks/MemcpyAsyncWaitCheck.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/protocols/AsyncCopies.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::AsyncCopy;
using analysis::AsyncCopyApi;
using analysis::EarlyAccess;

namespace {

/// How to wait for a copy of this API, for the note at the copy.
const char *howToWait(AsyncCopyApi Api) {
  switch (Api) {
  case AsyncCopyApi::CooperativeGroups:
    return "cooperative_groups::wait(group) or wait_prior<N>(group)";
  case AsyncCopyApi::CudaPipeline:
    return "producer_commit() then consumer_wait() on the pipeline";
  case AsyncCopyApi::CudaBarrier:
    return "arrive_and_wait() on the barrier";
  case AsyncCopyApi::Primitive:
    return "__pipeline_commit() then __pipeline_wait_prior(0)";
  }
  return "a wait";
}

} // namespace

void MemcpyAsyncWaitCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                   unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

void MemcpyAsyncWaitCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || Function->isDependentContext() || !Function->getBody())
    return;
  ASTContext &Ctx = *Result.Context;
  analysis::AnalysisManager &Manager =
      analysis::AnalysisManager::forContext(Ctx, analysis::AnalysisOptions());
  analysis::AsyncCopyAnalysis Copies(Function, Ctx, Manager);
  if (Copies.copies().empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();

  for (const EarlyAccess &Early : Copies.earlyAccesses()) {
    const AsyncCopy &Copy = Copies.copies()[Early.Copy];
    SourceLocation Loc = SM.getExpansionLoc(Early.Access->getBeginLoc());
    if (!Reported.insert(Loc.getRawEncoding()).second)
      continue;
    unsigned Verb = Early.Writes ? 1 : 0;
    switch (Early.Why) {
    case EarlyAccess::NoWait:
      diag(Loc, "%select{read|write}0 of '%1' while the %2 into it may still "
                "be in flight: no wait completes the copy on a path from it "
                "to here")
          << Verb << Early.Buffer->getName() << Copy.Spelling;
      break;
    case EarlyAccess::LeftInFlight:
      diag(Loc, "%select{read|write}0 of '%1' while the %2 into it may still "
                "be in flight: the wait before it completes older stages and "
                "leaves this copy's stage in flight")
          << Verb << Early.Buffer->getName() << Copy.Spelling;
      break;
    case EarlyAccess::OtherThreads:
      diag(Loc, "%select{read|write}0 of '%1' may touch a cell another thread "
                "copied: the wait completes only this thread's copies, and no "
                "block barrier follows it")
          << Verb << Early.Buffer->getName();
      break;
    }
    diag(SM.getExpansionLoc(Copy.Call->getBeginLoc()),
         "the copy into '%0'; it is complete after %1", DiagnosticIDs::Note)
        << Early.Buffer->getName() << howToWait(Copy.Api);
    if (Early.Wait && Early.Why == EarlyAccess::LeftInFlight)
      diag(SM.getExpansionLoc(Early.Wait->getBeginLoc()),
           "this wait leaves the newest stages in flight (a wait on N keeps "
           "the last N)",
           DiagnosticIDs::Note);
    if (Early.Wait && Early.Why == EarlyAccess::OtherThreads)
      diag(SM.getExpansionLoc(Early.Wait->getBeginLoc()),
           "a __syncthreads() after this wait makes every thread's copies "
           "visible",
           DiagnosticIDs::Note);
  }

  for (const AsyncCopy &Copy : Copies.copies()) {
    const bool Destination =
        Copy.DestinationMisalignment && *Copy.DestinationMisalignment != 0;
    const bool Source = Copy.SourceMisalignment && *Copy.SourceMisalignment != 0;
    if (!Destination && !Source)
      continue;
    SourceLocation Loc = SM.getExpansionLoc(
        (Destination ? Copy.Destination : Copy.Source)->getBeginLoc());
    if (!Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "cuda::aligned_size_t<%0> promises %0-byte aligned pointers, but "
              "the %select{destination|source}1 is %2 bytes past a %0-byte "
              "boundary: the copy is undefined")
        << Copy.PromisedAlignment << (Destination ? 0 : 1)
        << (Destination ? *Copy.DestinationMisalignment
                        : *Copy.SourceMisalignment);
  }
}

} // namespace clang::tidy::cuda
