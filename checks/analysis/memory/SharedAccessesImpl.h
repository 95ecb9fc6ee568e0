//===--- SharedAccessesImpl.h - the shared-access analysis's parts -*- C++ -*-===//
//
// Private to the shared-memory access analysis: its state (Impl) and the
// limits its phases share. The phases live in their own files, in reading
// order:
//   SharedAccessesCollect.cpp   the accesses of the kernel's __shared__
//                               variables (and pointers to them), the block
//                               shape to evaluate, the barrier intervals;
//   SharedAccessesEvaluate.cpp  the cells one access touches for one
//                               thread, under its loops and guards;
//   SharedAccesses.cpp          the public face: which pairs of accesses
//                               meet in a cell with no barrier between.
// Nothing outside those files includes this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_MEMORY_SHAREDACCESSESIMPL_H
#define CUDA_TIDY_CHECKS_ANALYSIS_MEMORY_SHAREDACCESSESIMPL_H

#include "checks/analysis/memory/SharedAccesses.h"

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
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <tuple>

namespace clang::tidy::cuda::analysis {

namespace sharedaccess {

/// How many loop-value combinations and threads one access is evaluated for.
constexpr size_t MaxCombinations = 64;
constexpr unsigned MaxThreads = 256;
constexpr unsigned MaxIterations = 64;

inline bool isSharedVar(const VarDecl *V) {
  return V && V->hasAttr<CUDASharedAttr>() && !V->getType()->isReferenceType();
}

} // namespace sharedaccess

struct SharedAccessAnalysis::Impl {
  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  SharedAccessOptions Opts;
  const FunctionDivergence *D = nullptr;
  /// The caller's, with call-site context.
  const FunctionDivergence *CallerD = nullptr;
  /// Pointers that stand for a one-dimensional __shared__ array: locals
  /// initialised to it and never changed, and (with call-site context) the
  /// callee's pointer parameters the call binds to one.
  llvm::DenseMap<const VarDecl *, const VarDecl *> Alias;
  /// The references that only initialise such a pointer (not accesses).
  llvm::DenseSet<const DeclRefExpr *> AliasInits;
  /// References to pointers, classified once the aliases are known.
  std::vector<const DeclRefExpr *> PointerRefs;
  std::vector<const VarDecl *> PointerLocals;
  const VarDecl *resolveArray(const Expr *E, const DeclRefExpr **Through,
                              unsigned Depth = 0);
  void classifyPointer(const DeclRefExpr *Ref, const VarDecl *Var);
  void classifyUse(SharedAccess &A, const Expr *Whole);
  /// The calls that run a warp-scope synchronisation (at Warp barrier
  /// scope).
  WarpSyncCalls WarpSyncs;
  /// \p E is uniform at \p S; in a callee analyzed for a call site, also
  /// independent of the callee's parameters (which the divergence analysis
  /// of the callee alone assumes uniform).
  bool uniformAt(const FunctionDivergence &Owner, const Expr *E, Scope S) const {
    Uniformity U = Owner.uniformityOf(E);
    return U.isUniformAt(S) &&
           (!Opts.Call || &Owner != D || !U.dependsOnSymbols());
  }
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<BarrierIntervals> Intervals;
  /// Locals and parameters some reference to which is not a plain read
  /// (assigned, incremented, address taken, bound to a reference): only
  /// those are asked of ExprMutationAnalyzer, over the statement that
  /// declares them (a for loop's counter: that loop), so that asking every
  /// counter of a long kernel stays linear in its size.
  llvm::DenseSet<const VarDecl *> NotOnlyRead;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 2>>
      NotOnlyReadRefs;
  llvm::DenseMap<const VarDecl *, const Stmt *> ScopeOf;
  std::vector<SharedAccess> Accesses;
  llvm::DenseSet<const VarDecl *> Untracked;
  ThreadCoord Shape{128, 1, 1};
  llvm::DenseMap<const VarDecl *, bool> MutatedCache;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager,
       SharedAccessOptions Opts)
      : FD(FD), Ctx(Ctx), Manager(Manager), Opts(Opts) {}

  // --- setup -----------------------------------------------------------------
  void collect();
  void chooseShape();
  void buildIntervals();
  void classify(const DeclRefExpr *Ref, const VarDecl *Var);

  // --- evaluation --------------------------------------------------------------
  bool isMutated(const VarDecl *V) {
    auto [It, New] = MutatedCache.try_emplace(V, true);
    if (New) {
      if (!NotOnlyRead.contains(V)) {
        It->second = false;
      } else {
        auto Scope = ScopeOf.find(V);
        const Stmt *Where =
            Scope != ScopeOf.end() && Scope->second ? Scope->second
                                                    : FD->getBody();
        It->second = ExprMutationAnalyzer(*Where, Ctx).isMutated(V);
      }
    }
    return It->second;
  }
  /// A cooperative group's index of the thread: `g.thread_rank()` (and
  /// `cg::thread_rank(g)`) of a thread_block is the block's linear thread
  /// index x + y * Bx + z * Bx * By, of a static tile of N that index
  /// modulo N; `g.thread_index().x` of a block is threadIdx.x, of a grid
  /// blockIdx.x * blockDim.x + threadIdx.x; `dim_threads().x` of a block is
  /// blockDim.x, its `num_threads()` / `size()` the block's size (a tile's:
  /// N). Anything else (a grid's or cluster's thread_rank(), which are not
  /// the block's index; a type-erased or coalesced group) is not evaluated.
  std::optional<IndexValue> groupIndex(const Expr *E, const ThreadEnv &En);

  /// The evaluator's leaves: threadIdx and blockDim are the concrete
  /// thread's and block's; blockIdx and gridDim, a kernel's parameters and
  /// block-uniform locals are symbols; a cooperative group's index is
  /// groupIndex().
  struct Evaluator final : IndexEvaluator {
    Impl &Owner;
    explicit Evaluator(Impl &Owner)
        : IndexEvaluator(Owner.Ctx, IndexEvalRules{}, Owner.FD,
                         Owner.Opts.Call, Owner.Opts.Caller),
          Owner(Owner) {}
    std::optional<IndexValue> builtin(BuiltinIndexRead::Variable Var,
                                      unsigned Dim,
                                      const ThreadEnv &En) override {
      switch (Var) {
      case BuiltinIndexRead::ThreadIdx:
        return IndexValue::constant(En.Thread[Dim]);
      case BuiltinIndexRead::BlockDim:
        return IndexValue::constant(En.Block[Dim]);
      case BuiltinIndexRead::BlockIdx:
      case BuiltinIndexRead::GridDim:
        return IndexValue::symbol(builtinSymbol(Var, Dim));
      }
      return std::nullopt;
    }
    std::optional<IndexValue> callValue(const Expr *E,
                                        const ThreadEnv &En) override {
      return Owner.groupIndex(E, En);
    }
    bool isMutated(const VarDecl *Var) override {
      return Owner.isMutated(Var);
    }
    /// A kernel's parameters are the same for the whole grid.
    bool isGridUniformParameter(const ParmVarDecl *) override { return true; }
    bool isBlockUniformLocal(const DeclRefExpr *Ref, bool InCaller) override {
      const FunctionDivergence *In = InCaller ? Owner.CallerD : Owner.D;
      return In && Owner.uniformAt(*In, Ref, Scope::Block);
    }
  };
  Evaluator Eval{*this};
  /// How a loop's counter is run: the first MaxIterations iterations are
  /// enough to show a conflict.
  static constexpr LoopRules CounterSteps{sharedaccess::MaxIterations, /*KeepValuesAtCap=*/true,
                                   /*MaxShift=*/62,
                                   /*AnyAssignmentToCounter=*/true};

  /// The enclosing for loops of \p S, outermost first, and the conditions
  /// that decide whether a thread reaches it: the `if`s with the branch \p S
  /// is on, and the exits before it (`if (c) return;`, `break;` or
  /// `continue;` in a block that holds \p S further down: \p S needs !c).
  void context(const Stmt *S, std::vector<const ForStmt *> &Loops,
               std::vector<std::pair<const Expr *, bool>> &Guards);
  /// The cell of a `__shared__` variable that \p E reads, for the thread of
  /// \p En, as a key; nullopt when \p E is not such a read or its indices do
  /// not evaluate.
  std::optional<std::string> sharedCell(const Expr *E, const ThreadEnv &En) {
    E = E->IgnoreParenImpCasts();
    std::vector<const Expr *> Indices;
    while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      Indices.insert(Indices.begin(), Sub->getIdx());
      E = Sub->getBase()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!sharedaccess::isSharedVar(Var) || Untracked.contains(Var))
      return std::nullopt;
    Touch T;
    for (const Expr *Index : Indices) {
      std::optional<IndexValue> V = Eval.eval(Index, En);
      if (!V)
        return std::nullopt;
      T.Cell.push_back(*V);
    }
    return std::to_string(reinterpret_cast<uintptr_t>(Var)) + "@" + keyOf(T);
  }
  /// \p Guards (each a condition and whether it holds) ask one cell to
  /// equal a constant and to differ from it, or to equal two constants.
  bool contradicts(const std::vector<std::pair<const Expr *, bool>> &Guards,
                   const ThreadEnv &En) {
    std::map<std::string, std::pair<std::optional<int64_t>,
                                    llvm::SmallVector<int64_t, 2>>>
        Cells; // cell -> (equals, differs from)
    llvm::SmallVector<std::pair<const Expr *, bool>, 8> Work(Guards.begin(),
                                                             Guards.end());
    while (!Work.empty()) {
      auto [Cond, Holds] = Work.pop_back_val();
      Cond = Cond->IgnoreParenImpCasts();
      if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
          Not && Not->getOpcode() == UO_LNot) {
        Work.emplace_back(Not->getSubExpr(), !Holds);
        continue;
      }
      const auto *Binary = dyn_cast<BinaryOperator>(Cond);
      if (!Binary)
        continue;
      if ((Binary->getOpcode() == BO_LAnd && Holds) ||
          (Binary->getOpcode() == BO_LOr && !Holds)) {
        Work.emplace_back(Binary->getLHS(), Holds);
        Work.emplace_back(Binary->getRHS(), Holds);
        continue;
      }
      if (Binary->getOpcode() != BO_EQ && Binary->getOpcode() != BO_NE)
        continue;
      const Expr *Side = Binary->getLHS();
      std::optional<int64_t> Value = Eval.constant(Binary->getRHS()->IgnoreParenImpCasts());
      if (!Value) {
        Side = Binary->getRHS();
        Value = Eval.constant(Binary->getLHS()->IgnoreParenImpCasts());
      }
      if (!Value)
        continue;
      std::optional<std::string> Cell = sharedCell(Side, En);
      if (!Cell)
        continue;
      bool Equal = (Binary->getOpcode() == BO_EQ) == Holds;
      auto &[Equals, Differs] = Cells[*Cell];
      if (Equal) {
        if ((Equals && *Equals != *Value) || llvm::is_contained(Differs, *Value))
          return true;
        Equals = Value;
      } else {
        if (Equals && *Equals == *Value)
          return true;
        Differs.push_back(*Value);
      }
    }
    return false;
  }
  /// The `if (c) <exit>` statements of a compound statement, in order.
  const std::vector<const IfStmt *> &exitsOf(const CompoundStmt *Block);
  llvm::DenseMap<const CompoundStmt *, std::vector<const IfStmt *>> Exits;
  /// The function has a label, a `case` or a `default`: a jump may enter a
  /// statement other than at its start.
  bool hasJumpTargets() {
    if (!JumpTargets) {
      struct Scan : RecursiveASTVisitor<Scan> {
        bool Found = false;
        bool VisitLabelStmt(LabelStmt *) { return !(Found = true); }
        bool VisitSwitchCase(SwitchCase *) { return !(Found = true); }
        bool VisitIndirectGotoStmt(IndirectGotoStmt *) {
          return !(Found = true);
        }
      } S;
      S.TraverseStmt(FD->getBody());
      JumpTargets = S.Found;
    }
    return *JumpTargets;
  }
  std::optional<bool> JumpTargets;
  /// The counter a for loop steps, when its init, condition and step are
  /// simple and nothing else in the loop changes it.
  const VarDecl *counterOf(const ForStmt *For);
  const VarDecl *findCounter(const ForStmt *For) const;
  llvm::DenseMap<const ForStmt *, const VarDecl *> Counters;
  /// Every (loop values, cell) the thread in \p En makes \p A at; nullopt
  /// when the index or a loop does not evaluate.
  struct Touch {
    std::vector<int64_t> SharedLoops;
    std::vector<IndexValue> Cell;
    /// The loop values and the cell as one string (what pairs compare).
    std::string Key;
  };
  /// A compact key (zigzag varints: small values take a byte), so that the
  /// key of a typical cell fits in std::string's inline buffer.
  static void appendNumber(std::string &K, int64_t V) {
    uint64_t Z = (static_cast<uint64_t>(V) << 1) ^ static_cast<uint64_t>(V >> 63);
    do {
      char Byte = static_cast<char>(Z & 0x7f);
      Z >>= 7;
      K.push_back(static_cast<char>(Byte | (Z ? 0x80 : 0)));
    } while (Z);
  }
  static std::string keyOf(const Touch &T) {
    std::string K;
    appendNumber(K, static_cast<int64_t>(T.SharedLoops.size()));
    for (int64_t V : T.SharedLoops)
      appendNumber(K, V);
    for (const IndexValue &L : T.Cell) {
      appendNumber(K, L.Constant);
      appendNumber(K, static_cast<int64_t>(L.Terms.size()));
      for (const auto &[S, C] : L.Terms) {
        appendNumber(K, S);
        appendNumber(K, C);
      }
    }
    return K;
  }
  llvm::DenseMap<const Expr *,
                 std::pair<std::vector<const ForStmt *>,
                           std::vector<std::pair<const Expr *, bool>>>>
      Contexts;
  std::optional<std::vector<Touch>>
  touches(const SharedAccess &A, const ThreadEnv &Base,
          const std::vector<const ForStmt *> &SharedWith);
  std::string cellText(const SharedAccess &A, const std::vector<IndexValue> &Cell);
  /// The keys of touches() for every thread of the block, in the order of
  /// threadAt(), and each key's first two threads in different warps (or
  /// the first one); Ok is false when one thread's touches do not evaluate.
  /// Kept per access and set of shared loops: an access is in several pairs.
  /// (Only keys: the witness's cell is evaluated again for its one thread.)
  struct BlockTouches {
    bool Ok = false;
    std::vector<llvm::SmallVector<std::string, 1>> Keys;
    llvm::StringMap<llvm::SmallVector<unsigned, 2>> ByCell;
  };
  const BlockTouches &blockTouches(const SharedAccess &A,
                                   const std::vector<const ForStmt *> &SharedWith,
                                   const ThreadCoord &Block);
  /// The block touches by (access, shared loops, block shape): a function
  /// of the function, the call site and the access only, so an analysis of
  /// another barrier scope of the same function and call shares them.
  using TouchStore =
      std::map<std::tuple<const Expr *, std::vector<const ForStmt *>, ThreadCoord>,
               BlockTouches>;
  std::shared_ptr<TouchStore> TouchCache = std::make_shared<TouchStore>();
  static ThreadCoord threadAt(unsigned Id, const ThreadCoord &Block) {
    return {Id % Block[0], (Id / Block[0]) % Block[1],
            Id / (Block[0] * Block[1])};
  }
  /// The extents the launches give (the others are guesses).
  std::array<bool, 3> Known{};
};

} // namespace clang::tidy::cuda::analysis

#endif
