//===--- GlobalAccessesImpl.h - the global-access analysis's parts -*- C++ -*-===//
//
// Private to the global-memory access analysis: its state (Impl) and the
// helpers its phases share. The phases live in their own files, in reading
// order:
//   GlobalAccessesCollect.cpp    the accesses through pointer parameters,
//                                their offsets, loops and guards, and the
//                                barrier intervals;
//   GlobalAccessesEvaluate.cpp   the cells each thread touches, and the
//                                exchanges between lanes of one warp;
//   GlobalAccesses.cpp           the phases in order and the public face.
// Nothing outside those files includes this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_MEMORY_GLOBALACCESSESIMPL_H
#define CUDA_TIDY_CHECKS_ANALYSIS_MEMORY_GLOBALACCESSESIMPL_H

#include "checks/analysis/memory/GlobalAccesses.h"

#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/memory/BarrierIntervals.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/launch/LaunchShape.h"
#include "checks/analysis/divergence/ThreadIndexEval.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace clang::tidy::cuda::analysis {

namespace globalaccess {


/// A block's size when no launch gives it.
constexpr unsigned DefaultBlockThreads = 256;
/// How far a loop is run, and how many combinations of loop values one
/// thread's access is evaluated for: larger than the race analysis's, since
/// a scratch row is often filled by a loop over a warp's worth of cells.
constexpr unsigned MaxIterations = 256;
constexpr size_t MaxCombinations = 256;

/// A cell as one string, to group the threads that touch it.
inline std::string cellKey(const IndexValue &Cell) {
  std::string K = std::to_string(Cell.Constant);
  for (const auto &[S, C] : Cell.Terms)
    K += "|" + std::to_string(S) + ":" + std::to_string(C);
  return K;
}

inline bool isSharedVar(const VarDecl *V) {
  return V && V->hasAttr<CUDASharedAttr>() && !V->getType()->isReferenceType();
}

/// The byte offset of a pointer from its base, as terms to evaluate.
struct Offset {
  const ValueDecl *Base = nullptr;
  bool Shared = false;
  /// offset = sum of eval(E) * Scale.
  std::vector<std::pair<const Expr *, int64_t>> Terms;
  int64_t ElementSize = 1;
};

struct Tile {
  unsigned M = 0, N = 0;
  const Expr *Ldm = nullptr;
  /// True: row major; false: column major; nullopt: unknown.
  std::optional<bool> RowMajor;
};

struct Info {
  Offset Off;
  /// The `for` loops around the access, outermost first.
  std::vector<const ForStmt *> Loops;
  /// Conditions and the value they need.
  std::vector<std::pair<const Expr *, bool>> Guards;
  std::optional<Tile> T;
};

} // namespace globalaccess

struct GlobalAccessAnalysis::Impl {
  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  GlobalAccessOptions Opts;
  unsigned BlockThreads = globalaccess::DefaultBlockThreads;
  bool Analyzable = false;
  /// The function's divergence, and with call-site context the caller's.
  const FunctionDivergence *D = nullptr;
  const FunctionDivergence *CallerD = nullptr;
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<ParentMap> CallerParents;
  llvm::DenseSet<const VarDecl *> Mutated;
  std::vector<MemoryAccess> Accesses;
  std::vector<globalaccess::Info> Infos;
  std::unique_ptr<BarrierIntervals> Intervals;
  /// The calls that order a warp's lanes: a warp-scope synchronisation,
  /// or a function whose summary holds a block barrier.
  WarpSyncCalls WarpSyncs{&Manager};
  /// Per access: per thread, its cells (keys), or nullopt when some thread's
  /// could not be evaluated.
  mutable std::map<unsigned, std::optional<std::vector<std::vector<IndexValue>>>>
      CellCache;
  llvm::DenseMap<const ForStmt *, const VarDecl *> Counters;
  /// Per writing access: cell -> the threads that write it.
  std::map<unsigned, std::map<std::string, std::vector<unsigned>>>
      WritersCache;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager,
       GlobalAccessOptions Opts)
      : FD(FD), Ctx(Ctx), Manager(Manager), Opts(Opts) {}

  const FunctionDecl *kernel() const { return Opts.Caller ? Opts.Caller : FD; }

  void run();
  bool resolve(const Expr *E, globalaccess::Offset &Out,
               unsigned Depth = 0);
  void collect();
  void addAccess(MemoryAccess::Kind K, const Expr *Where,
                 globalaccess::Offset Off,
                 std::optional<globalaccess::Tile> T = std::nullopt);
  std::optional<MemoryAccess::Kind> kindOf(const Expr *Where) const;
  void contextOf(const Expr *Where, globalaccess::Info &I);
  void contextIn(const Stmt *From, const Stmt *Top, ParentMap &PM,
                 globalaccess::Info &I);
  const VarDecl *counterOf(const ForStmt *For);
  void buildIntervals();
  /// A path from \p From's CFG element to \p To's without a warp-scope
  /// synchronisation (around back edges too).
  bool reaches(const Stmt *From, const Stmt *To);
  llvm::DenseMap<const Stmt *, std::pair<const CFGBlock *, unsigned>>
      ElementAt;

  /// The evaluator's leaves: threadIdx.x is the thread's (threadIdx.y and
  /// .z are not evaluated: collect() leaves two-dimensional kernels out),
  /// blockDim.x the block's size; blockIdx, gridDim, blockDim.y/.z, the
  /// kernel's parameters and block-uniform locals that depend on no symbol
  /// are symbols. The operators keep symbols whose coefficients are aligned
  /// (`(blockIdx.x * 64 + lane) & 31`): a scratch row per warp is addressed
  /// that way.
  struct Evaluator final : IndexEvaluator {
    Impl &Owner;
    explicit Evaluator(Impl &Owner)
        : IndexEvaluator(Owner.Ctx,
                         IndexEvalRules{/*MaxDepth=*/24,
                                        /*WrapWideConstants=*/true,
                                        /*CastsMustBeIntegral=*/true,
                                        /*TruthNeedsIntegralType=*/true,
                                        NonLinearOperators::KeepAlignedSymbols},
                         Owner.FD, Owner.Opts.Call, Owner.Opts.Caller),
          Owner(Owner) {}
    std::optional<IndexValue> builtin(BuiltinIndexRead::Variable Var,
                                      unsigned Dim,
                                      const ThreadEnv &En) override {
      if (Var == BuiltinIndexRead::ThreadIdx)
        return Dim == 0 ? std::optional(IndexValue::constant(En.Thread[0]))
                        : std::nullopt;
      if (Var == BuiltinIndexRead::BlockDim && Dim == 0)
        return IndexValue::constant(Owner.BlockThreads);
      return IndexValue::symbol(builtinSymbol(Var, Dim));
    }
    bool isMutated(const VarDecl *Var) override {
      return Owner.Mutated.contains(Var);
    }
    /// The kernel's own parameters (not a lambda's).
    bool isGridUniformParameter(const ParmVarDecl *Param) override {
      return Param->getDeclContext() == Owner.kernel();
    }
    bool isBlockUniformLocal(const DeclRefExpr *Ref, bool InCaller) override {
      const FunctionDivergence *In = InCaller ? Owner.CallerD : Owner.D;
      return In && In->uniformityOf(Ref).isUniformAt(Scope::Block) &&
             !In->uniformityOf(Ref).dependsOnSymbols();
    }
  };
  Evaluator Eval{*this};
  /// How a loop's counter is run: a loop longer than MaxIterations is not
  /// evaluated at all.
  static constexpr LoopRules CounterSteps{globalaccess::MaxIterations,
                                          /*KeepValuesAtCap=*/false,
                                          /*MaxShift=*/40,
                                          /*AnyAssignmentToCounter=*/false};
  /// The cells (byte offsets) thread \p T touches through access \p A;
  /// empty when it makes none; nullopt when they do not evaluate.
  std::optional<std::vector<IndexValue>> cellsFor(unsigned Index, unsigned T);
  const std::optional<std::vector<std::vector<IndexValue>>> &cells(unsigned A);
  std::string render(const IndexValue &Bytes, const MemoryAccess &A);
  std::vector<MemoryExchange> exchanges();
};

} // namespace clang::tidy::cuda::analysis

#endif
