//===--- GridSyncReachability.h - which functions sync the grid -*- C++ -*-===//
//
// Which functions of a translation unit reach a grid-wide synchronization
// (grid_group::sync() and friends, see gridSyncSpelling), directly or
// through any chain of calls the TU resolves: plain calls, template
// instantiations, lambdas called by name or handed to a template that calls
// them. Built on clang's CallGraph, so it sees the same edges: no virtual
// or indirect calls, and nothing of a function whose body is in another TU.
//
// Functions of the cooperative_groups namespace are leaves: a call into them
// is a grid sync or it is not, and the type-erased thread_group::sync(),
// which dispatches to a grid sync only for a grid held at run time, is not.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_GRIDSYNCREACHABILITY_H
#define CUDA_TIDY_CHECKS_ANALYSIS_GRIDSYNCREACHABILITY_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// One step of the way from a function to a grid sync.
struct GridSyncStep {
  const FunctionDecl *Caller = nullptr;
  /// The call in Caller: to Callee, or, on the last step, the grid sync.
  const Expr *Call = nullptr;
  /// The function called; nullptr on the last step.
  const FunctionDecl *Callee = nullptr;
};

class GridSyncReachability {
public:
  /// Builds the call graph of the whole TU and propagates grid syncs to
  /// every caller. A shortest chain is kept per function.
  explicit GridSyncReachability(ASTContext &Context);

  /// The chain from \p Function to a grid sync, first step in \p Function,
  /// last step the sync itself; empty when the function reaches none.
  llvm::SmallVector<GridSyncStep, 4>
  chainFrom(const FunctionDecl *Function) const;

  bool reachesGridSync(const FunctionDecl *Function) const {
    return !chainFrom(Function).empty();
  }

  /// How the grid sync at the end of a chain is spelled in messages.
  static const char *syncSpelling(const GridSyncStep &Last);

private:
  struct Witness {
    const Expr *Call = nullptr;
    /// The next function of the chain (canonical), or nullptr when Call is
    /// the grid sync itself.
    const FunctionDecl *Next = nullptr;
    /// The function the call is written in (the definition).
    const FunctionDecl *In = nullptr;
  };
  /// Keyed by canonical declaration.
  llvm::DenseMap<const FunctionDecl *, Witness> Witnesses;
};

} // namespace clang::tidy::cuda::analysis

#endif
