//===--- ClusterExits.h - distributed shared memory and the kernel's exit -===//
//
// A block of a thread-block cluster may read and write the shared memory of
// the other blocks of its cluster (distributed shared memory, DSMEM) through
// a pointer that `cluster.map_shared_rank(p, rank)`,
// `__cluster_map_shared_rank(p, rank)` or `cuda::ptx::mapa(...)` made, or one
// derived from it (a local pointer assigned from one, pointer arithmetic). A
// block's shared memory is gone once the block exits, so a block that another
// block may still access must not exit first: every DSMEM access needs a
// cluster barrier after it before the kernel's exit (`cluster.sync()`, or
// `barrier_arrive()` after the access and `barrier_wait()` before the exit;
// `__cluster_barrier_arrive/wait`, `cuda::ptx::barrier_cluster_arrive/wait`,
// `barrier.cluster.*` in inline assembly), on every path.
//
// A forward dataflow over the kernel's CFG carries the DSMEM accesses not yet
// followed by a cluster barrier (and those followed by an arrive only); the
// ones that reach the exit are reported with where the path leaves (a
// `return`, or the end of the body). A call to a function with a body that
// reaches a cluster barrier (directly or through its calls) counts as one,
// which errs towards no finding. Accesses made inside a called function are
// not followed. Cluster barriers under divergent control flow are
// cuda-divergent-barrier's rule.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CLUSTEREXITS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CLUSTEREXITS_H

#include "llvm/ADT/ArrayRef.h"
#include <memory>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

/// `cluster.map_shared_rank(p, r)`, `__cluster_map_shared_rank(p, r)`,
/// `cuda::ptx::mapa(...)`: a pointer into another block's shared memory.
bool isSharedRankMapping(const CallExpr *Call);

/// How a statement takes part in a cluster barrier.
enum class ClusterBarrierPart { None, Sync, Arrive, Wait };
/// The part \p S (a call or an asm statement) plays; calls to user functions
/// are not looked into here.
ClusterBarrierPart clusterBarrierPart(const Stmt *S);

/// An access to another block's shared memory.
struct DsmemAccess {
  /// The expression that uses the pointer: the variable's reference, or the
  /// mapping call when its result is used at once.
  const Expr *Where = nullptr;
  /// The local pointer it goes through, or nullptr.
  const VarDecl *Via = nullptr;
  /// The mapping call the pointer came from (one of them).
  const CallExpr *MappedBy = nullptr;
};

/// A DSMEM access with a path to the kernel's exit that has no cluster
/// barrier after it.
struct UnsyncedExit {
  unsigned Access = 0;
  /// The `return` the path leaves by, or nullptr: the end of the body.
  const Stmt *Exit = nullptr;
  /// An arrive follows the access on that path, but no wait.
  bool ArriveOnly = false;
};

class ClusterExitAnalysis {
public:
  /// The DSMEM accesses of kernel \p Kernel and the unsynchronised exits.
  ClusterExitAnalysis(const FunctionDecl *Kernel, ASTContext &Ctx,
                      FactQueries &Manager);
  ~ClusterExitAnalysis();
  ClusterExitAnalysis(const ClusterExitAnalysis &) = delete;
  ClusterExitAnalysis &operator=(const ClusterExitAnalysis &) = delete;

  /// In CFG order.
  llvm::ArrayRef<DsmemAccess> accesses() const;
  /// One per access that is the last DSMEM access of a path reaching an
  /// exit with no cluster barrier after it, in source order of the access.
  llvm::ArrayRef<UnsyncedExit> unsyncedExits() const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::analysis

#endif
