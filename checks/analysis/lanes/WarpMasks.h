//===--- WarpMasks.h - the lane masks warp intrinsics are called with -----===//
//
// What a `*_sync` intrinsic's mask is, as far as the code shows:
//  - a value: a constant expression (literals, macros, const and constexpr
//    variables, UINT_MAX, casts), or a local of the function initialised to
//    one and never changed afterwards (MaskEvaluator);
//  - or a parameter of the function, passed unchanged (maskParameter): then
//    each call site decides, with the argument it passes or the parameter's
//    default (boundArgument). moderngpu's `ballot(int, unsigned mask =
//    MEMBERMASK)` and FBGEMM's `shfl_xor(v, lane, mask = kFullWarpMask)`
//    are full-mask intrinsics at every call that leaves the default.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_WARPMASKS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_WARPMASKS_H

#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/APSInt.h"
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// Folds the value of a mask expression in function \p FD.
class MaskEvaluator {
public:
  MaskEvaluator(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}

  std::optional<llvm::APSInt> value(const Expr *E, unsigned Depth = 0);

private:
  bool isMutated(const VarDecl *Var);

  const FunctionDecl *FD;
  ASTContext &Ctx;
  std::optional<ExprMutationAnalyzer> Analyzer;
};

/// The value names all 32 lanes once converted to the intrinsics' 32-bit
/// unsigned mask parameter.
bool isFullWarpMask(const llvm::APSInt &Value);

/// The index of the parameter of \p FD that \p Mask reads, when the mask is
/// that parameter passed on unchanged (through conversions; the parameter
/// never written in \p FD).
std::optional<unsigned> maskParameter(const Expr *Mask, const FunctionDecl *FD,
                                      ASTContext &Ctx);

/// What \p Call binds to its callee's parameter \p Index: the argument, or
/// the parameter's default (the default's expression) when the call leaves
/// it out. nullptr when the call has no such parameter (or is an operator
/// call, whose arguments do not line up with the parameters).
const Expr *boundArgument(const CallExpr *Call, unsigned Index);

} // namespace clang::tidy::cuda::analysis

#endif
