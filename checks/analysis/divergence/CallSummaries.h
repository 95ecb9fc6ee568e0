//===--- CallSummaries.h - what a call does, for the caller's analysis ----===//
//
// Interprocedural facts, computed bottom-up over the call graph of a
// translation unit; the caller caches them per function (the analysis
// manager composes analyses):
//  - the uniformity of the return value, in terms of the callee's inputs
//    (its parameters, `this`, the captures of a lambda), so a call site can
//    plug in its arguments;
//  - the barriers the callee executes on some path (directly or through its
//    own callees): a function that does requires its callers to be
//    converged at the barrier's scope.
//
// Conservative points, stated in docs/design/divergence.md: a recursive call
// returns a thread-dependent value and adds no barrier; a call to a function
// without a body in the TU is a pure function of its arguments and executes
// no barrier; an indirect call is a pure function of its operands.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CALLSUMMARIES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CALLSUMMARIES_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/core/Uniformity.h"

#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace clang {
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// A barrier a function executes on some path.
struct BarrierSite {
  /// The barrier call itself, in \ref Function.
  const CallExpr *Barrier = nullptr;
  const FunctionDecl *Function = nullptr;
  Scope BarrierScope = Scope::Block;
  /// How the barrier is spelled in messages ("__syncthreads()").
  std::string Spelling;
  /// How uniformly the summarised function reaches the barrier; its symbols
  /// are the summarised function's inputs. When level() is already
  /// narrower than BarrierScope, the function diverges on its own and the
  /// barrier is reported inside it.
  Uniformity Control;
  /// The call in the summarised function through which the barrier is
  /// reached, or nullptr when the barrier is in the summarised function.
  const CallExpr *Through = nullptr;
};

struct CallSummary {
  const FunctionDecl *Function = nullptr;
  /// The return value, symbols = inputs of Function.
  Uniformity ReturnValue;
  /// Every value Function stores through a pointer or reference.
  Uniformity IndirectStores;
  /// Per parameter: what a writable reference parameter's referee holds
  /// on return (symbols = inputs of Function), which the caller takes for
  /// the variable it bound; nullopt where IndirectStores stands instead.
  llvm::SmallVector<std::optional<Uniformity>, 4> ReferenceParamExit;
  /// A member function whose analysis kept the fields of `*this` apart
  /// (its field symbols are those fields): what each field
  /// (divergence flattenedFields order) holds on return, nullopt where no
  /// path returns. A caller's object takes these for its fields, rather
  /// than the join of every store the function makes.
  bool ThisFieldsKept = false;
  llvm::SmallVector<std::optional<Uniformity>, 4> ThisFieldExit;
  /// Barriers on some path, in source order, at most MaxBarrierSites.
  llvm::SmallVector<BarrierSite, 2> Barriers;
  /// Computed without looking inside (recursion): ReturnValue is Thread,
  /// no barrier is known.
  bool Conservative = false;

  static constexpr unsigned MaxBarrierSites = 8;

  /// The widest scope some barrier of Function needs converged, if any.
  std::optional<Scope> requiredConvergence() const;
};

/// Builds the summary of the function \p D analysed. \p Manager provides
/// the summaries of its callees.
CallSummary summarize(const FunctionDivergence &D, FactQueries &Manager);

/// A conservative summary for a function the analysis cannot look into.
CallSummary conservativeSummary(const FunctionDecl *FD);

/// How a call reaches a barrier of its callee under divergence.
struct CallSiteDivergence {
  const BarrierSite *Site = nullptr;
  /// Why: divergence in the caller at the call (Kind = Branch, EarlyExit,
  /// ...), or inside the callee because of the arguments (Kind = ViaCall;
  /// Reason then describes the callee's branch, and Argument is the argument
  /// of this call that carries the non-uniform value, when known).
  DivergenceReason Reason;
  const Expr *Argument = nullptr;
};

/// The callee \p Callee of \p Call analysed as that call calls it: each
/// argument with a lane form (lane-linear, a lane quotient) and no input of
/// \p Caller's is bound to its parameter (FactQueries::divergenceForCall).
/// A symbol carries how widely an argument is shared, not the arithmetic
/// that makes `tid < n * 32` split no warp when tid is the caller's thread
/// index. nullptr when no argument has such a form, or no analysis is made.
const FunctionDivergence *
divergenceAsCalled(const FunctionDivergence &Caller, const CallExpr *Call,
                   const FunctionDecl *Callee, FactQueries &Manager);

/// Whether \p Call, in the function \p Caller analysed, reaches one of the
/// barriers of \p Summary (its callee's) under divergence at the barrier's
/// scope. Barriers that diverge inside the callee on their own are not
/// reported here; they are reported where they are.
std::optional<CallSiteDivergence>
callSiteDivergence(const FunctionDivergence &Caller, const CallExpr *Call,
                   const CallSummary &Summary, FactQueries &Manager);

} // namespace clang::tidy::cuda::analysis

#endif
