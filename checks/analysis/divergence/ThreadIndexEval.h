//===--- ThreadIndexEval.h - index expressions evaluated for one thread ---===//
//
// Both memory-access analyses ask the same question of an index: which cell
// does this thread touch, in this iteration of the loops around it? The
// shared-memory race analysis (SharedAccesses, issue 17) asks it of
// `__shared__` subscripts, the warp-scratch analysis (GlobalAccesses, issue
// 18) of global-memory offsets. One evaluator answers both: it folds an
// expression, for one thread and one set of loop-counter values, to a
// constant plus block-uniform symbols (blockIdx.x, a kernel parameter, a
// uniform local) with integer coefficients, and runs simple for loops to
// the values their counter takes.
//
// The analyses differ in what a leaf is (a thread's threadIdx.y, a
// cooperative group's thread_rank(), a variable that some write makes
// unknown) and in a few rules each has been tuned and tested with; those are
// the virtual hooks and the rule structs below, so that neither copies the
// walk.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_THREADINDEXEVAL_H
#define CUDA_TIDY_CHECKS_ANALYSIS_THREADINDEXEVAL_H

#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/OperationKinds.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class DeclRefExpr;
class Expr;
class LambdaExpr;
class ParentMap;
class ForStmt;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

/// A value as the evaluation sees it: a constant plus block-uniform symbols
/// with integer coefficients.
struct IndexValue {
  int64_t Constant = 0;
  /// (symbol, coefficient) sorted by symbol, no zero coefficient: a small
  /// vector, since a value has a term or two and is built once per thread.
  llvm::SmallVector<std::pair<unsigned, int64_t>, 2> Terms;

  bool isConstant() const { return Terms.empty(); }
  static IndexValue constant(int64_t Value);
  static IndexValue symbol(unsigned Symbol);
  /// this += Sign * Other.
  IndexValue &add(const IndexValue &Other, int64_t Sign);
  IndexValue &scale(int64_t Factor);
  /// Every coefficient is a non-negative multiple of \p M (so the low bits
  /// below M are the constant's, whatever the symbols are).
  bool symbolsMultipleOf(int64_t M) const;
  bool operator==(const IndexValue &O) const {
    return Constant == O.Constant && Terms == O.Terms;
  }
};

/// CUDA's largest block, in threads: the block extents an access is
/// evaluated for are kept up to it.
constexpr unsigned MaxBlockThreads = 1024;

/// A thread's coordinates, or a block's extents: x, y, z.
using ThreadXYZ = std::array<unsigned, 3>;

/// One thread, and the values its loops' counters have: a few counters,
/// copied once per combination of iterations, so a small vector.
struct ThreadEnv {
  ThreadXYZ Thread{};
  ThreadXYZ Block{};
  llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 4> Counters;
  const int64_t *counter(const VarDecl *Var) const;
  void setCounter(const VarDecl *Var, int64_t Value);
};

/// What `/ % >> << & | ^` do with their operands.
enum class NonLinearOperators {
  /// Only between two constants, as C computes them (SharedAccesses).
  ConstantsOnly,
  /// Also on a value with symbols when the right operand is a positive
  /// constant and every symbol's coefficient is a multiple of a power of two
  /// above it: `(blockIdx.x * 64 + t) & 31` is `t & 31`. Division by a
  /// non-positive constant and masks below zero are not evaluated
  /// (GlobalAccesses).
  KeepAlignedSymbols,
};

/// The rules that the two analyses were tuned with and differ in.
struct IndexEvalRules {
  /// How deep eval() and truth() recurse before giving up.
  unsigned MaxDepth = 16;
  /// A constant needing more than 63 bits: taken (wrapped to 64) or not a
  /// constant.
  bool WrapWideConstants = false;
  /// An explicit cast to a non-integral type (`(float)x`) is not evaluated;
  /// otherwise a cast is looked through whatever its type.
  bool CastsMustBeIntegral = false;
  /// truth() of a plain value (not a comparison or logical operator) only
  /// for integral, enumeration and bool expressions.
  bool TruthNeedsIntegralType = false;
  NonLinearOperators NonLinear = NonLinearOperators::ConstantsOnly;
};

/// How runLoop() steps a counter.
struct LoopRules {
  /// At most this many iterations are run.
  unsigned MaxIterations = 64;
  /// A loop with more iterations yields its first MaxIterations values
  /// (enough to show a conflict) rather than nothing.
  bool KeepValuesAtCap = true;
  /// The largest shift a `<<=` / `>>=` step may make.
  unsigned MaxShift = 62;
  /// The step is any assignment to the counter, `=` included (`c = c + 2`);
  /// otherwise only a compound assignment (`+=`, `<<=`, ...), whatever it
  /// names (the rule GlobalAccesses has always had: its counter lookup
  /// does not check the step's variable).
  bool AnyAssignmentToCounter = true;
};

/// Evaluates index expressions for one thread. The leaves that depend on
/// what an analysis knows are the hooks; everything else (literals,
/// arithmetic, conditions, casts, a callee's parameter through the call's
/// argument, a local through its initializer) is here once.
class IndexEvaluator {
public:
  /// \p Function is the function analyzed; with call-site context, \p Call
  /// is the call to it being analyzed (its parameters are the arguments),
  /// in \p Caller.
  IndexEvaluator(ASTContext &Ctx, IndexEvalRules Rules,
                 const FunctionDecl *Function, const CallExpr *Call,
                 const FunctionDecl *Caller);
  IndexEvaluator(const IndexEvaluator &) = delete;
  IndexEvaluator &operator=(const IndexEvaluator &) = delete;
  virtual ~IndexEvaluator();

  std::optional<IndexValue> eval(const Expr *E, const ThreadEnv &En,
                                 unsigned Depth = 0);
  /// Whether condition \p E holds for the thread of \p En; nullopt when it
  /// does not evaluate to a constant.
  std::optional<bool> truth(const Expr *E, const ThreadEnv &En,
                            unsigned Depth = 0);
  /// \p E folds to an integer constant (the same for every thread: asked
  /// once per expression, not once per thread).
  std::optional<int64_t> constant(const Expr *E);

  /// The values \p Counter takes in \p For for the environment so far
  /// (outer loops' counters set); nullopt when the start, the condition or
  /// the step does not evaluate to constants.
  std::optional<std::vector<int64_t>> runLoop(const ForStmt *For,
                                              const VarDecl *Counter,
                                              const ThreadEnv &En,
                                              const LoopRules &Loop);

  /// The symbol for \p Key (a declaration, or builtinKey()), named \p Name
  /// the first time; ids count up in order of first use.
  unsigned symbol(const void *Key, llvm::StringRef Name);
  /// blockIdx.y, gridDim.x, ... as a symbol.
  unsigned builtinSymbol(BuiltinIndexRead::Variable Var, unsigned Dim);
  const std::string &symbolName(unsigned Symbol) const {
    return SymbolNames[Symbol];
  }

protected:
  /// threadIdx / blockIdx / blockDim / gridDim component \p Dim (0 x, 1 y,
  /// 2 z) for the thread of \p En.
  virtual std::optional<IndexValue> builtin(BuiltinIndexRead::Variable Var,
                                            unsigned Dim,
                                            const ThreadEnv &En) = 0;
  /// A call or member expression (a cooperative group's thread_rank(), ...);
  /// none by default.
  virtual std::optional<IndexValue> callValue(const Expr *E,
                                              const ThreadEnv &En);
  /// Some write in the function may change \p Var: its initializer or
  /// parameter value is not what it holds.
  virtual bool isMutated(const VarDecl *Var) = 0;
  /// A parameter (not the call's callee's) that stands for one value for
  /// the whole grid, as a symbol.
  virtual bool isGridUniformParameter(const ParmVarDecl *Param) = 0;
  /// A local whose initializer does not evaluate but that the divergence
  /// analysis (of the caller, with \p InCaller: a local of the caller's, in
  /// the argument of the call) shows the same for the whole block, as a
  /// symbol.
  virtual bool isBlockUniformLocal(const DeclRefExpr *Ref, bool InCaller) = 0;

  ASTContext &Ctx;

private:
  std::optional<IndexValue> variable(const DeclRefExpr *Ref,
                                     const ThreadEnv &En, unsigned Depth);
  std::optional<IndexValue> nonLinear(BinaryOperatorKind Op,
                                      const IndexValue &L,
                                      const IndexValue &R) const;

  IndexEvalRules Rules;
  const FunctionDecl *Function;
  const CallExpr *Call;
  const FunctionDecl *Caller;
  llvm::DenseMap<const Expr *, std::optional<int64_t>> Constants;
  llvm::DenseMap<const void *, unsigned> SymbolIds;
  std::vector<std::string> SymbolNames;
  /// Addresses that stand for blockIdx.x ... gridDim.z as symbols.
  char BuiltinKeys[4][3] = {};
};

/// `/ % >> << & | ^` of two constants as C computes them; nullopt for a
/// division by zero or a shift outside [0, 62].
std::optional<int64_t> foldConstantOperator(BinaryOperatorKind Op, int64_t A,
                                            int64_t B);
/// The same operators on a value with symbols (NonLinearOperators::
/// KeepAlignedSymbols).
std::optional<IndexValue> alignedSymbolOperator(BinaryOperatorKind Op,
                                                const IndexValue &L,
                                                const IndexValue &R);

/// The variable a for loop steps, before the analyses' own tests of it: the
/// one declared with an initializer in its init (`int i = 0`), or with
/// \p AllowAssignedInit the one assigned there (`i = 0`); nullptr when there
/// is none or the loop has no condition or no step.
const VarDecl *loopVariable(const ForStmt *For, bool AllowAssignedInit);

/// The condition, and the value it must have, under which \p Child of
/// \p Parent runs: the branch of an `if` or `?:`, the right side of `&&`
/// (`||`: where the left side is false); nullopt for any other parent.
std::optional<std::pair<const Expr *, bool>>
branchCondition(const Stmt *Parent, const Stmt *Child);

/// \p Ref only reads its variable's value (its parent, parentheses aside,
/// is an lvalue-to-rvalue conversion): not assigned, incremented, bound to
/// a reference or its address taken. A variable with only such references
/// holds its initializer's (or its argument's) value throughout.
bool isPlainRead(const DeclRefExpr *Ref, const ParentMap &Parents);

/// Adds the variables \p Lambda captures to \p Into: its body may change
/// those captured by reference, so they are not plain reads either.
void addCapturedVariables(const LambdaExpr *Lambda,
                          llvm::DenseSet<const VarDecl *> &Into);

/// One walk of \p Body (whose parents \p Parents maps): adds to
/// \p NotOnlyRead the variables it refers to other than by a plain read
/// (isPlainRead; array variables only when \p WithArrays) or that a lambda
/// in it captures, and to \p Assigned, when given, those it certainly
/// changes: a reference to the variable, or a `.` member access on it, is
/// the left side of `=` or of a compound assignment (a built-in or an
/// overloaded one) or the operand of `++`/`--`. Those are changes
/// ExprMutationAnalyzer reports too; it need not be asked about them.
/// With \p RefsOf, each variable's references that are not plain reads
/// too (in the order of the walk).
void addVariablesNotOnlyRead(
    const Stmt *Body, const ParentMap &Parents,
    llvm::DenseSet<const VarDecl *> &NotOnlyRead,
    llvm::DenseSet<const VarDecl *> *Assigned, bool WithArrays,
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 2>>
        *RefsOf = nullptr);

/// Calls that run a warp-scope synchronisation: __syncwarp(), a
/// cooperative group's sync(), any barrier call, and a function of the
/// program that runs one (three calls deep). Kept per function analyzed.
class WarpSyncCalls {
public:
  /// With \p Summaries, a call of a function whose summary holds a block
  /// (or wider) barrier counts too, however deep (GlobalAccesses: such a
  /// call orders the warp's lanes as well).
  explicit WarpSyncCalls(FactQueries *Summaries = nullptr)
      : Summaries(Summaries) {}
  bool isWarpSync(const CallExpr *Call, unsigned Depth = 0);

private:
  FactQueries *Summaries;
  llvm::DenseMap<const FunctionDecl *, bool> Syncs;
};

/// Every call in \p Body, in traversal order.
std::vector<const CallExpr *> callsIn(const Stmt *Body);

} // namespace clang::tidy::cuda::analysis

#endif
