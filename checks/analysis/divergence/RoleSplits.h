//===--- RoleSplits.h - warp-aligned roles that run the same barriers -----===//
//
// A block is often split into roles by whole warps, each side running its
// own copy of the block's barriers:
//
//   if (threadIdx.x < fill_threads) {      // fill_threads = 256: whole warps
//     fill(...);
//     __syncthreads(); __syncthreads();    // two barriers, then leave
//     return;
//   }
//   count(...);  __syncthreads();
//   scan(...);   __syncthreads();          // two barriers for the others
//
// A block barrier counts arrivals (PTX `bar.sync`): the k-th barrier one
// role runs completes with the k-th the other role runs, wherever in the
// code each stands. So when every thread of each side runs the same number
// of block barriers, and no warp is split between the sides, the barriers
// match one to one (vllm's moe_align_block_size small-batch kernel). A split
// inside a warp is still a hazard: on an H200 such a kernel reports
// "Divergent thread(s) in block" under synccheck at -O3 and hangs at -G
// (shared/reference/h200-observations.md), so the condition must be uniform
// within warps.
//
// The count is exact only for straight-line code: every barrier (or call
// that synchronizes the block) stands at the top level of its side, or in an
// if/else whose branches run equal counts; no side leaves early except by
// the final `return` of the splitting branch; and the split itself is
// reached by the whole block.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_ROLESPLITS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_ROLESPLITS_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace clang {
class CallExpr;
class Stmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// How a call takes part in block synchronization.
enum class SyncKind : unsigned char {
  None,      ///< Does not synchronize the block.
  Barrier,   ///< One block barrier, executed once per call.
  Unknown,   ///< Synchronizes, an unknown number of times (a callee).
};

/// The number of block barriers every thread that runs \p S executes, when
/// it is the same for all of them whatever their path (straight-line
/// barriers, if/else arms with equal counts), or nullopt. \p Classify says
/// which calls are barriers. A `return`, `goto`, or a `break`/`continue`
/// leaving \p S makes the count unknown.
std::optional<unsigned>
exactBarrierCount(const Stmt *S,
                  llvm::function_ref<SyncKind(const CallExpr *)> Classify);

/// True when \p Reason (the nearest divergence at a block barrier of \p D)
/// is a branch splitting the block by whole warps into roles that each run
/// the same exact number of block barriers: `if (c) { ...; return; }
/// rest-of-function` or `if (c) { ... } else { ... }`, with \p c uniform
/// within warps and the branch reached by the whole block.
bool isMatchedRoleSplit(const FunctionDivergence &D,
                        const DivergenceReason &Reason,
                        llvm::function_ref<SyncKind(const CallExpr *)>
                            Classify);

} // namespace clang::tidy::cuda::analysis

#endif
