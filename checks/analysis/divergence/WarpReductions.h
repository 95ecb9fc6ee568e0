//===--- WarpReductions.h - butterfly reductions over warp lanes ----------===//
//
// After a butterfly reduction every lane of the reduced segment holds the
// same value:
//
//   for (int o = 16; o > 0; o >>= 1)
//     x += __shfl_xor_sync(0xffffffff, x, o);      // or x = fmaxf(x, ...)
//
// Inside the loop `x` differs from lane to lane (partial results); once the
// loop has run its log2(width) steps, each lane has combined the values of
// all `width` lanes of its segment, so `x` is uniform within aligned tiles
// of `width` lanes. The dataflow alone sees `x` fed by a shuffle and calls
// it varying; this recognises the loop so that the analysis can give `x` the
// tile's uniformity where the loop exits. Both the descending
// (o = width/2 ... 1) and the ascending (o = 1 ... width/2) forms, and
// ggml's wrappers (`warp_reduce_sum<width>`), are this shape.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_WARPREDUCTIONS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_WARPREDUCTIONS_H

#include <optional>

namespace clang {
class ASTContext;
class ForStmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

struct ButterflyLoop {
  /// The variable reduced in place.
  const VarDecl *Value = nullptr;
  /// The lanes of each reduced segment: a power of two, at most 32.
  unsigned Width = 32;
};

/// Recognises a for loop whose only statement combines a variable with its
/// `__shfl_xor_sync` at the loop's offset, the offsets covering every
/// power of two below the width once.
std::optional<ButterflyLoop> asButterflyLoop(const ForStmt *For,
                                             const ASTContext &Context);

} // namespace clang::tidy::cuda::analysis

#endif
