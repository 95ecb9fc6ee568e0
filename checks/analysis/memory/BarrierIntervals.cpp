//===--- BarrierIntervals.cpp - the code threads run between barriers ----===//

#include "checks/analysis/memory/BarrierIntervals.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <numeric>

namespace clang::tidy::cuda::analysis {

namespace {

unsigned findRoot(std::vector<unsigned> &Parent, unsigned X) {
  while (Parent[X] != X) {
    Parent[X] = Parent[Parent[X]];
    X = Parent[X];
  }
  return X;
}

// A guard that repeats its loop's condition.
//
// `for (int j = 0; j < n; ++j) { ...; if (j < n) __syncthreads(); }` takes
// the barrier in every iteration: the loop only enters its body when j < n
// holds, and nothing in the body changes j or n. Without this fact the
// guard's other edge is a barrier-free path around the back edge, and the
// next iteration's accesses would seem to meet this one's (ggml's mmvf.cu
// ends each step of its column loop that way). Only conditions built from
// literals, template arguments and local variables or parameters that the
// loop body never writes, or lets escape, are compared.

const Expr *stripValue(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(Next))
      Next = Subst->getReplacement();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

/// A variable whose value only this thread's own statements can change.
const VarDecl *privateVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return nullptr;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType() ||
      Var->getType().isVolatileQualified())
    return nullptr;
  return Var;
}

/// A and B compute the same value from the same operands; \p Vars collects
/// the variables read.
bool sameValue(const Expr *A, const Expr *B,
               llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  A = stripValue(A);
  B = stripValue(B);
  if (!A || !B || A->getStmtClass() != B->getStmtClass())
    return false;
  if (const auto *LitA = dyn_cast<IntegerLiteral>(A))
    return llvm::APInt::isSameValue(LitA->getValue(),
                                    cast<IntegerLiteral>(B)->getValue());
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RefB = cast<DeclRefExpr>(B);
    if (RefA->getDecl()->getCanonicalDecl() !=
        RefB->getDecl()->getCanonicalDecl())
      return false;
    if (isa<EnumConstantDecl, NonTypeTemplateParmDecl>(RefA->getDecl()))
      return true;
    const VarDecl *Var = privateVariable(RefA);
    if (!Var)
      return false;
    Vars.insert(Var->getCanonicalDecl());
    return true;
  }
  if (const auto *BinA = dyn_cast<BinaryOperator>(A)) {
    const auto *BinB = cast<BinaryOperator>(B);
    return BinA->getOpcode() == BinB->getOpcode() &&
           !BinA->isAssignmentOp() && !BinA->isCommaOp() &&
           sameValue(BinA->getLHS(), BinB->getLHS(), Vars) &&
           sameValue(BinA->getRHS(), BinB->getRHS(), Vars);
  }
  if (const auto *UnA = dyn_cast<UnaryOperator>(A)) {
    const auto *UnB = cast<UnaryOperator>(B);
    return UnA->getOpcode() == UnB->getOpcode() &&
           !UnA->isIncrementDecrementOp() && UnA->getOpcode() != UO_AddrOf &&
           UnA->getOpcode() != UO_Deref &&
           sameValue(UnA->getSubExpr(), UnB->getSubExpr(), Vars);
  }
  return false;
}

/// The comparison that holds exactly when \p Op does not.
std::optional<BinaryOperatorKind> complement(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT: return BO_GE;
  case BO_GE: return BO_LT;
  case BO_GT: return BO_LE;
  case BO_LE: return BO_GT;
  case BO_EQ: return BO_NE;
  case BO_NE: return BO_EQ;
  default: return std::nullopt;
  }
}

/// \p Guard holds (true) or fails (false) whenever \p Fact holds.
std::optional<bool> decides(const Expr *Fact, const Expr *Guard,
                            llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  if (sameValue(Fact, Guard, Vars))
    return true;
  Vars.clear();
  const Expr *G = stripValue(Guard);
  if (const auto *Not = dyn_cast<UnaryOperator>(G);
      Not && Not->getOpcode() == UO_LNot) {
    if (sameValue(Fact, Not->getSubExpr(), Vars))
      return false;
    Vars.clear();
    return std::nullopt;
  }
  const auto *F = dyn_cast<BinaryOperator>(stripValue(Fact));
  const auto *GB = dyn_cast<BinaryOperator>(G);
  if (!F || !GB || complement(F->getOpcode()) != GB->getOpcode())
    return std::nullopt;
  if (sameValue(F->getLHS(), GB->getLHS(), Vars) &&
      sameValue(F->getRHS(), GB->getRHS(), Vars))
    return false;
  Vars.clear();
  return std::nullopt;
}

bool contains(const Stmt *Outer, const Stmt *Inner) {
  return Outer == Inner ||
         llvm::any_of(Outer->children(), [&](const Stmt *Child) {
           return Child && contains(Child, Inner);
         });
}

/// Some statement of \p Body may change one of \p Vars: anything but a
/// plain read of it (an assignment, ++/--, its address taken, a reference
/// bound to it, a lambda capture).
bool mayChange(const Stmt *Body,
               const llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Body);
      Cast && Cast->getCastKind() == CK_LValueToRValue &&
      isa<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Body)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && Vars.contains(Var->getCanonicalDecl());
  }
  return isa<LambdaExpr>(Body) ||
         llvm::any_of(Body->children(), [&](const Stmt *Child) {
           return Child && mayChange(Child, Vars);
         });
}

struct LoopFacts {
  /// The conditions that hold at the start of each iteration of the body.
  llvm::SmallVector<const Expr *, 2> Holds;
  const Stmt *Body = nullptr;
};

void conjuncts(const Expr *E, llvm::SmallVectorImpl<const Expr *> &Out) {
  const Expr *S = stripValue(E);
  if (const auto *And = dyn_cast<BinaryOperator>(S);
      And && And->getOpcode() == BO_LAnd) {
    conjuncts(And->getLHS(), Out);
    conjuncts(And->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

std::vector<LoopFacts> loopsOf(const CFG &Cfg) {
  std::vector<LoopFacts> Loops;
  for (const CFGBlock *Block : Cfg) {
    const Stmt *Term = Block->getTerminatorStmt();
    LoopFacts Loop;
    if (const auto *For = dyn_cast_or_null<ForStmt>(Term)) {
      if (!For->getCond() || For->getConditionVariable())
        continue;
      conjuncts(For->getCond(), Loop.Holds);
      Loop.Body = For->getBody();
    } else if (const auto *While = dyn_cast_or_null<WhileStmt>(Term)) {
      if (While->getConditionVariable())
        continue;
      conjuncts(While->getCond(), Loop.Holds);
      Loop.Body = While->getBody();
    } else {
      continue;
    }
    if (Loop.Body)
      Loops.push_back(std::move(Loop));
  }
  return Loops;
}

/// The successor of \p Block (0: then, 1: else) no execution can take,
/// because the block's `if` repeats or negates the condition of a loop
/// around it that the body leaves unchanged.
std::optional<unsigned> impossibleBranch(const CFGBlock &Block,
                                         llvm::ArrayRef<LoopFacts> Loops) {
  const auto *If = dyn_cast_or_null<IfStmt>(Block.getTerminatorStmt());
  if (!If || If->getConditionVariable() || If->getInit() || If->isConsteval() ||
      Block.succ_size() != 2)
    return std::nullopt;
  const Expr *Guard = If->getCond();
  if (const auto *Logic = dyn_cast<BinaryOperator>(stripValue(Guard));
      Logic && Logic->isLogicalOp())
    return std::nullopt; // the block tests only the last operand
  for (const LoopFacts &Loop : Loops)
    for (const Expr *Fact : Loop.Holds) {
      llvm::SmallPtrSet<const VarDecl *, 4> Vars;
      std::optional<bool> Holds = decides(Fact, Guard, Vars);
      if (!Holds || !contains(Loop.Body, If) || mayChange(Loop.Body, Vars))
        continue;
      return *Holds ? 1u : 0u;
    }
  return std::nullopt;
}

} // namespace

BarrierIntervals::BarrierIntervals(
    const CFG &Cfg, llvm::function_ref<bool(const Stmt *)> IsBarrier) {
  // Segments: each block's elements between its barriers.
  unsigned NumBlocks = Cfg.getNumBlockIDs();
  std::vector<unsigned> FirstSegment(NumBlocks);
  std::vector<unsigned> LastSegment(NumBlocks);
  unsigned Segments = 0;
  for (const CFGBlock *Block : Cfg) {
    unsigned Id = Block->getBlockID();
    FirstSegment[Id] = Segments;
    unsigned Current = Segments++;
    for (const CFGElement &Element : *Block) {
      std::optional<CFGStmt> S = Element.getAs<CFGStmt>();
      if (!S)
        continue;
      if (IsBarrier(S->getStmt())) {
        Current = Segments++;
        continue;
      }
      SegmentOf.try_emplace(S->getStmt(), Current);
    }
    LastSegment[Id] = Current;
  }

  Graph = &Cfg;
  LastSegmentOfBlock = LastSegment;
  Edges.assign(Segments, {});
  // Edges: the end of a block to the start of each successor.
  std::vector<std::vector<unsigned>> Successors(Segments);
  std::vector<unsigned> Parent(Segments);
  std::iota(Parent.begin(), Parent.end(), 0u);
  std::vector<LoopFacts> Loops = loopsOf(Cfg);
  for (const CFGBlock *Block : Cfg) {
    std::optional<unsigned> Impossible =
        Loops.empty() ? std::nullopt : impossibleBranch(*Block, Loops);
    unsigned SuccIndex = 0;
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const CFGBlock *Next = Succ.getReachableBlock();
      bool Taken = !Impossible || *Impossible != SuccIndex++;
      if (!Next || !Taken)
        continue;
      unsigned From = LastSegment[Block->getBlockID()];
      unsigned To = FirstSegment[Next->getBlockID()];
      Successors[From].push_back(To);
      // clang marks the block that jumps back to a loop's head.
      Edges[From].emplace_back(To, Block->getLoopTarget() != nullptr);
      unsigned A = findRoot(Parent, From);
      unsigned B = findRoot(Parent, To);
      if (A != B)
        Parent[A] = B;
    }
  }

  // Intervals, numbered densely.
  IntervalOfSegment.assign(Segments, 0);
  llvm::DenseMap<unsigned, unsigned> Dense;
  for (unsigned S = 0; S < Segments; ++S) {
    unsigned Next = Dense.size();
    auto [It, New] = Dense.try_emplace(findRoot(Parent, S), Next);
    IntervalOfSegment[S] = It->second;
  }
  Cyclic.assign(Dense.size(), false);

  // Barrier-free cycles: Tarjan's strongly connected components, iterative.
  std::vector<int> Index(Segments, -1);
  std::vector<int> Low(Segments, 0);
  std::vector<bool> OnStack(Segments, false);
  std::vector<unsigned> Stack;
  int Counter = 0;
  OnCycle.assign(Segments, false);
  Component.assign(Segments, 0);
  unsigned Components = 0;
  for (unsigned Root = 0; Root < Segments; ++Root) {
    if (Index[Root] >= 0)
      continue;
    std::vector<std::pair<unsigned, size_t>> Work = {{Root, 0}};
    Index[Root] = Low[Root] = Counter++;
    Stack.push_back(Root);
    OnStack[Root] = true;
    while (!Work.empty()) {
      auto &[Node, Next] = Work.back();
      if (Next < Successors[Node].size()) {
        unsigned To = Successors[Node][Next++];
        if (To == Node) {
          Cyclic[IntervalOfSegment[Node]] = true;
          OnCycle[Node] = true;
        }
        if (Index[To] < 0) {
          Index[To] = Low[To] = Counter++;
          Stack.push_back(To);
          OnStack[To] = true;
          Work.emplace_back(To, 0);
        } else if (OnStack[To]) {
          Low[Node] = std::min(Low[Node], Index[To]);
        }
        continue;
      }
      unsigned Done = Node;
      Work.pop_back();
      if (!Work.empty())
        Low[Work.back().first] = std::min(Low[Work.back().first], Low[Done]);
      if (Low[Done] == Index[Done]) {
        std::vector<unsigned> Members;
        unsigned Member;
        do {
          Member = Stack.back();
          Stack.pop_back();
          OnStack[Member] = false;
          Members.push_back(Member);
          Component[Member] = Components;
        } while (Member != Done);
        ++Components;
        if (Members.size() > 1) {
          Cyclic[IntervalOfSegment[Done]] = true;
          for (unsigned M : Members)
            OnCycle[M] = true;
        }
      }
    }
  }
}

std::optional<unsigned> BarrierIntervals::intervalOf(const Stmt *S) const {
  auto It = SegmentOf.find(S);
  if (It == SegmentOf.end())
    return std::nullopt;
  return IntervalOfSegment[It->second];
}

namespace {

/// The segments reachable from \p From over the edges (all, or only those
/// that are not back edges), sorted. \p Seen is all false on entry and on
/// return: a walk costs what it visits, not the whole graph, so relating
/// every access of a long kernel stays linear while its intervals are small.
std::vector<unsigned>
reachable(unsigned From,
          const std::vector<std::vector<std::pair<unsigned, bool>>> &Edges,
          bool AlongBackEdges, std::vector<bool> &Seen) {
  std::vector<unsigned> Visited = {From};
  Seen[From] = true;
  for (size_t Next = 0; Next < Visited.size(); ++Next)
    for (const auto &[To, Back] : Edges[Visited[Next]])
      if ((AlongBackEdges || !Back) && !Seen[To]) {
        Seen[To] = true;
        Visited.push_back(To);
      }
  for (unsigned S : Visited)
    Seen[S] = false;
  llvm::sort(Visited);
  return Visited;
}

bool holds(const std::vector<unsigned> &Sorted, unsigned Segment) {
  return std::binary_search(Sorted.begin(), Sorted.end(), Segment);
}

} // namespace

void BarrierIntervals::relate(
    llvm::ArrayRef<const Stmt *> Points,
    llvm::function_ref<bool(const CFGBlock *)> Divergent) {
  std::vector<bool> Seen(Edges.size(), false);
  for (const Stmt *P : Points)
    if (std::optional<unsigned> S = segmentOf(P); S && !Reach.contains(*S))
      Reach[*S] = {reachable(*S, Edges, false, Seen),
                   reachable(*S, Edges, true, Seen)};
  constexpr unsigned MaxBranches = 64;
  for (const CFGBlock *Block : *Graph) {
    if (AfterDivergence.size() >= MaxBranches)
      break;
    if (Block->succ_size() > 1 && Divergent(Block))
      AfterDivergence.push_back(reachable(
          LastSegmentOfBlock[Block->getBlockID()], Edges, false, Seen));
  }
}

BarrierIntervals::Meeting BarrierIntervals::meeting(const Stmt *A,
                                                    const Stmt *B) const {
  std::optional<unsigned> SA = segmentOf(A);
  std::optional<unsigned> SB = segmentOf(B);
  if (!SA || !SB)
    return Meeting::Never;
  bool OneCycle = segmentOnCycle(*SA) && componentOf(*SA) == componentOf(*SB);
  if (*SA == *SB || OneCycle)
    return OneCycle ? Meeting::AnyIteration : Meeting::SameIteration;
  auto RA = Reach.find(*SA);
  auto RB = Reach.find(*SB);
  if (RA == Reach.end() || RB == Reach.end())
    return Meeting::Never;
  if (holds(RA->second.first, *SB) || holds(RB->second.first, *SA))
    return Meeting::SameIteration;
  for (const std::vector<unsigned> &After : AfterDivergence)
    if (holds(After, *SA) && holds(After, *SB))
      return Meeting::SameIteration;
  if (holds(RA->second.second, *SB) || holds(RB->second.second, *SA))
    return Meeting::LaterIteration;
  return Meeting::Never;
}

std::optional<unsigned> BarrierIntervals::segmentOf(const Stmt *S) const {
  auto It = SegmentOf.find(S);
  if (It == SegmentOf.end())
    return std::nullopt;
  return It->second;
}

bool BarrierIntervals::segmentOnCycle(unsigned Segment) const {
  return Segment < OnCycle.size() && OnCycle[Segment];
}

unsigned BarrierIntervals::componentOf(unsigned Segment) const {
  return Segment < Component.size() ? Component[Segment] : 0;
}

bool BarrierIntervals::isCyclic(unsigned Interval) const {
  return Interval < Cyclic.size() && Cyclic[Interval];
}

} // namespace clang::tidy::cuda::analysis
