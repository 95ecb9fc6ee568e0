//===--- GridSyncReachability.cpp - which functions sync the grid ---------===//

#include "checks/analysis/launch/GridSyncReachability.h"
#include "checks/analysis/api/CooperativeGroups.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CallGraph.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::cuda::analysis {

namespace {

/// Source order, so that the chain kept does not depend on the order of a
/// hash map: the earliest call wins.
struct EarlierCall {
  const SourceManager &SM;
  bool operator()(const Expr *A, const Expr *B) const {
    SourceLocation LA = SM.getExpansionLoc(A->getBeginLoc());
    SourceLocation LB = SM.getExpansionLoc(B->getBeginLoc());
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A->getBeginLoc().getRawEncoding() <
           B->getBeginLoc().getRawEncoding();
  }
};

struct CallerEdge {
  const FunctionDecl *Caller; ///< Canonical.
  const FunctionDecl *In;     ///< Where the call is written.
  const Expr *Call;
};

} // namespace

GridSyncReachability::GridSyncReachability(ASTContext &Context) {
  CallGraph Graph;
  // The declarations the matchers walk: the whole translation unit, or the
  // user's code when the driver limits the walk to it (system headers have
  // no grid syncs of their own outside cooperative_groups, which is a leaf
  // here anyway).
  for (Decl *D : Context.getTraversalScope())
    Graph.addToCallGraph(D);
  EarlierCall Earlier{Context.getSourceManager()};

  // Reverse edges, and the functions that call a grid sync themselves.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<CallerEdge, 2>>
      Callers;
  llvm::SmallVector<const FunctionDecl *, 8> Level;
  for (const auto &Entry : Graph) {
    const auto *Function = dyn_cast_or_null<FunctionDecl>(Entry.first);
    if (!Function || isInCooperativeGroupsNamespace(Function))
      continue;
    const FunctionDecl *Definition = Function->getDefinition();
    if (!Definition)
      continue;
    Witness Direct;
    for (const CallGraphNode::CallRecord &Record : Entry.second->callees()) {
      if (!Record.CallExpr)
        continue;
      if (gridSyncSpelling(dyn_cast<CallExpr>(Record.CallExpr))) {
        if (!Direct.Call || Earlier(Record.CallExpr, Direct.Call))
          Direct = {Record.CallExpr, nullptr, Definition};
        continue;
      }
      const auto *Callee =
          dyn_cast_or_null<FunctionDecl>(Record.Callee->getDecl());
      if (!Callee || isInCooperativeGroupsNamespace(Callee))
        continue;
      Callers[Callee->getCanonicalDecl()].push_back(
          {Function->getCanonicalDecl(), Definition, Record.CallExpr});
    }
    if (Direct.Call) {
      Witnesses[Function->getCanonicalDecl()] = Direct;
      Level.push_back(Function->getCanonicalDecl());
    }
  }

  // Breadth first: every caller of a function of this level that is not
  // yet known reaches a grid sync in one more step, through its earliest
  // call into this level.
  while (!Level.empty()) {
    llvm::DenseMap<const FunctionDecl *, Witness> Found;
    for (const FunctionDecl *Callee : Level) {
      auto It = Callers.find(Callee);
      if (It == Callers.end())
        continue;
      for (const CallerEdge &Edge : It->second) {
        if (Witnesses.contains(Edge.Caller))
          continue;
        Witness &W = Found[Edge.Caller];
        if (!W.Call || Earlier(Edge.Call, W.Call))
          W = {Edge.Call, Callee, Edge.In};
      }
    }
    Level.clear();
    for (const auto &[Function, W] : Found) {
      Witnesses[Function] = W;
      Level.push_back(Function);
    }
  }
}

llvm::SmallVector<GridSyncStep, 4>
GridSyncReachability::chainFrom(const FunctionDecl *Function) const {
  llvm::SmallVector<GridSyncStep, 4> Chain;
  if (!Function)
    return Chain;
  const FunctionDecl *Current = Function->getCanonicalDecl();
  while (Current && Chain.size() <= Witnesses.size()) {
    auto It = Witnesses.find(Current);
    if (It == Witnesses.end())
      return {};
    const Witness &W = It->second;
    const FunctionDecl *Callee = nullptr;
    if (W.Next)
      Callee = W.Next->getDefinition() ? W.Next->getDefinition() : W.Next;
    Chain.push_back({W.In, W.Call, Callee});
    Current = W.Next;
  }
  return Chain;
}

const char *GridSyncReachability::syncSpelling(const GridSyncStep &Last) {
  const char *Spelling = gridSyncSpelling(dyn_cast<CallExpr>(Last.Call));
  return Spelling ? Spelling : "a grid-wide synchronization";
}

} // namespace clang::tidy::cuda::analysis
