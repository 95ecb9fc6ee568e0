//===--- AsyncCopies.h - asynchronous copies into memory, and their waits -===//
//
// The asynchronous copies of a function (`cg::memcpy_async`,
// `cuda::memcpy_async` with a pipeline or a barrier, `__pipeline_memcpy_async`),
// the waits that complete them, and the accesses to a copy's destination made
// while the copy may still be in flight.
//
// A copy writes its destination at some time before the wait that completes
// it returns; until then a read may see the old value and a write may be
// overwritten. A thread's copies form *stages*, oldest first: each
// `cg::memcpy_async` is one (it commits), and the pipeline forms collect their
// copies until `producer_commit()` / `__pipeline_commit()`. The waits:
//
//   cg::wait(g)                        every stage; ends with g.sync()
//   cg::wait_prior<N>(g)               all but the newest N; g.sync()
//   __pipeline_wait_prior(N)           all but the newest N, this thread's
//   cuda::pipeline_consumer_wait_prior<N>(p)   all but the newest N
//   p.consumer_wait() (_for, _until)   the oldest stage
//   bar.arrive_and_wait(), bar.wait(t) the copies tied to a cuda::barrier
//
// A forward dataflow over the CFG carries, per path, the queue of stages in
// flight (a few queues per point, a few stages per queue; beyond that they
// are merged). A copy that a wait left in flight while completing older ones
// is *staged*: which slot of a multi-stage buffer it writes is then a runtime
// value (`buf[k % S]`), so an access conflicts with it only when it provably
// touches the same place (the copy starts at the buffer's start, or the two
// name the same constant row). A copy no wait has touched conflicts with every
// access to its buffer except one provably elsewhere (another constant row).
//
// The waits of a thread-scope pipeline and of the primitives complete only
// the calling thread's copies; a thread that reads a cell another thread
// copied also needs a block barrier after the wait. Such copies stay *done
// for this thread* until the barrier, and an access whose subscripts differ
// from the copy's is reported as reading another thread's copy.
// (cg::wait and the waits of a block-scope pipeline or barrier complete the
// group's copies.)
//
// Also: a `cuda::aligned_size_t<N>` promise on a destination or source whose
// offset from an N-aligned buffer is provably not a multiple of N.
//
// Not followed: copies made in a callee (a call to a function that waits
// completes everything, which errs towards no finding), raw `cp.async`
// assembly, and two copies into one place.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_ASYNCCOPIES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_ASYNCCOPIES_H

#include "checks/analysis/api/CudaBuiltins.h"

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

// The API of the copies, the waits and the commits (AsyncCopyApi,
// AsyncWait, asAsyncWait, isAsyncCommit) is the API model's
// (api/CudaBuiltins.h).

struct AsyncCopy {
  const CallExpr *Call = nullptr;
  AsyncCopyApi Api = AsyncCopyApi::CooperativeGroups;
  /// The destination and source arguments.
  const Expr *Destination = nullptr;
  const Expr *Source = nullptr;
  /// The bytes copied, when constant.
  std::optional<uint64_t> Bytes;
  /// The variable the destination points into (an array, or a pointer
  /// parameter or variable), through local pointers with one value; nullptr
  /// when it cannot be told.
  const VarDecl *Buffer = nullptr;
  /// The outermost subscript (or pointer offset) of the destination into
  /// Buffer; nullptr when the copy starts at Buffer's start.
  const Expr *Leading = nullptr;
  /// Every subscript of the destination, outermost first.
  std::vector<const Expr *> Indices;
  /// The wait completes the copy for the calling thread only (a
  /// thread-scope pipeline, the primitives).
  bool ThreadScope = false;
  /// N of a cuda::aligned_size_t<N> size argument; 0 when none.
  unsigned PromisedAlignment = 0;
  /// How many bytes past an N-aligned address the destination and the
  /// source provably are (0: aligned); nullopt when unknown.
  std::optional<unsigned> DestinationMisalignment;
  std::optional<unsigned> SourceMisalignment;
  /// "cooperative_groups::memcpy_async", ... for messages.
  std::string Spelling;
};

/// The copy \p Call makes (asAsyncCopyCall), or nullopt.
std::optional<AsyncCopy> asAsyncCopy(const CallExpr *Call, ASTContext &Ctx);

/// An access to a copy's destination while the copy may be in flight.
struct EarlyAccess {
  /// The access: the subscript expression, or the variable.
  const Expr *Access = nullptr;
  const VarDecl *Buffer = nullptr;
  bool Writes = false;
  /// The copy it meets (an index into copies()).
  unsigned Copy = 0;
  enum Reason {
    /// No wait completes the copy between it and the access on some path.
    NoWait,
    /// A wait completed older stages and left this copy's in flight.
    LeftInFlight,
    /// A wait completed the copy for this thread only, and the access may
    /// touch a cell another thread copied; no block barrier since.
    OtherThreads,
  } Why = NoWait;
  /// LeftInFlight and OtherThreads: the wait.
  const CallExpr *Wait = nullptr;
};

class AsyncCopyAnalysis {
public:
  /// The copies of \p FD and the accesses that meet them. \p Manager
  /// supplies the CFG (the divergence analysis's).
  AsyncCopyAnalysis(const FunctionDecl *FD, ASTContext &Ctx,
                    FactQueries &Manager);
  ~AsyncCopyAnalysis();
  AsyncCopyAnalysis(const AsyncCopyAnalysis &) = delete;
  AsyncCopyAnalysis &operator=(const AsyncCopyAnalysis &) = delete;

  llvm::ArrayRef<AsyncCopy> copies() const;
  /// In source order of the access; one per access (the oldest copy it
  /// meets).
  llvm::ArrayRef<EarlyAccess> earlyAccesses() const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::analysis

#endif
