//===--- SharedAccesses.h - who touches which __shared__ cell, and when ---===//
//
// The accesses a kernel makes to its `__shared__` variables, and the exact
// question a race rule asks of two of them: can two different threads of a
// block touch the same cell, at least one of them writing, within one barrier
// interval (BarrierIntervals.h)?
//
// An access is a read, a write, both (`s[i] += v`, `++s[i]`) or an atomic
// (`atomicAdd(&s[i], v)`), on a variable named directly, with one index per
// subscript. Each index is evaluated for concrete threads: threadIdx from the
// thread (a thread_block's thread_rank() its linear index, its
// thread_index() threadIdx, a static tile's thread_rank() the lane in the
// tile; a grid's thread_rank() is not evaluated), blockDim from the block
// shape, loop counters by running their loop
// (init, condition, step) for that thread, constants and locals with one
// value followed; what stays is a sum of block-uniform terms (a kernel
// parameter, blockIdx, a uniform local with one value) with integer
// coefficients, compared term by term. An index with anything else in it
// (a loaded value, a counter changed elsewhere, a thread-dependent unknown)
// is not evaluated, and the pair is left alone: a conflict is claimed only
// when the tool can show two threads and a cell.
//
// The conditions of an access that evaluate for a thread decide whether it
// makes the access: the enclosing `if`s, the `c ? s[i] : v` and `c && s[i]`
// around it, and the exits before it in the blocks that hold it (`if (c)
// return;`, and `break;` or `continue;` of the loop around it: the access
// needs !c). One that depends on an unknown bound (`tid < n`) is taken to let
// it through; conditions that ask one __shared__ cell to equal a constant
// and to differ from it (for that thread's cells) never all hold. A local
// pointer initialised to a one-dimensional array (`T *p = s;`, `volatile T
// *p = s;`, `= &s[0]`) and never changed stands for the array: `p[i]` is an
// access of `s`. A variable whose address escapes otherwise (passed to a
// function, offset, bound to a pointer that changes) is not tracked at all.
// With call-site context (SharedAccessOptions::Call) a device function's
// pointer parameters are bound to the arrays a call passes, its other
// parameters are the call's arguments, and the call's conditions and loops
// in the kernel decide which threads run it.
//
// The block is the one the TU's launches give (LaunchShape.h), else 256
// threads in x (16 x 16 when the kernel reads threadIdx.y, 8 x 8 x 2 when it
// reads threadIdx.z); a guessed extent is at most the length of an array
// dimension that threadIdx of that extent subscripts directly, guessed
// extents are halved until the block has at most 256 threads, and the
// launches' are kept as they are (up to 1024 threads). A conflict found in a
// guessed extent must also show at half of it.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_SHAREDACCESSES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_SHAREDACCESSES_H

#include "checks/analysis/core/Uniformity.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

struct SharedAccess {
  enum Kind { Read, Write, ReadWrite, Atomic } K = Read;
  const VarDecl *Var = nullptr;
  /// The whole access (`tile[ty][tx]`, or the variable for a scalar).
  const Expr *Where = nullptr;
  /// The reference to the variable: the CFG element the interval is read at.
  const Expr *Ref = nullptr;
  /// One per subscript, outermost first.
  std::vector<const Expr *> Indices;
  /// For a write: the value stored, when it is a plain assignment.
  const Expr *Stored = nullptr;
  /// Made through a local pointer or a bound parameter (`p[i]`, with `p`
  /// holding the array), not through the array's name.
  bool ThroughPointer = false;
  bool writes() const { return K == Write || K == ReadWrite; }
};

/// A thread of the block, by coordinates.
using ThreadCoord = std::array<unsigned, 3>;

/// How a finding names thread \p T of a block of shape \p Shape: "thread 3"
/// in a one-dimensional block, "thread (3, 1)" or "thread (3, 1, 0)".
std::string threadName(const ThreadCoord &T, const ThreadCoord &Shape);

/// Two threads that touch one cell, the first one by the first access.
struct SharedConflict {
  ThreadCoord First{};
  ThreadCoord Second{};
  /// The two threads are in different warps (else only __syncwarp is
  /// missing: cuda-implicit-warp-sync's rule, not a block race).
  bool CrossWarp = false;
  /// The cell, as written in the source with the values for these threads
  /// ("tile[0]").
  std::string Cell;
  /// The accesses are from different iterations of a loop they share.
  bool AcrossIterations = false;
};

/// The accesses of one variable in one barrier interval, in source order:
/// the only accesses conflict() relates to one another.
struct SharedAccessGroup {
  const VarDecl *Var = nullptr;
  unsigned Interval = 0;
  std::vector<const SharedAccess *> Members;
};

/// What a SharedAccessAnalysis is asked for.
struct SharedAccessOptions {
  /// The barriers that end an interval: Block (the __syncthreads family, and
  /// calls that run one), or Warp (those, and `__syncwarp()`, a group's
  /// `sync()`, `cg::sync(group)`, and calls that run one of them).
  Scope BarrierScope = Scope::Block;
  /// Call-site context: analyze the device function the call \p Call (in
  /// kernel \p Caller) calls, for the threads of the caller's block that make
  /// the call (its `if`s, exits and loops), with each pointer parameter bound
  /// to the `__shared__` array the call passes (directly, or a local pointer
  /// that holds one), and its other parameters evaluated from the call's
  /// arguments. Only the callee's accesses are related to one another.
  const CallExpr *Call = nullptr;
  const FunctionDecl *Caller = nullptr;
};

class SharedAccessAnalysis {
public:
  /// The accesses of kernel \p Kernel (nothing for a device function unless
  /// \p Options names a call to it: its pointers are bound by callers).
  /// \p Sibling, an analysis of the same function and call at another
  /// barrier scope, lends its per-thread evaluations (they do not depend on
  /// the scope): each access is evaluated once for both rules.
  SharedAccessAnalysis(const FunctionDecl *Kernel, ASTContext &Ctx,
                       FactQueries &Manager,
                       SharedAccessOptions Options = {},
                       const SharedAccessAnalysis *Sibling = nullptr);
  ~SharedAccessAnalysis();

  llvm::ArrayRef<SharedAccess> accesses() const;
  /// The barrier interval of an access (nullopt: unreachable or unknown).
  std::optional<unsigned> intervalOf(const SharedAccess &A) const;
  bool isCyclic(unsigned Interval) const;
  /// The accesses bucketed by variable and interval (accesses outside every
  /// interval left out), ordered by each group's first access.
  std::vector<SharedAccessGroup> groups() const;
  /// Two different threads touch one cell through \p A and \p B (same
  /// variable, at least one writing, not both atomic, one barrier interval).
  /// Which iterations of their shared loops can meet follows the barrier-free
  /// paths: accesses on a barrier-free cycle meet in any iterations; others
  /// in the same one, and a pair joined only around a back edge is left
  /// alone when its cells depend on that loop's counter. A witness preferring
  /// threads of different warps; nullopt when none can be shown.
  std::optional<SharedConflict> conflict(const SharedAccess &A,
                                         const SharedAccess &B) const;
  /// The block shape the evaluation uses.
  ThreadCoord blockShape() const;

  /// A statement before which one `__syncthreads()` orders \p First before
  /// \p Second on every path that joins them: the two lie in different
  /// statements of one block (`{ ...; S1; ...; S2; ... }`, \p First in S1,
  /// \p Second in S2), they meet only in the same iteration (no
  /// barrier-free path back around a loop), every thread of a block reaches
  /// S2 together (a barrier there does not diverge), and nothing jumps into
  /// S2 (no label or `case` in the function). S2, or null.
  const Stmt *separatingPoint(const SharedAccess &First,
                              const SharedAccess &Second) const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// The calls in kernel \p Kernel to device functions with a body that pass a
/// `__shared__` array, or a pointer local, as an argument: the call sites a
/// call-site SharedAccessAnalysis is asked for. In source order, at most 64.
std::vector<const CallExpr *> sharedArrayCalls(const FunctionDecl *Kernel);

} // namespace clang::tidy::cuda::analysis

#endif
