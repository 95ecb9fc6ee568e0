//===--- SharedExchange.h - threads reading what others wrote, across a barrier ===//
//
// Since Volta a block barrier waits only for threads that have not exited:
// `if (i >= n) return; ... __syncthreads();` neither hangs nor deadlocks. It
// is a bug only when a surviving thread, after the barrier, reads __shared__
// memory that an exited thread should have written before it. This file
// answers that question for one barrier, approximately and in linear time:
//
//   some __shared__ variable is written after the exit and before the
//   barrier, and read after the barrier at an element spelled differently
//   from every element written (`tile[threadIdx.x + 1]` against
//   `tile[threadIdx.x]`, or a loop's `buf[i]` against another loop's).
//
// Local pointers initialised into a __shared__ buffer (`float *bias =
// shared + C;`) count as shared arrays of their own; a pointer reassigned
// later is not followed.
//
// Reading one's own element back (`tile[threadIdx.x]` on both sides) is not
// an exchange, nor is a __shared__ scalar (written by one thread, which
// exits only when its whole block does in the usual bounds checks). Order is
// source order, so a loop that carries values from one iteration's barrier
// to the next iteration is seen only as far as source order shows it.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_SHAREDEXCHANGE_H
#define CUDA_TIDY_CHECKS_ANALYSIS_SHAREDEXCHANGE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "clang/Basic/SourceLocation.h"
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// The subscripted __shared__ accesses of one function body, collected once
/// (one walk of the body) and asked about many barriers.
class SharedAccesses {
public:
  SharedAccesses(const FunctionDecl *Function, ASTContext &Context);

  /// True when a __shared__ element is written between \p Exit and
  /// \p Barrier and a different element of the same variable is read after
  /// \p Barrier (see the file comment).
  bool readsWrittenByOthers(const Stmt *Exit, const Stmt *Barrier) const;
  /// The same, for writes after \p From: the start of the branch or loop
  /// that the threads which leave skip (divergence/ExitedThreads.h).
  bool readsWrittenByOthers(SourceLocation From, const Stmt *Barrier) const;

private:
  struct Access {
    const VarDecl *Variable = nullptr;
    llvm::FoldingSetNodeID Element;
    SourceLocation Where;
    bool IsWrite = false;
  };
  ASTContext &Context;
  SourceLocation FunctionBegin;
  /// In source order.
  std::vector<Access> Accesses;
};

} // namespace clang::tidy::cuda::analysis

#endif
