//===--- ExitedThreads.h - threads that leave and never synchronize again --===//
//
// Since Volta a block barrier waits only for threads that have not exited,
// and a `*_sync` warp intrinsic only for the non-exited lanes its mask
// names (the PTX ISA; the CUDA Programming Guide: "all non-exited threads
// named in mask must execute the same intrinsic"). A thread that misses a
// barrier is then harmless when it is on its way out: it returned from the
// kernel, or it skipped the branch or left the loop that holds the barrier
// and reaches no synchronization of that scope again before the kernel
// ends:
//
//   if (i < n) {                 // threads with i >= n skip the block ...
//     tile[t] = in[i];
//     __syncthreads();           // ... and exit: the barrier completes
//     out[i] = tile[t];
//   }                            // nothing synchronizes after this
//
// It is still a bug when a surviving thread reads what a leaving one should
// have written (memory/SharedExchange.h), and it hangs under HIP, where
// exited threads do not count as arrived (api/HipPortability.h). This file
// says only whether the threads that miss a point leave for good.
//
// The test is structural, in source order: the branch (or loop) is in the
// kernel itself, not inside a loop of it, the kernel has no goto, and no
// call after the branch's end synchronizes at the scope asked about.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_EXITEDTHREADS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_EXITEDTHREADS_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CallExpr;
class Stmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// Where the threads that miss \p Point (a barrier or warp collective that
/// \p Reason makes divergent) leave, when they leave for good: the
/// `return` (an early exit from the kernel itself), or the if or loop they
/// skip or leave early (by its condition or a break) when nothing they run
/// afterwards synchronizes (\p Synchronizes says which calls do, e.g. block
/// barriers and calls that reach one). Null when they may synchronize
/// again, or when \p Reason is not in kernel \p D's own body.
const Stmt *whereLeaversExit(const FunctionDivergence &D,
                             const DivergenceReason &Reason, const Stmt *Point,
                             llvm::function_ref<bool(const CallExpr *)>
                                 Synchronizes);

} // namespace clang::tidy::cuda::analysis

#endif
