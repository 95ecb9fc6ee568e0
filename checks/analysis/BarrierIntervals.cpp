//===--- BarrierIntervals.cpp - the code threads run between barriers ----===//

#include "checks/analysis/BarrierIntervals.h"

#include "clang/Analysis/CFG.h"

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
  for (const CFGBlock *Block : Cfg)
    for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
      const CFGBlock *Next = Succ.getReachableBlock();
      if (!Next)
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
/// that are not back edges).
std::vector<bool>
reachable(unsigned From,
          const std::vector<std::vector<std::pair<unsigned, bool>>> &Edges,
          bool AlongBackEdges) {
  std::vector<bool> Seen(Edges.size(), false);
  std::vector<unsigned> Work = {From};
  Seen[From] = true;
  while (!Work.empty()) {
    unsigned S = Work.back();
    Work.pop_back();
    for (const auto &[To, Back] : Edges[S])
      if ((AlongBackEdges || !Back) && !Seen[To]) {
        Seen[To] = true;
        Work.push_back(To);
      }
  }
  return Seen;
}

} // namespace

void BarrierIntervals::relate(
    llvm::ArrayRef<const Stmt *> Points,
    llvm::function_ref<bool(const CFGBlock *)> Divergent) {
  for (const Stmt *P : Points)
    if (std::optional<unsigned> S = segmentOf(P); S && !Reach.contains(*S))
      Reach[*S] = {reachable(*S, Edges, false), reachable(*S, Edges, true)};
  constexpr unsigned MaxBranches = 64;
  for (const CFGBlock *Block : *Graph) {
    if (AfterDivergence.size() >= MaxBranches)
      break;
    if (Block->succ_size() > 1 && Divergent(Block))
      AfterDivergence.push_back(
          reachable(LastSegmentOfBlock[Block->getBlockID()], Edges, false));
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
  if (RA->second.first[*SB] || RB->second.first[*SA])
    return Meeting::SameIteration;
  for (const std::vector<bool> &After : AfterDivergence)
    if (After[*SA] && After[*SB])
      return Meeting::SameIteration;
  if (RA->second.second[*SB] || RB->second.second[*SA])
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
