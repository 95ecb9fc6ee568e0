//===--- BlockExtentGuards.h - exits that only an oversized block takes ---===//
//
//   int col = threadIdx.x;
//   if (col >= ncols_pad) return;   // ggml argsort: launched with
//   ...                             // blockDim.x == ncols_pad
//   __syncthreads();
//
// The exit compares one plain thread index of the block with a bound that is
// the same for every thread of the block and not a literal (a kernel
// parameter, a template argument, a value computed from them). Only threads
// at or beyond the bound take it, so it is taken only when the kernel is
// launched with a block wider than the bound in that dimension. Code like
// this is a guard against an oversized launch: whether any thread exits is a
// fact of the launch, which the kernel does not show. A finding that needs
// the exit to be taken is then potential (issue 14, "a precondition outside
// the kernel"), and its message names the launch fact.
//
// The index may be a warp index (`const int warp_id = threadIdx.x / 32;
// if (warp_id >= n_group || num_warps < n_group) return;`, vllm's grouped
// top-k, launched with n_group warps): only warps at or beyond the bound
// leave, so only a block wider than 32 * n_group makes anyone leave. Other
// operands of a `||` or `&&` chain that are the same for the whole block do
// not change which threads leave alone.
//
// Not a guard: a literal bound (`if (threadIdx.x >= 32) return;` trims the
// block on purpose), a global index (`blockIdx.x * blockDim.x + threadIdx.x`
// runs past n in the last block whatever the launch), or an exit on the low
// side (`if (tid < n) return;`).
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_BLOCKEXTENTGUARDS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_BLOCKEXTENTGUARDS_H

#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class ValueDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FunctionDivergence;

struct BlockExtentGuard {
  char Dimension = 'x';            ///< Of threadIdx: 'x', 'y' or 'z'.
  const Expr *Bound = nullptr;     ///< As written in the condition.
  const ValueDecl *Index = nullptr; ///< The local holding threadIdx.D (or
                                    ///< its quotient), or null when the
                                    ///< condition reads it.
  /// Threads per unit of the index: 1 for threadIdx.D, 32 for a warp index
  /// `threadIdx.x / 32` (the exit is then for threads at or beyond
  /// Scale * Bound).
  uint64_t Scale = 1;
};

/// When \p Exit (a return) leaves under the if statement that \p Branch is
/// (or whose condition holds \p Branch, an operand's terminator of a
/// short-circuit condition) exactly for the threads whose threadIdx.D is at
/// or beyond a block-uniform, non-literal bound (`threadIdx.D >= B`, `> B`,
/// `B <= threadIdx.D`, or the exit in the else branch of `threadIdx.D <
/// B`), the guard; else nullopt. threadIdx.D may be read through a local
/// initialised to it that nothing assigns, and divided by a positive
/// constant or shifted right (`warp_id >= n_warps`: Scale 32). The
/// condition may be a chain of `||` (or of `&&`) whose other operands are
/// the same for the whole block. Kernels only: a __device__ function's
/// bound is whatever its caller passes. \p D judges the uniformity of the
/// bound and of the other operands.
std::optional<BlockExtentGuard>
blockExtentGuard(const Stmt *Branch, const Stmt *Exit,
                 const FunctionDivergence &D, ASTContext &Ctx);

/// The guard's bound as the user wrote it (`ncols_pad`), for messages;
/// "the bound" when it is long or not in the source.
std::string boundSpelling(const BlockExtentGuard &Guard,
                          const ASTContext &Ctx);

} // namespace clang::tidy::cuda::analysis

#endif
