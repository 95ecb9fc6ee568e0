//===--- WarpExchanges.h - lanes of one warp talking through __shared__ ---===//
//
// The facts cuda-implicit-warp-sync reports: reads of __shared__ memory that
// can see a value another lane of the same warp wrote, with no warp-scope
// barrier between the two (`__syncwarp()`, a block barrier, a group's
// `sync()`). They are SharedAccesses.h's conflicts at warp barrier scope
// (SharedAccessOptions::BarrierScope = Warp), kept only where every witness
// is two lanes of one warp: a pair of one interval that threads of two warps
// can make is a block race (cuda-shared-memory-race's), and no __syncwarp()
// orders it, so its whole interval is left to that rule.
//
// One exchange is the racing reads of one variable in one warp-barrier
// interval, in source order: an unsynchronized sequence, such as the steps
// of a `volatile` last-warp reduction.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_WARPEXCHANGES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_WARPEXCHANGES_H

#include "checks/analysis/memory/SharedAccesses.h"

#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class CompoundStmt;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// A read that another lane's write of the same warp can race with.
struct RacingRead {
  const SharedAccess *Read = nullptr;
  /// The first racing write (in source order).
  const SharedAccess *Write = nullptr;
  /// Two lanes of one warp, Write's lane first.
  SharedConflict Witness;
  /// Some racing write is in an earlier statement than the read's (so a
  /// `__syncwarp()` before the read's statement orders it).
  bool WriteBefore = false;
};

/// The racing reads of one variable in one warp-barrier interval.
struct WarpExchange {
  const VarDecl *Var = nullptr;
  /// In source order; never empty.
  std::vector<RacingRead> Reads;
  /// Every access of the variable in the interval, in source order.
  std::vector<const SharedAccess *> Members;
};

/// The exchanges among \p AtWarp's accesses (an analysis at warp barrier
/// scope), ordered by their first access.
std::vector<WarpExchange> warpExchanges(const SharedAccessAnalysis &AtWarp,
                                        ASTContext &Ctx);

/// The statement holding \p E that is a direct child of a compound
/// statement (through a local's initialiser up to its DeclStmt), and that
/// compound statement; nulls when there is none.
std::pair<const Stmt *, const CompoundStmt *>
enclosingStatement(const Expr *E, ASTContext &Ctx);

} // namespace clang::tidy::cuda::analysis

#endif
