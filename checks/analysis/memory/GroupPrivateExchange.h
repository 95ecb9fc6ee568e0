//===--- GroupPrivateExchange.h - exchanges confined to groups of threads -===//
//
// SharedExchange.h asks whether a survivor of `if (...) return;` reads, after
// a barrier, a __shared__ element that another thread wrote. Many kernels
// split the block into groups of W consecutive threads (a pillar of points, a
// row of a matrix, a stripe of a code word) and exchange only inside a group:
//
//   int g = threadIdx.x / W;                 // the group
//   if (g_global >= n) return;               // whole groups leave
//   tile[g][threadIdx.x % W] = ...;          // the group's own row
//   __syncthreads();
//   ... tile[g][k] ...                       // read inside the group
//
// or, flat, `buf[threadIdx.x]` written and `buf[(threadIdx.x / W) * W + j]`
// read for 0 <= j < W. When every exit before the barrier removes whole
// groups and every access to __shared__ memory stays in the accessing
// thread's group, no survivor reads what an exited thread should have
// written: the exit is harmless on NVIDIA GPUs since Volta (exited threads
// count as arrived), the potential tier of cuda-divergent-barrier.
//
// W may be a constant (`int w = 5;`) or a value the whole block shares (a
// kernel parameter: `warp_size = max_points`); it needs no power of two. An
// exit on a global index `M + threadIdx.x >= B`, with M a multiple of W and
// B a bound the tool cannot see (a parameter), keeps groups whole only when B
// is a multiple of W: such bounds are returned so that the finding can name
// them (still potential: the fact is outside the kernel).
//
// Recognised forms, through unmodified locals (ExprMutationAnalyzer):
// - the group of a thread: `threadIdx.x / W` (`>> k` for W = 2^k);
// - group-uniform values: literals, parameters, blockIdx/blockDim/gridDim,
//   the group, global (not __shared__) memory read at group-uniform places,
//   and any arithmetic, comparison or conditional of them; `threadIdx.x`
//   compared with a multiple of W (`blockDim.x / W * W`);
// - a thread's part of an array: a multi-dimensional __shared__ array whose
//   first subscript is the group, or a flat one subscripted by `threadIdx.x`
//   or by `(threadIdx.x / W) * W + j` with `j` the thread's `threadIdx.x % W`
//   or the counter of `for (j = 0; j < W; ++j)` (not assigned in the body).
// Kernels only; threadIdx.y and threadIdx.z are not group-uniform (a 2-D
// block's groups are not these), and calls are not either (a callee may read
// its thread's index). A kernel that calls code of the project (a function
// defined outside system headers, a call through a pointer, a lambda) gets
// no answer: what the callee does to __shared__ memory after the exit (a
// tree reduction over the block) is not in this body. Anything else: no
// answer.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_GROUPPRIVATEEXCHANGE_H
#define CUDA_TIDY_CHECKS_ANALYSIS_GROUPPRIVATEEXCHANGE_H

#include "clang/Basic/SourceLocation.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// The groups a kernel's threads exchange __shared__ data in, when every
/// exit before a barrier leaves them whole.
struct GroupPrivateExchange {
  /// W as the code spells it (`w`, `warp_size`, `32`).
  std::string Width;
  /// The first `return` before the barrier (where the note goes).
  SourceLocation FirstExit;
  /// Exit bounds that keep groups whole only when they are multiples of W
  /// (`idx >= size` with `idx = M + threadIdx.x`): the bound as spelled,
  /// and where it is.
  struct Precondition {
    std::string Bound;
    SourceLocation Where;
  };
  std::vector<Precondition> Preconditions;
};

/// The groups of \p Kernel's exchange (see the file comment) for the
/// threads that return before \p Barrier, a barrier call in the kernel's
/// own body; nullopt when any exit or access is outside the recognised
/// forms, or when no exit precedes the barrier.
std::optional<GroupPrivateExchange>
groupPrivateExchange(const FunctionDecl *Kernel, const Stmt *Barrier,
                     ASTContext &Ctx);

} // namespace clang::tidy::cuda::analysis

#endif
