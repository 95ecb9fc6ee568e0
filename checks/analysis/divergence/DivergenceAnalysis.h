//===--- DivergenceAnalysis.h - where GPU threads can disagree ------------===//
//
// Answers, for one function body (a kernel, a __device__ function, a lambda,
// a template instantiation), the question every synchronisation rule asks:
// can the threads of a group disagree about whether they reach this point,
// and about this value?
//
// How (docs/design/divergence.md has the long form):
//  - A forward dataflow over clang's CFG, iterated with a worklist to a fixed
//    point, gives each local variable and each expression a Uniformity.
//  - A branch whose condition is not uniform at scope S makes every block
//    control dependent on it (post-dominance) execute under divergence at S.
//  - Values assigned on paths that split at such a branch are not uniform
//    where the paths meet again (sync divergence), nor after a loop whose exit
//    is such a branch (temporal divergence).
//  - Calls use per-function summaries (CallSummaries.h) from the same TU.
// Cost is linear in the size of the function times the nesting depth of
// divergent branches; paths are never enumerated.
//
// The analysis knows nothing about diagnostics. The caller caches the
// results per function (the analysis manager composes analyses).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCEANALYSIS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCEANALYSIS_H

#include "checks/analysis/core/Uniformity.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class CFG;
class CFGBlock;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

/// Knobs of the analysis. Results for different options are cached apart.
struct AnalysisOptions {
  /// blockDim.x is a multiple of 32, so every warp lies within one row of
  /// the block and threadIdx.y/z are warp-uniform.
  bool AssumeBlockDimXMultipleOf32 = false;
  /// A callee whose definition does not compile (its analysis is left out,
  /// CompileErrors.h) stores nothing through its arguments. Without this,
  /// it may store anything its operands carry: the checks ask both ways to
  /// tell a finding that rests only on such a function (a fact the tool
  /// cannot see: the potential tier).
  bool UnanalyzedCalleesStoreNothing = false;

  unsigned key() const {
    return (AssumeBlockDimXMultipleOf32 ? 1 : 0) |
           (UnanalyzedCalleesStoreNothing ? 2 : 0);
  }
};

/// The shape of control flow that lets threads disagree.
enum class DivergenceKind : uint8_t {
  Branch,        ///< Inside an if/else, ?:, && or || arm.
  EarlyExit,     ///< After a return, break or continue some threads took.
  LoopTripCount, ///< Inside a loop whose threads run different iteration counts.
  Switch,        ///< Inside a case of a switch on a non-uniform value.
  Goto,          ///< After (or inside) a region some threads left by goto.
  ViaCall,       ///< Inside a callee, because of an argument of this call.
};

/// "branch", "early exit", "loop trip count", "switch", "goto", "via call".
llvm::StringRef divergenceKindName(DivergenceKind Kind);

/// Why a point is reached under divergence: the branch, its condition, and
/// where the thread-dependent value came from.
struct DivergenceReason {
  DivergenceKind Kind = DivergenceKind::Branch;
  /// The statement that branches: IfStmt, ForStmt, WhileStmt, DoStmt,
  /// CXXForRangeStmt, SwitchStmt, ConditionalOperator, a && or || operator,
  /// IndirectGotoStmt.
  const Stmt *Branch = nullptr;
  /// The condition that is not uniform (for && and ||, the operand).
  const Expr *Condition = nullptr;
  Uniformity ConditionUniformity;
  /// EarlyExit and Goto: the return/break/continue/goto that leaves.
  const Stmt *Exit = nullptr;
  /// The variable of the condition that carries the non-uniform value
  /// (`i` in `i < n`), or nullptr when the condition reads the source
  /// directly (`threadIdx.x < n`).
  const ValueDecl *Via = nullptr;
  /// Where the non-uniform value came from (threadIdx.x, an atomic, ...).
  ValueOrigin Origin;
  /// The function that contains Branch.
  const FunctionDecl *Function = nullptr;
};

/// The results for one function; the caller caches them (the analysis
/// manager composes analyses).
class FunctionDivergence {
public:
  /// Analyses \p FD (which must have a body). \p Manager supplies the
  /// summaries of callees; it may be null, and then every call is treated as
  /// a pure function of its arguments.
  FunctionDivergence(const FunctionDecl *FD, ASTContext &Ctx,
                     const AnalysisOptions &Options, FactQueries *Manager);
  /// Analyses \p FD as one call calls it: parameter I starts as
  /// \p ParameterValues[I] where that is set, instead of an input symbol
  /// (FactQueries::divergenceForCall).
  FunctionDivergence(const FunctionDecl *FD, ASTContext &Ctx,
                     const AnalysisOptions &Options, FactQueries *Manager,
                     llvm::ArrayRef<std::optional<Uniformity>> ParameterValues);
  ~FunctionDivergence();
  FunctionDivergence(const FunctionDivergence &) = delete;
  FunctionDivergence &operator=(const FunctionDivergence &) = delete;

  const FunctionDecl *function() const;
  /// False when clang could not build a CFG for the body; every query then
  /// answers "uniform, convergent".
  bool isAnalyzed() const;
  const CFG *cfg() const;
  /// The CFG block that evaluates \p S (climbing to the nearest enclosing
  /// statement the CFG knows), or nullptr.
  const CFGBlock *blockOf(const Stmt *S) const;
  /// False for statements in blocks no path from the entry reaches.
  bool isReachable(const Stmt *S) const;
  /// Every call in the body (not in nested lambdas), in source order. A
  /// device-side `<<<...>>>` launch is not a call: it starts a new grid.
  llvm::ArrayRef<const CallExpr *> calls() const;

  // --- values ----------------------------------------------------------------
  /// The uniformity of \p E where it is evaluated (symbols unresolved: a
  /// device function's parameters read as uniform unless a caller binds
  /// them). Expressions the analysis did not reach read as uniform.
  Uniformity uniformityOf(const Expr *E) const;
  /// The value the function returns (symbols = its inputs).
  Uniformity returnUniformity() const;
  /// The join of every value stored through a pointer or reference, which a
  /// caller's locals passed by address may receive.
  Uniformity indirectStoreUniformity() const;
  /// For a writable reference parameter \p Index of a device function, the
  /// value its referee holds on return (symbols = inputs); nullopt for other
  /// parameters, kernels, or when no path returns.
  std::optional<Uniformity> referenceParameterExit(unsigned Index) const;
  /// For a member function whose analysis kept the fields of `*this` apart
  /// (its `this` only reaches fields and member functions that say what
  /// they do to them): what each field holds on return, in the order of
  /// the divergence solver's flattenedFields (symbols = inputs, a field's
  /// own symbol where a path leaves it as it was); nullptr otherwise.
  const std::vector<std::optional<Uniformity>> *thisFieldExits() const;
  /// What input \p Symbol of the callee of \p Call is bound to at that call
  /// (the argument, the object for `this`, the captured variable for a
  /// lambda capture). Uniform when \p Call was not analysed.
  Uniformity symbolValueAtCall(const CallExpr *Call, unsigned Symbol) const;

  // --- control ---------------------------------------------------------------
  /// How uniformly the threads of a group arrive at \p S: the join of the
  /// conditions of every branch \p S is (transitively) control dependent on.
  /// Its symbols are the inputs those conditions depend on.
  Uniformity controlUniformity(const Stmt *S) const;

  /// Why \p S may be reached by only part of a group at \p Within, or
  /// nullopt when every thread of each such group reaches it together.
  /// The nearest diverging branch is reported. \p Inputs, when given, binds
  /// the function's symbols (as at a call site); otherwise they read as
  /// uniform.
  std::optional<DivergenceReason>
  divergenceAt(const Stmt *S, Scope Within) const;
  std::optional<DivergenceReason>
  divergenceAt(const Stmt *S, Level Within,
               llvm::function_ref<Uniformity(unsigned)> Inputs = {}) const;
  /// Divergence within the aligned tiles of \p TileSize threads (a
  /// thread_block_tile<TileSize>).
  std::optional<DivergenceReason> divergenceWithinTile(const Stmt *S,
                                                       unsigned TileSize) const;
  /// Divergence at \p To that did not already hold at \p From: a branch
  /// that \p To depends on and \p From does not (e.g. a group handle made at
  /// \p From, used in a collective at \p To).
  std::optional<DivergenceReason>
  divergenceSince(const Stmt *From, const Stmt *To, Level Within) const;

  /// Explains why \p E is not uniform at \p Within: the variable that
  /// carries it and the origin (as in DivergenceReason::Via / Origin).
  std::pair<const ValueDecl *, ValueOrigin>
  explain(const Expr *E, Level Within,
          llvm::function_ref<Uniformity(unsigned)> Inputs = {}) const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::analysis

#endif
