//===--- ClusterExits.cpp - distributed shared memory and the kernel's exit ===//

#include "checks/analysis/protocols/ClusterExits.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/core/KernelWalk.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <vector>

namespace clang::tidy::cuda::analysis {

bool isSharedRankMapping(const CallExpr *Call) {
  return Call && isClusterSharedRankMapping(Call->getDirectCallee());
}

namespace {

/// The part of an inline-assembly statement: `barrier.cluster.arrive` and
/// `barrier.cluster.wait` (CUTLASS's cluster_arrive / cluster_wait).
ClusterBarrierPart asmPart(const GCCAsmStmt *Asm) {
  const auto *Text =
      dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
  if (!Text)
    return ClusterBarrierPart::None;
  llvm::StringRef S = Text->getString();
  bool Arrive = S.contains("barrier.cluster.arrive");
  bool Wait = S.contains("barrier.cluster.wait");
  if (Arrive && Wait)
    return ClusterBarrierPart::Sync;
  if (Arrive)
    return ClusterBarrierPart::Arrive;
  if (Wait)
    return ClusterBarrierPart::Wait;
  return ClusterBarrierPart::None;
}

} // namespace

ClusterBarrierPart clusterBarrierPart(const Stmt *S) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return asmPart(Asm);
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call)
    return ClusterBarrierPart::None;
  if (std::optional<BarrierPart> Ptx =
          ptxClusterBarrierPart(Call->getDirectCallee()))
    return *Ptx == BarrierPart::Arrive ? ClusterBarrierPart::Arrive
                                       : ClusterBarrierPart::Wait;
  std::optional<BarrierCall> Barrier = asBarrierCall(Call);
  if (!Barrier || Barrier->BarrierScope < Scope::Cluster)
    return ClusterBarrierPart::None;
  // A grid barrier holds every block of the grid, the cluster's too.
  if (Barrier->BarrierScope == Scope::Grid)
    return ClusterBarrierPart::Sync;
  switch (Barrier->Part) {
  case BarrierPart::Arrive:
    return ClusterBarrierPart::Arrive;
  case BarrierPart::Wait:
    return ClusterBarrierPart::Wait;
  case BarrierPart::Whole:
    return ClusterBarrierPart::Sync;
  }
  return ClusterBarrierPart::Sync;
}

namespace {

ClusterBarrierPart partOf(const Stmt *S) { return clusterBarrierPart(S); }

constexpr unsigned MaxAccesses = 64;

struct Flow {
  uint64_t Pending = 0; ///< no cluster barrier since
  uint64_t Arrived = 0; ///< an arrive since, no wait yet
  bool operator==(const Flow &O) const {
    return Pending == O.Pending && Arrived == O.Arrived;
  }
};

} // namespace

struct ClusterExitAnalysis::Impl : KernelScope {
  using KernelScope::KernelScope;

  std::vector<DsmemAccess> Accesses;
  std::vector<UnsyncedExit> Exits;
  std::unique_ptr<ParentMap> Parents;
  /// Local pointers into another block's shared memory, and the mapping
  /// they come from.
  llvm::DenseMap<const VarDecl *, const CallExpr *> Dsmem;
  llvm::DenseMap<const Stmt *, unsigned> AccessOf;
  llvm::DenseMap<const FunctionDecl *, bool> CalleeSyncs;

  const CallExpr *sourceOf(const Expr *E, unsigned Depth = 0) const;
  void findPointers();
  bool isAccessUse(const Expr *E) const;
  bool calleeSyncs(const FunctionDecl *Callee);
  void transfer(const CFGBlock *Block, Flow &F);
  void run();
};

const CallExpr *ClusterExitAnalysis::Impl::sourceOf(const Expr *E,
                                                    unsigned Depth) const {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return isSharedRankMapping(Call) ? Call : nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return Dsmem.lookup(Var);
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
    if (const CallExpr *L = sourceOf(B->getLHS(), Depth + 1))
      return L;
    return sourceOf(B->getRHS(), Depth + 1);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf) {
    const Expr *Sub = U->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Sub))
      return sourceOf(Subscript->getBase(), Depth + 1);
    if (const auto *Member = dyn_cast<MemberExpr>(Sub); Member && Member->isArrow())
      return sourceOf(Member->getBase(), Depth + 1);
    return nullptr;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    if (const CallExpr *T = sourceOf(C->getTrueExpr(), Depth + 1))
      return T;
    return sourceOf(C->getFalseExpr(), Depth + 1);
  }
  return nullptr;
}

void ClusterExitAnalysis::Impl::findPointers() {
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    bool Changed = false;
    explicit Finder(Impl &I) : I(I) {}
    void note(const VarDecl *Var, const Expr *Value) {
      if (!Var || !Var->getType()->isPointerType() || I.Dsmem.contains(Var))
        return;
      if (const CallExpr *Source = I.sourceOf(Value)) {
        I.Dsmem[Var] = Source;
        Changed = true;
      }
    }
    bool VisitVarDecl(VarDecl *Var) {
      if (Var->hasLocalStorage() && Var->getInit())
        note(Var, Var->getInit());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() == BO_Assign)
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          note(dyn_cast<VarDecl>(Ref->getDecl()), B->getRHS());
      return true;
    }
  };
  // Each round follows one more step of copying; pointers are rarely copied
  // more than twice.
  for (unsigned Round = 0; Round < 4; ++Round) {
    Finder Find(*this);
    Find.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    if (!Find.Changed)
      break;
  }
}

bool ClusterExitAnalysis::Impl::isAccessUse(const Expr *E) const {
  while (true) {
    const Stmt *Parent = Parents->getParentIgnoreParens(E);
    const auto *PE = dyn_cast_or_null<Expr>(Parent);
    if (!PE)
      return false;
    if (isa<ImplicitCastExpr>(PE) || isa<ExplicitCastExpr>(PE)) {
      E = PE;
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(PE)) {
      if ((B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) &&
          PE->getType()->isPointerType()) {
        E = PE;
        continue;
      }
      return false;
    }
    bool Dereferences = false;
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(PE))
      Dereferences = Sub->getBase()->IgnoreParens() == E;
    else if (const auto *U = dyn_cast<UnaryOperator>(PE))
      Dereferences = U->getOpcode() == UO_Deref;
    else if (const auto *Member = dyn_cast<MemberExpr>(PE))
      Dereferences = Member->isArrow();
    else if (const auto *Call = dyn_cast<CallExpr>(PE))
      // Handed to a function (an atomic, a store helper): taken as used.
      return !isSharedRankMapping(Call) && Call->getCallee() != E;
    if (!Dereferences)
      return false;
    // `&peer[i]` is a pointer again: follow it.
    const Stmt *Above = Parents->getParentIgnoreParens(PE);
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(Above);
        U && U->getOpcode() == UO_AddrOf) {
      E = U;
      continue;
    }
    return true;
  }
}

bool ClusterExitAnalysis::Impl::calleeSyncs(const FunctionDecl *Callee) {
  return bodyReaches(Callee, CalleeSyncs, [](const Stmt *S) {
    ClusterBarrierPart Part = partOf(S);
    return Part == ClusterBarrierPart::Sync || Part == ClusterBarrierPart::Wait;
  });
}

void ClusterExitAnalysis::Impl::transfer(const CFGBlock *Block, Flow &F) {
  forEachStmtOf(*Block, [&](const Stmt *S) {
    if (auto It = AccessOf.find(S); It != AccessOf.end()) {
      // The last access of the path stands for the earlier ones: a barrier
      // after it covers them all.
      F.Pending = static_cast<uint64_t>(1) << It->second;
      F.Arrived = 0;
      return;
    }
    ClusterBarrierPart Part = partOf(S);
    if (Part == ClusterBarrierPart::None)
      if (const auto *Call = dyn_cast<CallExpr>(S);
          Call && calleeSyncs(Call->getDirectCallee()))
        Part = ClusterBarrierPart::Sync;
    switch (Part) {
    case ClusterBarrierPart::None:
      break;
    case ClusterBarrierPart::Sync:
      F = Flow();
      break;
    case ClusterBarrierPart::Arrive:
      F.Arrived |= F.Pending;
      F.Pending = 0;
      break;
    case ClusterBarrierPart::Wait:
      F.Arrived = 0;
      break;
    }
  });
}

void ClusterExitAnalysis::Impl::run() {
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return;
  // Most kernels map no other block's memory: look before building more.
  struct AnyMapping : RecursiveASTVisitor<AnyMapping> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      Found |= isSharedRankMapping(Call);
      return !Found;
    }
  } Mapping;
  Mapping.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  if (!Mapping.Found)
    return;
  const FunctionDivergence *D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  const CFG *Cfg = D->cfg();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));
  findPointers();

  // The accesses, in CFG element order (then sorted by source).
  for (const CFGBlock *Block : *Cfg)
    forEachStmtOf(*Block, [&](const Stmt *S) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E || Accesses.size() >= MaxAccesses)
        return;
      DsmemAccess Access;
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        const CallExpr *Source = Var ? Dsmem.lookup(Var) : nullptr;
        if (!Source)
          return;
        Access = {E, Var, Source};
      } else if (const auto *Call = dyn_cast<CallExpr>(E);
                 Call && isSharedRankMapping(Call)) {
        Access = {E, nullptr, Call};
      } else {
        return;
      }
      if (!isAccessUse(E))
        return;
      AccessOf[E] = static_cast<unsigned>(Accesses.size());
      Accesses.push_back(Access);
    });
  if (Accesses.empty())
    return;

  BlockFlows<Flow> Flows = solveForward<Flow>(
      *Cfg, blocksInProgramOrder(*Cfg),
      [&](const CFGBlock *Block, Flow &F) { transfer(Block, F); },
      [](Flow &Into, const Flow &From) {
        Into.Pending |= From.Pending;
        Into.Arrived |= From.Arrived;
      });
  const std::vector<std::optional<Flow>> &In = Flows.In;
  const std::vector<Flow> &Out = Flows.Out;

  // Where the unsynchronised accesses leave: each predecessor of the exit.
  std::vector<bool> Seen(Accesses.size(), false);
  const CFGBlock &Exit = Cfg->getExit();
  for (const CFGBlock::AdjacentBlock &Pred : Exit.preds()) {
    const CFGBlock *From = Pred.getReachableBlock();
    if (!From || !In[From->getBlockID()])
      continue;
    const Flow &F = Out[From->getBlockID()];
    const Stmt *Leaves = nullptr;
    for (const CFGElement &Element : llvm::reverse(*From))
      if (std::optional<CFGStmt> Item = Element.getAs<CFGStmt>()) {
        if (isa<ReturnStmt>(Item->getStmt()))
          Leaves = Item->getStmt();
        break;
      }
    for (unsigned I = 0; I < Accesses.size(); ++I) {
      uint64_t Bit = static_cast<uint64_t>(1) << I;
      if (Seen[I] || !((F.Pending | F.Arrived) & Bit))
        continue;
      Seen[I] = true;
      Exits.push_back({I, Leaves, !(F.Pending & Bit)});
    }
  }
  SourceOrder Before(Ctx.getSourceManager());
  llvm::sort(Exits, [&](const UnsyncedExit &L, const UnsyncedExit &R) {
    return Before(Accesses[L.Access].Where, Accesses[R.Access].Where);
  });
}

ClusterExitAnalysis::ClusterExitAnalysis(const FunctionDecl *Kernel,
                                         ASTContext &Ctx,
                                         FactQueries &Manager)
    : P(std::make_unique<Impl>(Kernel, Ctx, Manager)) {
  P->run();
}

ClusterExitAnalysis::~ClusterExitAnalysis() = default;

llvm::ArrayRef<DsmemAccess> ClusterExitAnalysis::accesses() const {
  return P->Accesses;
}

llvm::ArrayRef<UnsyncedExit> ClusterExitAnalysis::unsyncedExits() const {
  return P->Exits;
}

} // namespace clang::tidy::cuda::analysis
