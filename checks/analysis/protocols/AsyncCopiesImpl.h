//===--- AsyncCopiesImpl.h - the async-copy analysis's parts -*- C++ -*-===//
//
// Private to the asynchronous-copy analysis: its state (Impl), the queues
// of copies in flight its dataflow carries, and the helpers its phases
// share. The phases live in their own files, in reading order:
//   AsyncCopiesCollect.cpp   which calls copy, commit and wait (the API
//                            model of cp.async, memcpy_async, TMA), where
//                            a pointer points, the copies of a function;
//   AsyncCopiesEvaluate.cpp  what each statement does to the queues, and
//                            the accesses that meet a copy not waited for;
//   AsyncCopies.cpp          the fixpoint and the public face.
// Nothing outside those files includes this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_PROTOCOLS_ASYNCCOPIESIMPL_H
#define CUDA_TIDY_CHECKS_ANALYSIS_PROTOCOLS_ASYNCCOPIESIMPL_H

#include "checks/analysis/protocols/AsyncCopies.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/core/KernelWalk.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace clang::tidy::cuda::analysis {
namespace asynccopy {

// --- where pointers point (AsyncCopiesCollect.cpp) --------------------------

/// Where a pointer expression points: a variable, and the subscripts into
/// it (outermost first; a pointer offset counts as the outermost one).
struct Place {
  const VarDecl *Var = nullptr;
  std::vector<const Expr *> Indices;
  /// Reached through a local pointer variable.
  bool ThroughAlias = false;
};

/// Where the pointer \p E points, in \p FD.
std::optional<Place> placeOfPointer(const Expr *E, const FunctionDecl *FD,
                                    unsigned Depth = 0);
/// A local pointer with one value, and where that value points.
std::optional<Place> aliasTarget(const VarDecl *Var, const FunctionDecl *FD,
                                 unsigned Depth);
/// Bytes past an \p Align-aligned address that \p E points to, given a
/// buffer aligned to \p Align; nullopt when unknown.
std::optional<unsigned> misalignment(const Expr *E, unsigned Align,
                                     const ASTContext &Ctx,
                                     const FunctionDecl *FD);
/// The value of the non-negative integer constant \p E.
std::optional<uint64_t> constantOf(const Expr *E, const ASTContext &Ctx);

// --- the dataflow's vocabulary (the queue operations: AsyncCopiesEvaluate.cpp)


/// Copies are numbered in source order; a function with more than 64 is
/// analysed for its first 64.
using CopySet = uint64_t;
constexpr unsigned MaxCopies = 64;
/// Stages per queue, and queues per program point, before merging.
constexpr unsigned MaxStages = 8;
constexpr unsigned MaxQueues = 8;
/// Rounds over the CFG before giving up on a fixpoint.
constexpr unsigned MaxRounds = 40;

struct Stage {
  CopySet Copies = 0;
  /// A wait completed older stages and left this one (its slot of a
  /// multi-stage buffer is a runtime value).
  bool Staged = false;
  /// The wait that left it.
  const CallExpr *LeftBy = nullptr;
  /// Which wait left it is for the note only: two stages that differ in it
  /// are one state (else every wait would make paths distinct).
  bool operator==(const Stage &O) const {
    return Copies == O.Copies && Staged == O.Staged;
  }
};

/// What one path has in flight.
struct Queue {
  llvm::SmallVector<Stage, 4> Committed; ///< oldest first
  CopySet Open = 0;                      ///< not committed yet
  CopySet BarrierTied = 0;               ///< completed by a cuda::barrier
  /// Completed for this thread by a thread-scope wait; other threads'
  /// copies need a block barrier still.
  CopySet DoneForThisThread = 0;
  const CallExpr *DoneBy = nullptr;
  bool operator==(const Queue &O) const {
    return Committed == O.Committed && Open == O.Open &&
           BarrierTied == O.BarrierTied &&
           DoneForThisThread == O.DoneForThisThread;
  }
  bool empty() const {
    return Committed.empty() && !Open && !BarrierTied && !DoneForThisThread;
  }
};

using State = llvm::SmallVector<Queue, 2>;

/// Which region of a buffer an access or a copy names, for the conflict
/// test.
struct Region {
  const VarDecl *Buffer = nullptr;
  const Expr *Leading = nullptr;
  std::vector<const Expr *> Indices;
  bool ThroughAlias = false;
};

void addQueue(State &S, const Queue &Q);
void push(Queue &Q, CopySet Copies);

} // namespace asynccopy

struct AsyncCopyAnalysis::Impl : KernelScope {
  using KernelScope::KernelScope;

  std::vector<AsyncCopy> Copies;
  std::vector<EarlyAccess> Early;

  const CFG *Cfg = nullptr;
  std::unique_ptr<ParentMap> Parents;
  llvm::DenseMap<const CallExpr *, unsigned> CopyIndex;
  llvm::DenseMap<const CallExpr *, AsyncCopyApi> Untracked;
  /// The variables some copy writes into.
  llvm::DenseSet<const VarDecl *> Buffers;
  /// References inside a copy's destination argument: not accesses.
  llvm::DenseSet<const Stmt *> InDestination;
  llvm::DenseMap<const FunctionDecl *, bool> CalleeWaits;
  /// Per access expression (dedup): index into Early.
  llvm::DenseMap<const Expr *, unsigned> EarlyOf;

  // Collect (AsyncCopiesCollect.cpp): the copies, their buffers, the
  // functions whose body waits.
  bool collect();
  bool calleeWaits(const FunctionDecl *Callee);

  // Evaluate (AsyncCopiesEvaluate.cpp): what each statement does to the
  // queues in flight, and the accesses that meet a copy not waited for.
  void transfer(const CFGBlock *Block, asynccopy::State &S, bool Record);
  void apply(const Stmt *Element, asynccopy::State &S, bool Record);
  std::optional<std::pair<asynccopy::Region, bool>>
  accessAt(const DeclRefExpr *Ref, const Expr *&Whole) const;
  bool conflicts(const AsyncCopy &Copy, const asynccopy::Region &Access,
                 bool Staged) const;
  bool sameSubscripts(const AsyncCopy &Copy,
                      const asynccopy::Region &Access) const;
  void record(const Expr *Access, const asynccopy::Region &R, bool Writes,
              unsigned Copy, EarlyAccess::Reason Why, const CallExpr *Wait);

  // Decide (AsyncCopies.cpp): the fixpoint and the findings in source order.
  void run();
};

} // namespace clang::tidy::cuda::analysis

#endif
