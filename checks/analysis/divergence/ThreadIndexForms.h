//===--- ThreadIndexForms.h - thread-dependent terms that cancel ----------===//
//
// A loop written as
//
//   for (int t = X + tid; t < Y + tid; t += C)
//
// walks a per-thread range whose bounds move with the thread's index by the
// same term `tid`: `t - tid` starts at X and stops at Y for every thread, so
// the trip count is as uniform as X, Y and C, however thread-dependent t and
// the bound are. ggml's wkv/gla kernels sync inside such loops. The
// divergence analysis alone sees `t < Y + tid` compare two varying values;
// this recognises the shape syntactically (sums whose addends include the
// same expression, written the same way, on both sides) so that the
// analysis can judge the loop by the remaining addends.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_THREADINDEXFORMS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_THREADINDEXFORMS_H

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class ForStmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// A for loop whose thread-dependent term cancels between its start and
/// its bound.
struct CancellingLoop {
  /// A term added to both the start and the bound (`tid`); every addend
  /// they share cancels.
  const Expr *SharedTerm = nullptr;
  /// Everything else the trip count depends on: the other addends of the
  /// start and the bound, and the step. The trip count is as uniform as
  /// their join.
  llvm::SmallVector<const Expr *, 6> Deciding;
};

/// Recognises `for (V = X + T; V < Y + T; V += C)` (any order of addends;
/// <, <=, >, >=, !=; V += C, V -= C, V = V + C, ++V, V++) where neither V
/// (outside the increment) nor the variables of T are assigned in the loop,
/// and T reads no memory through a pointer and calls nothing.
std::optional<CancellingLoop> asCancellingLoop(const ForStmt *For,
                                               const ASTContext &Context);

} // namespace clang::tidy::cuda::analysis

#endif
