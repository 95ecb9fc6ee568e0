//===--- ForwardingWrappers.h - helpers that pass a call on ---*- C++ -*-===//
//
// Projects wrap the warp intrinsics in one-line device functions: a shuffle
// whose width and mask are parameters with defaults (FBGEMM's
// `shfl_sync(val, srcLane = 0, width = kWarpSize, mask = kFullWarpMask)`,
// PyTorch's `WARP_SHFL(value, srcLane, width = warpSize, mask = ...)`), a
// vote under a portable name. The helper's own body sees only parameters,
// so what its result is (a broadcast, uniform over the warp when the source
// lane is) depends on the arguments of each call: a width that is a
// parameter is unknown inside the helper, and the result was taken as
// varying by lane at every call, which made every loop that exits on a
// broadcast value look lane-divergent.
//
// A forwarding wrapper is a function whose body is a single `return` of a
// modelled API call (knownResultModel) each of whose arguments is one of
// the wrapper's parameters (through casts) or a constant, or of a call of
// another forwarding wrapper (four levels at most). At a call of one, the
// API call is modelled as if written at the call site, with the call's own
// arguments (defaults included) in place of the parameters.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_API_FORWARDINGWRAPPERS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_API_FORWARDINGWRAPPERS_H

#include "checks/analysis/api/CudaBuiltins.h"

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang {
class CallExpr;
class Expr;
} // namespace clang

namespace clang::tidy::cuda::analysis {

struct ForwardedCall {
  /// The API call in the innermost wrapper's body.
  const CallExpr *Inner = nullptr;
  /// Its model; the argument indices refer to Args.
  ResultModel Model;
  /// The API call's arguments as the outer call spells them: the outer
  /// call's argument (or default) for a parameter, the constant itself
  /// otherwise.
  llvm::SmallVector<const Expr *, 4> Args;
};

/// When \p Call calls a forwarding wrapper (see the file comment) of a
/// shuffle, a warp vote or reduction, or a function returning its first
/// argument: that API call with \p Call's arguments. nullopt for any other
/// call, a member call, and an API call modelled by other means
/// (knownResultModel of \p Call itself).
std::optional<ForwardedCall> forwardedResultModel(const CallExpr *Call,
                                                  bool AssumeWarpAlignedRows);

} // namespace clang::tidy::cuda::analysis

#endif
