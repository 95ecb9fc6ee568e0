//===--- BarrierIntervals.h - the code threads run between barriers ------===//
//
// A barrier interval (GPUVerify's term) is the code a block's threads can run
// between two block-scope barriers: in the CFG with every barrier cut out,
// the statements one barrier-free path connects. Two accesses of one
// interval may run at the same time in different threads; two accesses that
// every path separates by a barrier may not.
//
// The CFG's blocks are split at their barriers into segments; a segment's end
// joins the start of each successor's first segment. Intervals are the
// connected components of that graph (union-find, linear in the CFG). An
// interval is *cyclic* when a barrier-free path runs around a loop back edge
// (a strongly connected component of segments, or a segment that is its own
// successor): then its statements from different iterations can run at the
// same time, which is how a loop without a trailing barrier races with its
// next iteration.
//
// A branch no execution takes is left out of the graph: an `if` inside a
// `for`/`while` body that repeats (or negates) a conjunct of the loop's
// condition, over values the body never changes, so that
// `if (j < n) __syncthreads();` at the end of `for (j = 0; j < n; ++j)` is a
// barrier on every path around the back edge.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_BARRIERINTERVALS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_BARRIERINTERVALS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
class Stmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class BarrierIntervals {
public:
  /// \p IsBarrier says which CFG elements are block-scope barriers.
  BarrierIntervals(const CFG &Cfg,
                   llvm::function_ref<bool(const Stmt *)> IsBarrier);

  /// The interval of statement \p S (a CFG element), or nullopt when it is
  /// not an element or is a barrier itself.
  std::optional<unsigned> intervalOf(const Stmt *S) const;
  /// Statements of this interval from different iterations of a loop can run
  /// at once (a barrier-free path around a back edge).
  bool isCyclic(unsigned Interval) const;
  unsigned size() const { return static_cast<unsigned>(Cyclic.size()); }

  /// The barrier-free segment of statement \p S (a CFG element).
  std::optional<unsigned> segmentOf(const Stmt *S) const;
  /// Segment \p Segment lies on a barrier-free cycle: its statements from
  /// one iteration can run at the same time as those of the next.
  bool segmentOnCycle(unsigned Segment) const;
  /// The strongly connected component of a segment (segments that reach one
  /// another without a barrier).
  unsigned componentOf(unsigned Segment) const;

  /// How two statements of the function can run at the same time in
  /// different threads, with no barrier between them.
  enum class Meeting {
    Never,
    /// In the same iteration of every loop around both: a barrier-free path
    /// joins them without a back edge, or both follow a branch that threads
    /// of a block can take differently.
    SameIteration,
    /// Only around a back edge: the second in a later iteration.
    LaterIteration,
    /// On one barrier-free cycle: in any iterations.
    AnyIteration,
  };
  /// Precomputes the meetings of \p Points (CFG elements); \p Divergent
  /// says which blocks end in a branch the threads of a block may take
  /// differently.
  void relate(llvm::ArrayRef<const Stmt *> Points,
              llvm::function_ref<bool(const CFGBlock *)> Divergent);
  Meeting meeting(const Stmt *A, const Stmt *B) const;

private:
  std::vector<bool> OnCycle;
  /// Segment graph, with the back edges marked.
  std::vector<std::vector<std::pair<unsigned, bool>>> Edges;
  std::vector<unsigned> LastSegmentOfBlock;
  const CFG *Graph = nullptr;
  /// Per related point's segment: what it reaches without a back edge, and
  /// with them (sorted segment numbers).
  llvm::DenseMap<unsigned,
                 std::pair<std::vector<unsigned>, std::vector<unsigned>>>
      Reach;
  /// The segments after a divergent branch, without back edges (sorted).
  std::vector<std::vector<unsigned>> AfterDivergence;
  std::vector<unsigned> Component;
  /// Element -> its segment.
  llvm::DenseMap<const Stmt *, unsigned> SegmentOf;
  /// Segment -> interval.
  std::vector<unsigned> IntervalOfSegment;
  /// Interval -> cyclic.
  std::vector<bool> Cyclic;
};

} // namespace clang::tidy::cuda::analysis

#endif
