//===--- AsyncCopies.cpp - asynchronous copies into memory, and their waits ===//
//
// The decide phase and the public face of the asynchronous-copy analysis;
// the collect and evaluate phases are AsyncCopiesCollect.cpp and
// AsyncCopiesEvaluate.cpp (AsyncCopiesImpl.h).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/protocols/AsyncCopies.h"
#include "checks/analysis/core/KernelWalk.h"
#include "checks/analysis/protocols/AsyncCopiesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace asynccopy;

void AsyncCopyAnalysis::Impl::run() {
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return;
  if (!collect())
    return;
  const FunctionDivergence *D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  Cfg = D->cfg();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));

  std::vector<const CFGBlock *> Order = blocksInProgramOrder(*Cfg);
  BlockFlows<State> Flows = solveForward<State>(
      *Cfg, Order,
      [&](const CFGBlock *Block, State &S) { transfer(Block, S, false); },
      [](State &Into, const State &From) {
        for (const Queue &Q : From)
          addQueue(Into, Q);
      },
      MaxRounds, State(1, Queue()));
  for (const CFGBlock *Block : Order)
    if (const std::optional<State> &In = Flows.In[Block->getBlockID()]) {
      State S = *In;
      transfer(Block, S, true);
    }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Early, [&](const EarlyAccess &L, const EarlyAccess &R) {
    return SM.isBeforeInTranslationUnit(L.Access->getBeginLoc(),
                                        R.Access->getBeginLoc());
  });
}

AsyncCopyAnalysis::AsyncCopyAnalysis(const FunctionDecl *FD, ASTContext &Ctx,
                                     FactQueries &Manager)
    : P(std::make_unique<Impl>(FD, Ctx, Manager)) {
  P->run();
}

AsyncCopyAnalysis::~AsyncCopyAnalysis() = default;

llvm::ArrayRef<AsyncCopy> AsyncCopyAnalysis::copies() const {
  return P->Copies;
}

llvm::ArrayRef<EarlyAccess> AsyncCopyAnalysis::earlyAccesses() const {
  return P->Early;
}

} // namespace clang::tidy::cuda::analysis
