//===--- CrossBlockSignals.cpp - data handed to other blocks, and its fences ===//
//
// The decide phase and the public face of the cross-block signal analysis;
// the collect and evaluate phases are CrossBlockSignalsCollect.cpp and
// CrossBlockSignalsEvaluate.cpp (CrossBlockSignalsImpl.h).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/CrossBlockSignals.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/core/KernelWalk.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/memory/CrossBlockSignalsImpl.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda::analysis {

using namespace crossblock;

llvm::StringRef memoryOrderName(MemoryOrder O) {
  switch (O) {
  case MemoryOrder::Relaxed:
    return "relaxed";
  case MemoryOrder::Consume:
    return "consume";
  case MemoryOrder::Acquire:
    return "acquire";
  case MemoryOrder::Release:
    return "release";
  case MemoryOrder::AcqRel:
    return "acq_rel";
  case MemoryOrder::SeqCst:
    return "seq_cst";
  }
  return "";
}

llvm::StringRef threadScopeName(ThreadScope S) {
  switch (S) {
  case ThreadScope::Thread:
    return "thread";
  case ThreadScope::Block:
    return "block";
  case ThreadScope::Device:
    return "device";
  case ThreadScope::System:
    return "system";
  }
  return "";
}

bool CrossBlockSignal::releases() const {
  return Scope >= ThreadScope::Device &&
         (Order == MemoryOrder::Release || Order == MemoryOrder::AcqRel ||
          Order == MemoryOrder::SeqCst);
}

bool CrossBlockSignal::acquires() const {
  return Scope >= ThreadScope::Device &&
         (Order == MemoryOrder::Acquire || Order == MemoryOrder::Consume ||
          Order == MemoryOrder::AcqRel || Order == MemoryOrder::SeqCst);
}

void CrossBlockSignalAnalysis::Impl::run() {
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return;
  // Most kernels use no global atomic, volatile flag or release assembly.
  struct Any : RecursiveASTVisitor<Any> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      llvm::StringRef Name = calleeName(Call);
      Found |= hasAtomicPrefix(Name) || isa<CXXMemberCallExpr>(Call);
      return !Found;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *) {
      Found = true;
      return false;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
      Found |= C->getCastKind() == CK_LValueToRValue &&
               C->getSubExpr()->getType().isVolatileQualified();
      return !Found;
    }
  } Look;
  Look.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  if (!Look.Found)
    return;
  D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  const CFG *Cfg = D->cfg();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));
  findAliases();
  findCandidates();
  findDerived();
  findWaits(*Cfg);
  if (Waits.empty())
    return;
  classify(*Cfg);
  if (Signals.empty())
    return;

  std::vector<const CFGBlock *> Order = blocksInProgramOrder(*Cfg);
  BlockFlows<Flow> Flows = solveForward<Flow>(
      *Cfg, Order,
      [&](const CFGBlock *Block, Flow &F) { transfer(Block, F, false); },
      [](Flow &Into, const Flow &From) {
        Into.Unfenced |= From.Unfenced;
        Into.NoBarrier |= From.NoBarrier;
        Into.Waited |= From.Waited;
        Into.Seen |= From.Seen;
        Into.Pending |= From.Pending;
      });
  for (const CFGBlock *Block : Order)
    if (const std::optional<Flow> &In = Flows.In[Block->getBlockID()]) {
      Flow F = *In;
      transfer(Block, F, true);
    }

  // Keep the stores another block reads after a wait, and the reads of
  // locations stored before a signal; one finding per pair.
  SourceOrder Before(Ctx.getSourceManager());
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> Merged;
  for (UnfencedRelease &U : Pending) {
    auto It = ReadAfterWait.find(Stores[U.Store].Base);
    if (It == ReadAfterWait.end())
      continue;
    U.Reader = static_cast<int>(It->second);
    auto [At, New] = Merged.try_emplace({U.Signal, U.Store},
                                        static_cast<unsigned>(Releases.size()));
    if (New) {
      Releases.push_back(U);
      continue;
    }
    Releases[At->second].MissingFence |= U.MissingFence;
    Releases[At->second].MissingBarrier |= U.MissingBarrier;
  }
  // Reads of what some signal publishes (stored before it, fenced or not).
  const llvm::DenseSet<const ValueDecl *> &StoredBefore = Published;
  llvm::DenseSet<unsigned> SeenRead;
  std::vector<UnacquiredRead> Kept;
  for (const UnacquiredRead &A : Acquires)
    if (StoredBefore.contains(Reads[A.Read].Base) &&
        SeenRead.insert(A.Read).second)
      Kept.push_back(A);
  Acquires = std::move(Kept);
  sortKeepingOrder(Releases, [&](const UnfencedRelease &L,
                                  const UnfencedRelease &R) {
    if (L.Signal != R.Signal)
      return Before(Signals[L.Signal].Where, Signals[R.Signal].Where);
    return Before(Stores[L.Store].Where, Stores[R.Store].Where);
  });
  sortKeepingOrder(Acquires, [&](const UnacquiredRead &L,
                                  const UnacquiredRead &R) {
    return Before(Reads[L.Read].Where, Reads[R.Read].Where);
  });
}

const Stmt *CrossBlockSignalAnalysis::fenceInsertionPoint(unsigned Signal) const {
  if (Signal >= P->Signals.size() || !P->Parents)
    return nullptr;
  const Stmt *S = P->Signals[Signal].Where;
  if (S->getBeginLoc().isMacroID())
    return nullptr;
  const Stmt *Child = S;
  for (const Stmt *Parent = P->Parents->getParent(S); Parent;
       Child = Parent, Parent = P->Parents->getParent(Parent)) {
    if (isa<CompoundStmt>(Parent))
      return Child->getBeginLoc().isMacroID() ? nullptr : Child;
    // A signal in a loop's condition runs on every trip: no one point.
    if (const auto *W = dyn_cast<WhileStmt>(Parent); W && W->getCond() == Child)
      return nullptr;
    if (const auto *Do = dyn_cast<DoStmt>(Parent); Do && Do->getCond() == Child)
      return nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Parent);
        For && (For->getCond() == Child || For->getInc() == Child))
      return nullptr;
    if (isa<IfStmt>(Parent) || isa<WhileStmt>(Parent) || isa<ForStmt>(Parent) ||
        isa<DoStmt>(Parent)) {
      const auto *If = dyn_cast<IfStmt>(Parent);
      if (If && If->getCond() == Child)
        continue; // before the if
      // A body that is one statement, not a block: no place for two.
      return nullptr;
    }
  }
  return nullptr;
}

CrossBlockSignalAnalysis::CrossBlockSignalAnalysis(const FunctionDecl *Kernel,
                                                   ASTContext &Ctx,
                                                   FactQueries &Manager)
    : P(std::make_unique<Impl>(Kernel, Ctx, Manager)) {
  P->run();
}

CrossBlockSignalAnalysis::~CrossBlockSignalAnalysis() = default;

llvm::ArrayRef<GlobalStore> CrossBlockSignalAnalysis::stores() const {
  return P->Stores;
}
llvm::ArrayRef<CrossBlockSignal> CrossBlockSignalAnalysis::signals() const {
  return P->Signals;
}
llvm::ArrayRef<DeviceFence> CrossBlockSignalAnalysis::fences() const {
  return P->Fences;
}
llvm::ArrayRef<SignalWait> CrossBlockSignalAnalysis::waits() const {
  return P->Waits;
}
llvm::ArrayRef<GlobalRead> CrossBlockSignalAnalysis::reads() const {
  return P->Reads;
}
llvm::ArrayRef<UnfencedRelease>
CrossBlockSignalAnalysis::unfencedReleases() const {
  return P->Releases;
}
llvm::ArrayRef<UnacquiredRead>
CrossBlockSignalAnalysis::unacquiredReads() const {
  return P->Acquires;
}

} // namespace clang::tidy::cuda::analysis