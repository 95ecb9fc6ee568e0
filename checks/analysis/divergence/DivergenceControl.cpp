//===--- DivergenceControl.cpp - regions and control dependence -----------===//
//
// Where a non-uniform branch's paths meet again (its region: sync and
// temporal divergence), the loops whose thread-dependent terms cancel, and
// the control dependences the queries walk.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/divergence/DivergenceSolver.h"

namespace clang::tidy::cuda::analysis {

using namespace divergence;

namespace divergence {

/// Whether \p Inner is \p Outer or nested in it, following \p Parents.
bool isWithin(const ParentMap &Parents, const Stmt *Inner, const Stmt *Outer) {
  for (const Stmt *S = Inner; S; S = Parents.getParent(S))
    if (S == Outer)
      return true;
  return false;
}

/// The first statement in \p S that leaves it: return, goto, or a
/// break/continue not caught by a loop or switch inside \p S.
const Stmt *findExitJump(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S)
    return nullptr;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<CXXThrowExpr>(S))
    return S;
  if (isa<BreakStmt>(S))
    return InLoop || InSwitch ? nullptr : S;
  if (isa<ContinueStmt>(S))
    return InLoop ? nullptr : S;
  if (isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return nullptr;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
              isa<CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (const Stmt *Found =
            findExitJump(Child, InLoop || Loop, InSwitch || Switch))
      return Found;
  return nullptr;
}

/// `flag`, `s[i]`, `s.f` for a __shared__ variable `s` named directly.
bool isSharedVariableAccess(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      E = Subscript->getBase();
    else if (const auto *Member = dyn_cast<MemberExpr>(E);
             Member && !Member->isArrow())
      E = Member->getBase();
    else
      break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasAttr<CUDASharedAttr>();
}

bool isLoopStmt(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
         isa<CXXForRangeStmt>(S);
}

} // namespace divergence

//===----------------------------------------------------------------------===//
// Regions and control dependence
//===----------------------------------------------------------------------===//

llvm::SmallVector<const CFGBlock *, 2>
FunctionDivergence::Impl::successors(const CFGBlock *B) const {
  llvm::SmallVector<const CFGBlock *, 2> Result;
  for (const CFGBlock::AdjacentBlock &Succ : B->succs())
    if (const CFGBlock *S = Succ.getReachableBlock())
      if (!llvm::is_contained(Result, S))
        Result.push_back(S);
  return Result;
}

const CFGBlock *
FunctionDivergence::Impl::immediatePostDominator(const CFGBlock *B) const {
  auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

const ButterflyLoop *
FunctionDivergence::Impl::butterflyExitingTo(const CFGBlock *Test,
                                             const CFGBlock *Exit) {
  const auto *For = dyn_cast_or_null<ForStmt>(Test->getTerminatorStmt());
  // A for loop's test block has the body first and the exit second.
  if (!For || Test->succ_size() != 2 ||
      (Test->succ_begin() + 1)->getReachableBlock() != Exit)
    return nullptr;
  auto [It, Inserted] = Butterflies.try_emplace(For);
  if (Inserted)
    It->second = asButterflyLoop(For, Ctx);
  return It->second ? &*It->second : nullptr;
}

const CancellingLoop *
FunctionDivergence::Impl::cancellingLoopOf(const CFGBlock *B) {
  const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
  if (!For)
    return nullptr;
  auto [It, Inserted] = CancellingLoops.try_emplace(For);
  if (Inserted)
    It->second = asCancellingLoop(For, Ctx);
  return It->second ? &*It->second : nullptr;
}

/// The expression whose value picks \p B's successor. For a short-circuit
/// condition (`if (a && b)`, `while (a || b)`, `a && (b || c)`) clang's CFG
/// gives every operand a block of its own, and each of them branches on the
/// operand it evaluates: the block of `a` on `a`, the block of the if on `b`
/// alone. Taking the whole `a && b` as the if's condition would read `b`
/// before its block ran (and keep that stale answer when `a` is uniform),
/// which is how `n > 1 && threadIdx.x < 16` used to hide its second operand.
const Expr *FunctionDivergence::Impl::conditionOf(const CFGBlock *B) const {
  const auto *Condition =
      dyn_cast_or_null<Expr>(const_cast<CFGBlock *>(B)->getTerminatorCondition(
          /*StripParens=*/true));
  while (Condition) {
    const auto *Logical = dyn_cast<BinaryOperator>(Condition->IgnoreParens());
    if (!Logical || !Logical->isLogicalOp())
      break;
    Condition = Logical->getRHS()->IgnoreParens();
  }
  return Condition;
}

/// The blocks where the paths out of a branch meet again, and the slots
/// assigned on the way. A path that comes back to the branch (a loop whose
/// exit is this branch) may go on along any other successor, which is what
/// makes values live out of such a loop temporally divergent.
const FunctionDivergence::Impl::Region &
FunctionDivergence::Impl::region(const CFGBlock *Branch) {
  unsigned Id = Branch->getBlockID();
  if (Regions[Id])
    return *Regions[Id];
  auto R = std::make_unique<Region>();
  const CFGBlock *Meet = immediatePostDominator(Branch);
  llvm::SmallVector<const CFGBlock *, 2> Succs = successors(Branch);
  unsigned N = Cfg->getNumBlockIDs();
  std::vector<llvm::BitVector> Reach(Succs.size(), llvm::BitVector(N));
  llvm::SmallVector<bool, 2> Cycles(Succs.size(), false);
  llvm::BitVector Inside(N);
  llvm::SmallVector<unsigned, 16> Members;
  for (unsigned K = 0; K < Succs.size(); ++K) {
    llvm::SmallVector<const CFGBlock *, 16> Stack = {Succs[K]};
    while (!Stack.empty()) {
      const CFGBlock *X = Stack.pop_back_val();
      if (X == Branch) {
        Cycles[K] = true;
        continue;
      }
      unsigned XId = X->getBlockID();
      if (Reach[K].test(XId))
        continue;
      Reach[K].set(XId);
      if (!Inside.test(XId)) {
        Inside.set(XId);
        Members.push_back(XId);
      }
      // The meeting point is entered, not crossed.
      if (X == Meet)
        continue;
      for (const CFGBlock *Next : successors(X))
        Stack.push_back(Next);
    }
  }
  bool AnyCycle = llvm::is_contained(Cycles, true);
  for (unsigned J : Members) {
    unsigned In = 0;
    unsigned CyclicElsewhere = 0;
    for (unsigned K = 0; K < Succs.size(); ++K) {
      if (Reach[K].test(J))
        ++In;
      else if (Cycles[K])
        ++CyclicElsewhere;
    }
    unsigned Entries = In + (In > 0 ? CyclicElsewhere : 0);
    const CFGBlock *JB = blockById(J);
    if (Entries >= 2 && (JB == Meet || JB->pred_size() >= 2)) {
      R->Joins.push_back(J);
      JoinOf[J].push_back(Id);
    }
    if (JB != Meet)
      llvm::append_range(R->Defs, DefsInBlock[J]);
  }
  if (AnyCycle)
    llvm::append_range(R->Defs, DefsInBlock[Id]);
  llvm::sort(R->Defs);
  R->Defs.erase(std::unique(R->Defs.begin(), R->Defs.end()), R->Defs.end());
  R->Temporal = AnyCycle;
  Regions[Id] = std::move(R);
  return *Regions[Id];
}

void FunctionDivergence::Impl::computeControl() {
  unsigned N = Cfg->getNumBlockIDs();
  ControlDeps.assign(N, {});
  Control.assign(N, Uniformity());
  // Classic construction: for an edge A -> S, the blocks on the
  // post-dominator tree path from S up to (not including) ipdom(A) are
  // control dependent on A.
  for (const CFGBlock *A : *Cfg) {
    unsigned AId = A->getBlockID();
    if (!Visited.test(AId) || !Cond[AId])
      continue;
    auto *Stop = PostDom->getBase().getNode(const_cast<CFGBlock *>(A));
    Stop = Stop ? Stop->getIDom() : nullptr;
    for (const CFGBlock *S : successors(A)) {
      auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(S));
      while (Node && Node != Stop && Node->getBlock()) {
        auto &Deps = ControlDeps[Node->getBlock()->getBlockID()];
        if (!llvm::is_contained(Deps, AId))
          Deps.push_back(AId);
        Node = Node->getIDom();
      }
    }
  }
  // Transitively: a block under a branch that itself runs under divergence
  // is as divergent as that branch's block.
  PostOrderCFGView Order(Cfg.get());
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const CFGBlock *B : Order) {
      unsigned Id = B->getBlockID();
      Uniformity U;
      for (unsigned A : ControlDeps[Id]) {
        // A branch the solver never reached decides nothing.
        if (const std::optional<Uniformity> &Branch = Cond[A])
          U.join(*Branch);
        U.join(Control[A]);
      }
      U.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
      if (!U.sameAs(Control[Id])) {
        Control[Id] = U;
        Changed = true;
      }
    }
  }
}

} // namespace clang::tidy::cuda::analysis
