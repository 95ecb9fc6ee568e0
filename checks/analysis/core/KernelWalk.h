//===--- KernelWalk.h - the frame the kernel-level analyses share -*- C++ -*-===//
//
// The frame of a small forward dataflow over one kernel's CFG, as the
// kernel-level analyses run it (memory/CrossBlockSignals,
// protocols/ClusterExits, protocols/AsyncCopies):
//   - the state every such analysis starts from (KernelScope: the function,
//     its ASTContext, the facts it may ask for), that its Impl extends;
//   - the CFG's blocks in program order, and each block's statements;
//   - the may-fixpoint of a flow that only grows (bits joined by union);
//   - a callee searched, memoised and to a bounded depth, for a statement
//     (a barrier, a wait) that makes a call to it count as one;
//   - findings put in source order, ties kept in the order they were found.
// Header only; includes nothing else of checks/.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CORE_KERNELWALK_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CORE_KERNELWALK_H

#include "checks/analysis/core/FactQueries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>
#include <vector>

namespace clang::tidy::cuda::analysis {

/// What the state (the pimpl's Impl) of a kernel-level analysis starts
/// with: the function analysed, its context, and what it may ask about
/// other functions. An Impl derives from it and inherits its constructor.
struct KernelScope {
  KernelScope(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager)
      : FD(FD), Ctx(Ctx), Manager(Manager) {}
  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
};

/// The name of the function \p Call calls directly, or "" (no direct
/// callee, or a callee named by an operator or a conversion).
inline llvm::StringRef calleeName(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getDeclName().isIdentifier())
    return {};
  return FD->getName();
}

/// The blocks of \p Cfg by falling ID: clang numbers a body's blocks from
/// the exit up, so this is close to program order. (A post-order walk of
/// the CFG would step into the null successor of an unreachable edge, as
/// `for (;;)` has.)
inline std::vector<const CFGBlock *> blocksInProgramOrder(const CFG &Cfg) {
  std::vector<const CFGBlock *> Order(Cfg.begin(), Cfg.end());
  llvm::sort(Order, [](const CFGBlock *L, const CFGBlock *R) {
    return L->getBlockID() > R->getBlockID();
  });
  return Order;
}

/// Calls \p Visit with each statement element of \p Block, in order.
template <typename VisitFn>
void forEachStmtOf(const CFGBlock &Block, VisitFn &&Visit) {
  for (const CFGElement &Element : Block)
    if (std::optional<CFGStmt> Item = Element.getAs<CFGStmt>())
      Visit(Item->getStmt());
}

/// The flows of a forward dataflow at each block's entry and exit, by
/// block ID. A block not reached from the entry has no entry flow.
template <typename FlowT> struct BlockFlows {
  std::vector<std::optional<FlowT>> In;
  std::vector<FlowT> Out;
};

/// The may-fixpoint of a forward dataflow over \p Cfg, visiting the blocks
/// in \p Order (blocksInProgramOrder) from \p Entry at the entry block:
/// \p Transfer(Block, Flow &) applies a block to a flow, \p Join(Into, From)
/// merges a predecessor's flow into a successor's that another predecessor
/// reached first (the first one is copied). Flows only grow, so the fixpoint
/// comes within a few rounds; \p MaxRounds is a guard.
template <typename FlowT, typename TransferFn, typename JoinFn>
BlockFlows<FlowT> solveForward(const CFG &Cfg,
                               llvm::ArrayRef<const CFGBlock *> Order,
                               TransferFn &&Transfer, JoinFn &&Join,
                               unsigned MaxRounds = 64, FlowT Entry = FlowT()) {
  BlockFlows<FlowT> Flows;
  Flows.In.resize(Cfg.getNumBlockIDs());
  Flows.Out.resize(Cfg.getNumBlockIDs());
  Flows.In[Cfg.getEntry().getBlockID()] = std::move(Entry);
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < MaxRounds; ++Round) {
    Changed = false;
    for (const CFGBlock *Block : Order) {
      const std::optional<FlowT> &In = Flows.In[Block->getBlockID()];
      if (!In)
        continue;
      FlowT F = *In;
      Transfer(Block, F);
      Flows.Out[Block->getBlockID()] = F;
      for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
        const CFGBlock *Next = Succ.getReachableBlock();
        if (!Next)
          continue;
        std::optional<FlowT> &Into = Flows.In[Next->getBlockID()];
        if (!Into) {
          Into = F;
          Changed = true;
          continue;
        }
        FlowT Joined = *Into;
        Join(Joined, F);
        if (!(Joined == *Into)) {
          Into = std::move(Joined);
          Changed = true;
        }
      }
    }
  }
  return Flows;
}

/// Whether the body of \p Callee, or of a function it calls (to depth 4),
/// holds a statement \p Is accepts: a call to it then counts as that
/// statement. \p Cache holds the answer per definition; a function is taken
/// as not reaching while its own body is searched (recursion).
inline bool bodyReaches(const FunctionDecl *Callee,
                        llvm::DenseMap<const FunctionDecl *, bool> &Cache,
                        llvm::function_ref<bool(const Stmt *)> Is,
                        unsigned Depth = 0) {
  if (!Callee || Depth > 4)
    return false;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->getBody())
    return false;
  auto [It, New] = Cache.try_emplace(Def, false);
  if (!New)
    return It->second;
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::DenseMap<const FunctionDecl *, bool> &Cache;
    llvm::function_ref<bool(const Stmt *)> Is;
    unsigned Depth;
    bool Found = false;
    Finder(llvm::DenseMap<const FunctionDecl *, bool> &Cache,
           llvm::function_ref<bool(const Stmt *)> Is, unsigned Depth)
        : Cache(Cache), Is(Is), Depth(Depth) {}
    bool VisitStmt(Stmt *S) {
      if (Is(S))
        Found = true;
      else if (const auto *Call = dyn_cast<CallExpr>(S))
        Found = bodyReaches(Call->getDirectCallee(), Cache, Is, Depth + 1);
      return !Found;
    }
  } Find(Cache, Is, Depth);
  Find.TraverseStmt(Def->getBody());
  Cache[Def] = Find.Found;
  return Find.Found;
}

/// Orders statements by where they begin in the translation unit.
class SourceOrder {
public:
  explicit SourceOrder(const SourceManager &SM) : SM(&SM) {}
  bool operator()(const Stmt *L, const Stmt *R) const {
    return SM->isBeforeInTranslationUnit(L->getBeginLoc(), R->getBeginLoc());
  }

private:
  const SourceManager *SM;
};

/// A stable sort without std::stable_sort's deprecated temporary buffer:
/// equal elements keep their order (the position is the last key).
template <typename T, typename LessFn>
void sortKeepingOrder(std::vector<T> &Items, LessFn Less) {
  std::vector<unsigned> Order(Items.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](unsigned A, unsigned B) {
    if (Less(Items[A], Items[B]))
      return true;
    if (Less(Items[B], Items[A]))
      return false;
    return A < B;
  });
  std::vector<T> Sorted;
  Sorted.reserve(Items.size());
  for (unsigned I : Order)
    Sorted.push_back(Items[I]);
  Items = std::move(Sorted);
}

} // namespace clang::tidy::cuda::analysis

#endif
