//===--- ReturnAlignment.h - powers of two a small function's result keeps -===//
//
// Rounding is written once, in a helper, and called everywhere:
//
//   template <typename U, typename V>
//   constexpr __device__ auto roundDown(U a, V b) { return divDown(a, b) * b; }
//   ...
//   int limit = utils::roundDown(n, kWarpSize);
//   for (int i = threadIdx.x; i < limit; i += blockDim.x)   // whole warps
//     v = __shfl_xor_sync(0xffffffff, v, 1);
//
// The call's value is a multiple of 32 because its body multiplies by the
// second argument; the callee's summary cannot say so (its result's
// alignment depends on what the caller passes). This file evaluates the
// known power-of-two factor of such a helper's result at one call, from the
// factors of the arguments there: `a * b` adds, `a + b` and `a - b` keep the
// smaller, `a & b` the larger, `a << k` adds k, `-a` and casts keep it,
// `c ? a : b` the smaller, a constant its trailing zeros, a parameter its
// argument's, a call of another such helper its own (to a small depth).
// A helper is a small function (at most 16 statements) whose every `return`
// has a value: the result keeps the smallest factor of its returns
// (`if (len == 0) return 0; return ((len - 1) / 32 + 1) * 32;`), and a
// parameter the body changes is not its argument. That is how rounding,
// alignment and index helpers are written (faiss's
// `utils::roundDown`/`roundUp`, vllm's `round_up_to_multiple_of<32>`,
// `ALIGN_UP` turned into a function).
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_RETURNALIGNMENT_H
#define CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_RETURNALIGNMENT_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// log2 of the largest power of two known to divide what \p Callee returns
/// when its parameters are multiples of 2^ArgAlignLog2[i] (63: zero) and,
/// where known, equal to ArgValues[i] (a shift count), or 0 when \p Callee
/// is not a helper (see above) or nothing is known.
unsigned returnAlignLog2(const FunctionDecl *Callee,
                         llvm::ArrayRef<unsigned> ArgAlignLog2,
                         llvm::ArrayRef<std::optional<uint64_t>> ArgValues,
                         const ASTContext &Ctx);

} // namespace clang::tidy::cuda::analysis

#endif
