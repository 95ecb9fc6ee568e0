//===--- SharedAccesses.cpp - who touches which __shared__ cell, and when -===//

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
#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <map>
#include <tuple>

namespace clang::tidy::cuda::analysis {

namespace {

/// How many loop-value combinations and threads one access is evaluated for.
constexpr size_t MaxCombinations = 64;
constexpr unsigned MaxThreads = 256;
constexpr unsigned MaxIterations = 64;

bool isSharedVar(const VarDecl *V) {
  return V && V->hasAttr<CUDASharedAttr>() && !V->getType()->isReferenceType();
}

} // namespace

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
  static constexpr LoopRules CounterSteps{MaxIterations, /*KeepValuesAtCap=*/true,
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
    if (!isSharedVar(Var) || Untracked.contains(Var))
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

const SharedAccessAnalysis::Impl::BlockTouches &
SharedAccessAnalysis::Impl::blockTouches(
    const SharedAccess &A, const std::vector<const ForStmt *> &SharedWith,
    const ThreadCoord &Block) {
  auto [It, New] = TouchCache->try_emplace({A.Where, SharedWith, Block});
  BlockTouches &Entry = It->second;
  if (!New)
    return Entry;
  unsigned Threads = Block[0] * Block[1] * Block[2];
  Entry.Keys.resize(Threads);
  for (unsigned T = 0; T < Threads; ++T) {
    ThreadEnv En;
    En.Thread = threadAt(T, Block);
    En.Block = Block;
    std::optional<std::vector<Touch>> Mine = touches(A, En, SharedWith);
    if (!Mine) {
      Entry.Keys.clear();
      return Entry; // not Ok
    }
    for (Touch &Each : *Mine) {
      auto &Owners = Entry.ByCell[Each.Key];
      if (Owners.empty() || (Owners.size() == 1 && Owners[0] / 32 != T / 32))
        Owners.push_back(T);
      Entry.Keys[T].push_back(std::move(Each.Key));
    }
  }
  Entry.Ok = true;
  return Entry;
}

void SharedAccessAnalysis::Impl::collect() {
  const Stmt *Body = FD->getBody();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  const Stmt *CallerBody =
      Opts.Call && Opts.Caller ? Opts.Caller->getBody() : nullptr;
  if (CallerBody)
    Parents->addStmt(const_cast<Stmt *>(CallerBody));
  struct Refs : RecursiveASTVisitor<Refs> {
    ParentMap &Parents;
    Impl &Facts;
    llvm::DenseSet<const VarDecl *> &NotOnlyRead;
    llvm::DenseMap<const VarDecl *, const Stmt *> &ScopeOf;
    std::vector<const DeclRefExpr *> Found;
    std::vector<const DeclRefExpr *> Pointers;
    std::vector<const VarDecl *> PointerLocals;
    Refs(ParentMap &Parents, Impl &Facts)
        : Parents(Parents), Facts(Facts), NotOnlyRead(Facts.NotOnlyRead),
          ScopeOf(Facts.ScopeOf) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (isSharedVar(Var))
        Found.push_back(Ref);
      else if (Var && Var->getType()->isPointerType())
        Pointers.push_back(Ref);
      if (Var && !isPlainRead(Ref, Parents)) {
        NotOnlyRead.insert(Var);
        Facts.NotOnlyReadRefs[Var].push_back(Ref);
      }
      return true;
    }
    bool VisitDeclStmt(DeclStmt *Declaration) {
      const Stmt *Scope = Parents.getParent(Declaration);
      for (const clang::Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D)) {
          ScopeOf.try_emplace(Var, Scope);
          if (Var->getType()->isPointerType() && Var->hasLocalStorage() &&
              Var->getInit())
            PointerLocals.push_back(Var);
        }
      return true;
    }
    // A lambda's body can change what it captures by reference.
    bool VisitLambdaExpr(LambdaExpr *Lambda) {
      addCapturedVariables(Lambda, NotOnlyRead);
      return true;
    }
  } Scan(*Parents, *this);
  Scan.TraverseStmt(const_cast<Stmt *>(Body));
  std::vector<const DeclRefExpr *> Found = std::move(Scan.Found);
  std::vector<const DeclRefExpr *> Pointers = std::move(Scan.Pointers);
  // The caller's body: what its locals are, not its accesses.
  if (CallerBody)
    Scan.TraverseStmt(const_cast<Stmt *>(CallerBody));
  // The pointers that stand for an array.
  if (Opts.Call)
    for (const ParmVarDecl *Param : FD->parameters()) {
      unsigned Index = Param->getFunctionScopeIndex();
      if (!Param->getType()->isPointerType() ||
          Index >= Opts.Call->getNumArgs() || NotOnlyRead.contains(Param))
        continue;
      if (const VarDecl *Array =
              resolveArray(Opts.Call->getArg(Index), nullptr))
        Alias[Param] = Array;
    }
  for (const VarDecl *Local : Scan.PointerLocals) {
    if (NotOnlyRead.contains(Local))
      continue;
    const DeclRefExpr *Through = nullptr;
    if (const VarDecl *Array = resolveArray(Local->getInit(), &Through)) {
      Alias[Local] = Array;
      if (Through)
        AliasInits.insert(Through);
    }
  }
  for (const DeclRefExpr *Ref : Found)
    if (!AliasInits.contains(Ref))
      classify(Ref, cast<VarDecl>(Ref->getDecl()));
  for (const DeclRefExpr *Ref : Pointers)
    if (auto It = Alias.find(cast<VarDecl>(Ref->getDecl()));
        It != Alias.end() && !AliasInits.contains(Ref))
      classifyPointer(Ref, It->second);
  if (!Untracked.empty())
    llvm::erase_if(Accesses, [&](const SharedAccess &A) {
      return Untracked.contains(A.Var);
    });
}

void SharedAccessAnalysis::Impl::classify(const DeclRefExpr *Ref,
                                          const VarDecl *Var) {
  SharedAccess A;
  A.Var = Var;
  A.Ref = Ref;
  // Up through the subscripts to the whole access.
  const Expr *Whole = Ref;
  std::vector<const Expr *> Indices;
  while (true) {
    const Stmt *Up = Parents->getParentIgnoreParens(Whole);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up);
        Cast && Cast->getCastKind() == CK_ArrayToPointerDecay) {
      const Stmt *Above = Parents->getParentIgnoreParens(Cast);
      const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(Above);
      if (Subscript && Subscript->getBase()->IgnoreParens() == Cast) {
        Indices.push_back(Subscript->getIdx());
        Whole = Subscript;
        continue;
      }
      // The array decays to a pointer that goes somewhere else.
      Untracked.insert(Var);
      return;
    }
    break;
  }
  // A scalar, or an array read whole, needs nothing more; an array used
  // other than by subscripts (or subscripted through fewer dimensions than
  // it has) escapes.
  unsigned Dims = 0;
  QualType Element = Var->getType();
  for (const ArrayType *Array = Ctx.getAsArrayType(Element); Array;
       Array = Ctx.getAsArrayType(Element)) {
    Element = Array->getElementType();
    Dims += 1;
  }
  if (Indices.size() != Dims) {
    Untracked.insert(Var);
    return;
  }
  if (!Var->getType()->isArrayType() && !Var->getType()->isScalarType()) {
    Untracked.insert(Var); // structs: members are not tracked
    return;
  }
  A.Where = Whole;
  A.Indices = Indices;
  classifyUse(A, Whole);
}

const VarDecl *SharedAccessAnalysis::Impl::resolveArray(
    const Expr *E, const DeclRefExpr **Through, unsigned Depth) {
  if (!E || Depth > 4)
    return nullptr;
  E = E->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(E);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf) {
    // &s[0]
    const auto *Sub =
        dyn_cast<ArraySubscriptExpr>(AddrOf->getSubExpr()->IgnoreParens());
    std::optional<int64_t> Zero =
        Sub ? Eval.constant(Sub->getIdx()->IgnoreParenImpCasts()) : std::nullopt;
    if (!Zero || *Zero != 0)
      return nullptr;
    Ref = dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
  }
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return nullptr;
  if (isSharedVar(Var)) {
    const auto *Array = Ctx.getAsConstantArrayType(Var->getType());
    if (!Array && !Ctx.getAsIncompleteArrayType(Var->getType()))
      return nullptr;
    QualType Element = Ctx.getAsArrayType(Var->getType())->getElementType();
    if (Element->isArrayType() || !Element->isScalarType())
      return nullptr;
    if (Through)
      *Through = Ref;
    return Var;
  }
  // A bound parameter, or a local of the caller (or of this function) that
  // holds one.
  if (auto It = Alias.find(Var); It != Alias.end()) {
    if (Through)
      *Through = Ref;
    return It->second;
  }
  if (Var->getType()->isPointerType() && Var->hasLocalStorage() &&
      !isa<ParmVarDecl>(Var) && Var->getInit() && !NotOnlyRead.contains(Var)) {
    const VarDecl *Array = resolveArray(Var->getInit(), nullptr, Depth + 1);
    if (Array && Through)
      *Through = Ref;
    return Array;
  }
  return nullptr;
}

void SharedAccessAnalysis::Impl::classifyPointer(const DeclRefExpr *Ref,
                                                 const VarDecl *Var) {
  // p[i]: the pointer's value read, then subscripted.
  const auto *Load =
      dyn_cast_or_null<ImplicitCastExpr>(Parents->getParentIgnoreParens(Ref));
  const auto *Subscript =
      Load && Load->getCastKind() == CK_LValueToRValue
          ? dyn_cast_or_null<ArraySubscriptExpr>(
                Parents->getParentIgnoreParens(Load))
          : nullptr;
  if (!Subscript || Subscript->getBase()->IgnoreParens() != Load) {
    Untracked.insert(Var); // *p, p + k, p passed on: not followed
    return;
  }
  SharedAccess A;
  A.Var = Var;
  A.Ref = Ref;
  A.Where = Subscript;
  A.Indices = {Subscript->getIdx()};
  A.ThroughPointer = true;
  classifyUse(A, Subscript);
}

void SharedAccessAnalysis::Impl::classifyUse(SharedAccess &A,
                                             const Expr *Whole) {
  const VarDecl *Var = A.Var;
  const Stmt *Up = Parents->getParentIgnoreParens(Whole);
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up);
      Cast && Cast->getCastKind() == CK_LValueToRValue) {
    A.K = SharedAccess::Read;
  } else if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(Up);
             Binary && Binary->getLHS()->IgnoreParens() == Whole &&
             Binary->isAssignmentOp()) {
    A.K = Binary->getOpcode() == BO_Assign ? SharedAccess::Write
                                           : SharedAccess::ReadWrite;
    if (Binary->getOpcode() == BO_Assign)
      A.Stored = Binary->getRHS();
  } else if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Up);
             Unary && Unary->isIncrementDecrementOp()) {
    A.K = SharedAccess::ReadWrite;
  } else if (const auto *AddrOf = dyn_cast_or_null<UnaryOperator>(Up);
             AddrOf && AddrOf->getOpcode() == UO_AddrOf) {
    const Stmt *Arg =
        Parents->getParentIgnoreParenImpCasts(const_cast<UnaryOperator *>(AddrOf));
    const auto *Call = dyn_cast_or_null<CallExpr>(Arg);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getIdentifier() ||
        !Callee->getName().starts_with("atomic") || Call->getNumArgs() == 0 ||
        Call->getArg(0)->IgnoreParenImpCasts() != AddrOf) {
      Untracked.insert(Var);
      return;
    }
    A.K = SharedAccess::Atomic;
  } else {
    Untracked.insert(Var);
    return;
  }
  Accesses.push_back(A);
}

void SharedAccessAnalysis::Impl::chooseShape() {
  bool UsesY = false;
  bool UsesZ = false;
  struct Reads : RecursiveASTVisitor<Reads> {
    bool &Y;
    bool &Z;
    Reads(bool &Y, bool &Z) : Y(Y), Z(Z) {}
    bool VisitExpr(Expr *E) {
      if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E)) {
        if (Read->Var == BuiltinIndexRead::ThreadIdx ||
            Read->Var == BuiltinIndexRead::BlockDim) {
          Y = Y || Read->Component == 'y';
          Z = Z || Read->Component == 'z';
        }
      }
      return true;
    }
  } Scan(UsesY, UsesZ);
  Scan.TraverseStmt(FD->getBody());
  const FunctionDecl *Kernel = Opts.Caller ? Opts.Caller : FD;
  if (Kernel != FD)
    Scan.TraverseStmt(Kernel->getBody());
  Shape = {UsesY ? 16u : 256u, UsesY ? 16u : 1u, UsesZ ? 2u : 1u};
  if (UsesZ)
    Shape[0] = Shape[1] = 8;
  Known = {};
  for (unsigned Dim = 0; Dim < 3; ++Dim) {
    BlockExtentFact Fact = Manager.blockExtent(Kernel, Dim);
    if (Fact.Exact && *Fact.Exact > 0 && *Fact.Exact <= MaxBlockThreads) {
      Shape[Dim] = static_cast<unsigned>(*Fact.Exact);
      Known[Dim] = true;
    }
  }
  // A guessed extent is at most the length of an array dimension that
  // threadIdx of that extent subscripts directly (`tile[threadIdx.x]` of a
  // float[4] array: at most 4 threads in x, or the access is out of bounds).
  for (const SharedAccess &A : Accesses) {
    QualType Type = A.Var->getType();
    for (const Expr *Index : A.Indices) {
      const auto *Array =
          dyn_cast_or_null<ConstantArrayType>(Ctx.getAsArrayType(Type));
      if (!Array)
        break;
      Type = Array->getElementType();
      const Expr *Plain = Index->IgnoreParenImpCasts();
      std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(Plain);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Plain); !Read && Ref)
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
            Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
            Var->getInit() && !isMutated(Var))
          Read = asBuiltinIndexRead(Var->getInit()->IgnoreParenImpCasts());
      if (!Read || Read->Var != BuiltinIndexRead::ThreadIdx || !Read->Component)
        continue;
      unsigned Dim = Read->Component == 'y' ? 1 : Read->Component == 'z' ? 2 : 0;
      uint64_t Length = Array->getSize().getZExtValue();
      if (!Known[Dim] && Length > 0 && Length < Shape[Dim])
        Shape[Dim] = static_cast<unsigned>(Length);
    }
  }
  // Down to MaxThreads by halving the largest guessed extent; the launches'
  // extents stay as they are (a 32 x k block halved to 16 x k would no longer
  // be the block the kernel's index arithmetic is written for).
  while (Shape[0] * Shape[1] * Shape[2] > MaxThreads) {
    unsigned *Largest = nullptr;
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      if (!Known[Dim] && Shape[Dim] > 1 && (!Largest || Shape[Dim] > *Largest))
        Largest = &Shape[Dim];
    if (!Largest)
      break;
    *Largest /= 2;
  }
  // (A block is at most 1024 threads; more from the launches is not a block.)
  if (Shape[0] * Shape[1] * Shape[2] > MaxBlockThreads)
    Shape = {0, 0, 0};
}

void SharedAccessAnalysis::Impl::buildIntervals() {
  D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  if (Opts.Caller)
    CallerD = Manager.divergence(Opts.Caller);
  Intervals = std::make_unique<BarrierIntervals>(
      *D->cfg(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        if (!Call)
          return false;
        if (Opts.BarrierScope <= Scope::Warp && WarpSyncs.isWarpSync(Call))
          return true;
        if (std::optional<BarrierCall> Barrier = asBarrierCall(Call))
          return Barrier->BarrierScope >= Scope::Block;
        // A function that runs a block barrier on some path counts as one:
        // that errs towards no finding.
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          if (const CallSummary *Summary = Manager.summary(Callee))
            return llvm::any_of(Summary->Barriers, [](const BarrierSite &S) {
              return S.BarrierScope >= Scope::Block;
            });
        return false;
      });
  std::vector<const Stmt *> Points;
  Points.reserve(Accesses.size());
  for (const SharedAccess &A : Accesses)
    Points.push_back(A.Ref);
  Intervals->relate(Points, [&](const CFGBlock *Block) {
    const Stmt *Cond = Block->getTerminatorCondition();
    const auto *E = dyn_cast_or_null<Expr>(Cond);
    return !E || !uniformAt(*D, E, Opts.BarrierScope);
  });
}

std::optional<IndexValue>
SharedAccessAnalysis::Impl::groupIndex(const Expr *E, const ThreadEnv &En) {
  // `g.thread_index().x`, `g.dim_threads().y`: a component of a dim3.
  unsigned Dim = 3;
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || !Field->getIdentifier() || Member->isArrow())
      return std::nullopt;
    Dim = llvm::StringSwitch<unsigned>(Field->getName())
              .Case("x", 0)
              .Case("y", 1)
              .Case("z", 2)
              .Default(3);
    if (Dim == 3)
      return std::nullopt;
    E = Member->getBase()->IgnoreParenImpCasts();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temporary->getSubExpr()->IgnoreParenImpCasts();
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() ||
      !isInCooperativeGroupsNamespace(Callee))
    return std::nullopt;
  llvm::StringRef Name = Callee->getName();
  // The group: the object of a member call (CUDA 13 makes thread_rank() and
  // its kin static members, called through a member expression), or the
  // argument of cg::thread_rank(g) / cg::group_size(g).
  const Expr *Object = nullptr;
  bool Arrow = false;
  if (const auto *Through =
          dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
    if (Call->getNumArgs() != 0)
      return std::nullopt;
    Object = Through->getBase();
    Arrow = Through->isArrow();
  } else if (!isa<CXXMethodDecl>(Callee) && Call->getNumArgs() == 1 &&
             Dim == 3 && (Name == "thread_rank" || Name == "group_size")) {
    Object = Call->getArg(0);
    Name = Name == "group_size" ? "num_threads" : "thread_rank";
  }
  if (!Object)
    return std::nullopt;
  QualType Type = Object->IgnoreParenImpCasts()->getType();
  if (Arrow)
    Type = Type->getPointeeType();
  std::optional<GroupKind> Kind = groupKindOfType(Type.getNonReferenceType());
  if (!Kind)
    return std::nullopt;
  const ThreadCoord &T = En.Thread;
  const ThreadCoord &B = En.Block;
  int64_t Rank = T[0] + static_cast<int64_t>(B[0]) * (T[1] + int64_t{B[1]} * T[2]);
  int64_t Size = static_cast<int64_t>(B[0]) * B[1] * B[2];
  IndexValue L;
  if (Dim < 3) {
    if (*Kind == GroupKind::ThreadBlock && Name == "thread_index") {
      L.Constant = T[Dim];
      return L;
    }
    if (*Kind == GroupKind::ThreadBlock &&
        (Name == "dim_threads" || Name == "group_dim")) {
      L.Constant = B[Dim];
      return L;
    }
    if (*Kind == GroupKind::GridGroup && Name == "thread_index") {
      L = IndexValue::symbol(Eval.builtinSymbol(BuiltinIndexRead::BlockIdx, Dim));
      L.scale(B[Dim]);
      L.Constant = T[Dim];
      return L;
    }
    return std::nullopt;
  }
  bool IsSize = Name == "num_threads" || Name == "size";
  if (Name != "thread_rank" && !IsSize)
    return std::nullopt;
  if (*Kind == GroupKind::ThreadBlock) {
    L.Constant = IsSize ? Size : Rank;
    return L;
  }
  if (*Kind != GroupKind::Tile)
    return std::nullopt;
  // A static tile of a power of two: its lanes are consecutive threads.
  std::optional<unsigned> Tile = tileSizeOfType(Type);
  if (!Tile || *Tile == 0 || (*Tile & (*Tile - 1)))
    return std::nullopt;
  L.Constant = IsSize ? int64_t{*Tile} : Rank % *Tile;
  return L;
}

/// \p S leaves the block it is in: a return, break or continue, or a block
/// that ends in one.
static bool leaves(const Stmt *S) {
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    return !Block->body_empty() && leaves(Block->body_back());
  return isa_and_nonnull<ReturnStmt, BreakStmt, ContinueStmt>(S);
}

const std::vector<const IfStmt *> &
SharedAccessAnalysis::Impl::exitsOf(const CompoundStmt *Block) {
  auto [It, New] = Exits.try_emplace(Block);
  if (New)
    for (const Stmt *S : Block->body())
      if (const auto *If = dyn_cast<IfStmt>(S);
          If && If->getCond() && !If->getElse() && !If->getInit() &&
          !If->getConditionVariable() && !If->isConsteval() &&
          leaves(If->getThen()))
        It->second.push_back(If);
  return It->second;
}

void SharedAccessAnalysis::Impl::context(
    const Stmt *S, std::vector<const ForStmt *> &Loops,
    std::vector<std::pair<const Expr *, bool>> &Guards) {
  const Stmt *Child = S;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *Up = Parents->getParent(S); Up;
       Child = Up, Up = Parents->getParent(Up)) {
    if (const auto *Block = dyn_cast<CompoundStmt>(Up)) {
      // A break or continue of an exit leaves the loop (or switch) around
      // this block, which holds S too; a return leaves the kernel.
      for (const IfStmt *Exit : exitsOf(Block)) {
        if (Exit == Child ||
            !SM.isBeforeInTranslationUnit(Exit->getBeginLoc(),
                                          Child->getBeginLoc()))
          break;
        Guards.emplace_back(Exit->getCond(), false);
      }
    } else if (const auto *For = dyn_cast<ForStmt>(Up)) {
      if (Child == For->getBody() || Child == For->getInc() ||
          Child == For->getCond())
        Loops.insert(Loops.begin(), For);
    } else if (std::optional<std::pair<const Expr *, bool>> Guard =
                   branchCondition(Up, Child)) {
      Guards.push_back(*Guard);
    }
  }
  // Call-site context: the callee's body runs where the call does.
  if (Opts.Call && Child == FD->getBody())
    context(Opts.Call, Loops, Guards);
}

const VarDecl *SharedAccessAnalysis::Impl::counterOf(const ForStmt *For) {
  auto [It, New] = Counters.try_emplace(For, nullptr);
  if (New)
    It->second = findCounter(For);
  return It->second;
}

const VarDecl *SharedAccessAnalysis::Impl::findCounter(const ForStmt *For) const {
  const VarDecl *Counter = loopVariable(For, /*AllowAssignedInit=*/true);
  if (!Counter || !Counter->getType()->isIntegralOrEnumerationType())
    return nullptr;
  // Nothing in the body changes it (asked of ExprMutationAnalyzer only when
  // a reference to it in the body is more than a plain read).
  auto InBody = [&](const DeclRefExpr *Ref) {
    for (const Stmt *Up = Ref; Up; Up = Parents->getParent(Up))
      if (Up == For->getBody())
        return true;
    return false;
  };
  auto Refs = NotOnlyReadRefs.find(Counter);
  if (For->getBody() && Refs != NotOnlyReadRefs.end() &&
      llvm::any_of(Refs->second, InBody)) {
    ExprMutationAnalyzer InBody(*For->getBody(), Ctx);
    if (InBody.isMutated(Counter))
      return nullptr;
  }
  return Counter;
}

std::optional<std::vector<SharedAccessAnalysis::Impl::Touch>>
SharedAccessAnalysis::Impl::touches(
    const SharedAccess &A, const ThreadEnv &Base,
    const std::vector<const ForStmt *> &SharedWith) {
  // The same for every thread: asked once per access.
  auto [Cached, New] = Contexts.try_emplace(A.Where);
  if (New)
    context(A.Where, Cached->second.first, Cached->second.second);
  const std::vector<const ForStmt *> &Loops = Cached->second.first;
  const std::vector<std::pair<const Expr *, bool>> &Guards =
      Cached->second.second;
  // Every combination of the loops' counters, outermost first.
  std::vector<ThreadEnv> Envs = {Base};
  std::vector<std::vector<int64_t>> Keys = {{}};
  for (const ForStmt *For : Loops) {
    const VarDecl *Counter = counterOf(For);
    bool Shared = llvm::is_contained(SharedWith, For);
    int64_t LoopTag = static_cast<int64_t>(
        llvm::find(SharedWith, For) - SharedWith.begin());
    std::vector<ThreadEnv> NextEnvs;
    std::vector<std::vector<int64_t>> NextKeys;
    for (size_t I = 0; I < Envs.size(); ++I) {
      std::optional<std::vector<int64_t>> Values =
          Counter ? Eval.runLoop(For, Counter, Envs[I], CounterSteps)
                  : std::nullopt;
      if (!Values) {
        // A loop the evaluation cannot run: fine as long as the access does
        // not read its counter (the cells are then the same in every
        // iteration); an index that does read it then fails to evaluate.
        NextEnvs.push_back(Envs[I]);
        NextKeys.push_back(Keys[I]);
        continue;
      }
      for (int64_t V : *Values) {
        if (NextEnvs.size() >= MaxCombinations)
          break;
        ThreadEnv E = Envs[I];
        E.setCounter(Counter, V);
        NextEnvs.push_back(std::move(E));
        std::vector<int64_t> K = Keys[I];
        if (Shared) {
          K.push_back(LoopTag);
          K.push_back(V);
        }
        NextKeys.push_back(std::move(K));
      }
    }
    Envs = std::move(NextEnvs);
    Keys = std::move(NextKeys);
  }
  std::vector<Touch> Out;
  for (size_t I = 0; I < Envs.size(); ++I) {
    bool Taken = true;
    for (const auto &[Cond, Holds] : Guards) {
      std::optional<bool> T = Eval.truth(Cond, Envs[I]);
      if (T && *T != Holds) {
        Taken = false;
        break;
      }
    }
    // Conditions that ask one __shared__ cell to be a value and not to be
    // it (`if (s[y][x] == 0) if (s[y][k] != 0)` for the thread with x == k)
    // never all hold.
    if (Taken && contradicts(Guards, Envs[I]))
      Taken = false;
    if (!Taken)
      continue;
    Touch T;
    T.SharedLoops = Keys[I];
    for (const Expr *Index : A.Indices) {
      std::optional<IndexValue> V = Eval.eval(Index, Envs[I]);
      if (!V)
        return std::nullopt;
      T.Cell.push_back(*V);
    }
    T.Key = keyOf(T);
    Out.push_back(std::move(T));
  }
  return Out;
}

std::string
SharedAccessAnalysis::Impl::cellText(const SharedAccess &A,
                                     const std::vector<IndexValue> &Cell) {
  std::string Text = A.Var->getName().str();
  for (const IndexValue &L : Cell) {
    std::string Part;
    for (const auto &[Symbol, Coeff] : L.Terms) {
      if (!Part.empty())
        Part += " + ";
      if (Coeff != 1)
        Part += std::to_string(Coeff) + "*";
      Part += Eval.symbolName(Symbol);
    }
    if (Part.empty() || L.Constant != 0)
      Part += (Part.empty() ? "" : " + ") + std::to_string(L.Constant);
    Text += "[" + Part + "]";
  }
  return Text;
}

SharedAccessAnalysis::SharedAccessAnalysis(const FunctionDecl *Kernel,
                                           ASTContext &Ctx,
                                           FactQueries &Manager,
                                           SharedAccessOptions Options,
                                           const SharedAccessAnalysis *Sibling)
    : P(std::make_unique<Impl>(Kernel, Ctx, Manager, Options)) {
  if (Sibling && Sibling->P->FD == Kernel &&
      Sibling->P->Opts.Call == Options.Call &&
      Sibling->P->Opts.Caller == Options.Caller)
    P->TouchCache = Sibling->P->TouchCache;
  bool WithCallSite = Options.Call && Options.Caller &&
                      Options.Caller->getBody() &&
                      Options.Call->getDirectCallee() &&
                      Options.Call->getDirectCallee()->getCanonicalDecl() ==
                          (Kernel ? Kernel->getCanonicalDecl() : nullptr);
  if (!WithCallSite)
    P->Opts.Call = nullptr, P->Opts.Caller = nullptr;
  if (!Kernel || !Kernel->getBody() ||
      (!Kernel->hasAttr<CUDAGlobalAttr>() && !WithCallSite) ||
      Kernel->isDependentContext())
    return;
  P->collect();
  if (P->Accesses.empty())
    return;
  P->chooseShape();
  if (P->Shape[0] == 0) {
    P->Accesses.clear();
    return;
  }
  P->buildIntervals();
  if (!P->Intervals)
    P->Accesses.clear();
}

SharedAccessAnalysis::~SharedAccessAnalysis() = default;

llvm::ArrayRef<SharedAccess> SharedAccessAnalysis::accesses() const {
  return P->Accesses;
}

std::optional<unsigned>
SharedAccessAnalysis::intervalOf(const SharedAccess &A) const {
  if (!P->Intervals)
    return std::nullopt;
  return P->Intervals->intervalOf(A.Ref);
}

bool SharedAccessAnalysis::isCyclic(unsigned Interval) const {
  return P->Intervals && P->Intervals->isCyclic(Interval);
}

std::vector<SharedAccessGroup> SharedAccessAnalysis::groups() const {
  std::vector<SharedAccessGroup> Out;
  llvm::DenseMap<std::pair<const VarDecl *, unsigned>, size_t> Index;
  for (const SharedAccess &A : P->Accesses) {
    std::optional<unsigned> Interval = intervalOf(A);
    if (!Interval)
      continue;
    auto [It, New] = Index.try_emplace({A.Var, *Interval}, Out.size());
    if (New)
      Out.push_back({A.Var, *Interval, {}});
    Out[It->second].Members.push_back(&A);
  }
  const SourceManager &SM = P->Ctx.getSourceManager();
  // Source order; accesses at one place keep their order in Accesses (the
  // members point into it). A total order, so llvm::sort is deterministic
  // (std::stable_sort's temporary buffer is deprecated in libstdc++ 12).
  auto Before = [&](const SharedAccess *L, const SharedAccess *R) {
    const SourceLocation LL = L->Where->getBeginLoc();
    const SourceLocation RL = R->Where->getBeginLoc();
    if (LL != RL)
      return SM.isBeforeInTranslationUnit(LL, RL);
    return std::less<>()(L, R);
  };
  for (SharedAccessGroup &G : Out)
    llvm::sort(G.Members, Before);
  llvm::sort(Out, [&](const SharedAccessGroup &L, const SharedAccessGroup &R) {
    return Before(L.Members.front(), R.Members.front());
  });
  return Out;
}


ThreadCoord SharedAccessAnalysis::blockShape() const { return P->Shape; }

const Stmt *SharedAccessAnalysis::separatingPoint(const SharedAccess &First,
                                                  const SharedAccess &Second) const {
  if (!P->Intervals || !P->D || First.Where == Second.Where ||
      P->Intervals->meeting(First.Ref, Second.Ref) !=
          BarrierIntervals::Meeting::SameIteration)
    return nullptr;
  // (SameIteration: no barrier-free path runs from the second back to the
  // first around a loop, which would stay after a barrier between them.)
  if (P->hasJumpTargets())
    return nullptr;
  // The statements of the innermost block holding both that hold each.
  llvm::SmallVector<const Stmt *, 16> UpFirst;
  for (const Stmt *S = First.Where; S; S = P->Parents->getParent(S))
    UpFirst.push_back(S);
  const Stmt *Child = Second.Where;
  for (const Stmt *Up = P->Parents->getParent(Child); Up;
       Child = Up, Up = P->Parents->getParent(Up)) {
    const auto *Common = llvm::find(UpFirst, Up);
    if (Common == UpFirst.end())
      continue;
    const auto *Block = dyn_cast<CompoundStmt>(Up);
    if (!Block || Common == UpFirst.begin())
      return nullptr;
    const Stmt *FirstChild = *std::prev(Common);
    if (FirstChild == Child)
      return nullptr;
    for (const Stmt *S : Block->body()) {
      if (S == Child)
        return nullptr; // the second access's statement comes first
      if (S == FirstChild)
        break;
    }
    if (P->D->divergenceAt(Child, P->Opts.BarrierScope) ||
        (P->Opts.Call &&
         P->D->controlUniformity(Child).dependsOnSymbols()))
      return nullptr;
    return Child;
  }
  return nullptr;
}

/// \p E, or a local with one value it names, reads one of \p Counters.
static bool readsCounter(const Expr *E,
                         const llvm::SmallPtrSetImpl<const VarDecl *> &Counters,
                         unsigned Depth = 0) {
  if (!E || Depth > 2)
    return false;
  llvm::SmallVector<const Stmt *, 16> Work = {E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
        if (Counters.contains(Var))
          return true;
        if (Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
            readsCounter(Var->getInit(), Counters, Depth + 1))
          return true;
      }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

std::optional<SharedConflict>
SharedAccessAnalysis::conflict(const SharedAccess &A,
                               const SharedAccess &B) const {
  auto Changes = [](const SharedAccess &X) {
    return X.writes() || X.K == SharedAccess::Atomic;
  };
  if (A.Var != B.Var || (!Changes(A) && !Changes(B)) ||
      (A.K == SharedAccess::Atomic && B.K == SharedAccess::Atomic) ||
      A.Indices.size() != B.Indices.size() || !P->Intervals)
    return std::nullopt;
  // Accesses on one barrier-free cycle meet in any iterations of the loops
  // around them; accesses joined without a back edge, or after a branch
  // threads take differently, in the same one. A pair joined only around a
  // back edge meets in a later iteration: it is compared only when the
  // loops' counters do not matter to its cells.
  BarrierIntervals::Meeting Meets = P->Intervals->meeting(A.Ref, B.Ref);
  if (Meets == BarrierIntervals::Meeting::Never)
    return std::nullopt;
  bool AcrossIterations = Meets == BarrierIntervals::Meeting::AnyIteration;
  // (Also a pair in two loops one after the other: the way out of a loop
  // is its condition's back edge. Only a loop around both makes the pair
  // one of different iterations.)
  bool CountersMustNotMatter =
      Meets == BarrierIntervals::Meeting::LaterIteration;
  std::vector<const ForStmt *> LoopsA;
  std::vector<const ForStmt *> LoopsB;
  std::vector<std::pair<const Expr *, bool>> GuardsA;
  std::vector<std::pair<const Expr *, bool>> GuardsB;
  P->context(A.Where, LoopsA, GuardsA);
  P->context(B.Where, LoopsB, GuardsB);
  std::vector<const ForStmt *> SharedLoops;
  for (const ForStmt *For : LoopsA)
    if (llvm::is_contained(LoopsB, For))
      SharedLoops.push_back(For);
  if (CountersMustNotMatter && !SharedLoops.empty()) {
    llvm::SmallPtrSet<const VarDecl *, 4> Counters;
    for (const ForStmt *For : SharedLoops)
      if (const VarDecl *Counter = P->counterOf(For))
        Counters.insert(Counter);
    auto Matters = [&](const SharedAccess &X,
                       const std::vector<std::pair<const Expr *, bool>> &G) {
      return llvm::any_of(X.Indices,
                          [&](const Expr *I) {
                            return readsCounter(I, Counters);
                          }) ||
             llvm::any_of(G, [&](const auto &Guard) {
               return readsCounter(Guard.first, Counters);
             });
    };
    if (Matters(A, GuardsA) || Matters(B, GuardsB))
      return std::nullopt;
  }
  if (AcrossIterations) {
    // The barrier-free cycle the two lie on runs around some of the loops
    // they share (those whose condition is on it): their iterations meet.
    // The others (an outer loop with a barrier in every iteration) still
    // meet in one iteration only.
    std::optional<unsigned> Cycle = P->Intervals->segmentOf(A.Ref);
    llvm::erase_if(SharedLoops, [&](const ForStmt *For) {
      if (!Cycle || !For->getCond())
        return false;
      std::optional<unsigned> Head = P->Intervals->segmentOf(For->getCond());
      if (!Head)
        Head = P->Intervals->segmentOf(For->getCond()->IgnoreParenImpCasts());
      return Head && P->Intervals->segmentOnCycle(*Head) &&
             P->Intervals->componentOf(*Head) ==
                 P->Intervals->componentOf(*Cycle);
    });
  }
  // Two threads of a block of this shape and the cell they touch, preferring
  // threads of different warps.
  auto Search = [&](const ThreadCoord &Shape) -> std::optional<SharedConflict> {
    const Impl::BlockTouches &TA = P->blockTouches(A, SharedLoops, Shape);
    if (!TA.Ok)
      return std::nullopt;
    const Impl::BlockTouches &TB = P->blockTouches(B, SharedLoops, Shape);
    if (!TB.Ok)
      return std::nullopt;
    // Threads are numbered as threadAt() numbers them: Id / 32 is the warp.
    std::optional<std::pair<unsigned, unsigned>> Found; // (A's, B's)
    std::string FoundKey;
    for (unsigned I = 0; I < TB.Keys.size(); ++I) {
      for (const std::string &Key : TB.Keys[I]) {
        auto It = TA.ByCell.find(Key);
        if (It == TA.ByCell.end())
          continue;
        for (unsigned Other : It->second) {
          if (Other == I)
            continue;
          bool Cross = Other / 32 != I / 32;
          if (!Found || (Cross && Found->first / 32 == Found->second / 32)) {
            Found = {Other, I};
            FoundKey = Key;
            if (Cross)
              break;
          }
        }
        if (Found && Found->first / 32 != Found->second / 32)
          break;
      }
      if (Found && Found->first / 32 != Found->second / 32)
        break;
    }
    if (!Found)
      return std::nullopt;
    // The witness's cell, evaluated again for its one thread.
    ThreadEnv En;
    En.Thread = Impl::threadAt(Found->second, Shape);
    En.Block = Shape;
    std::string Cell = "?";
    if (std::optional<std::vector<Impl::Touch>> Mine =
            P->touches(B, En, SharedLoops))
      for (const Impl::Touch &T : *Mine)
        if (T.Key == FoundKey) {
          Cell = P->cellText(A, T.Cell);
          break;
        }
    std::optional<SharedConflict> Best = SharedConflict{
        Impl::threadAt(Found->first, Shape), Impl::threadAt(Found->second, Shape),
        Found->first / 32 != Found->second / 32, Cell,
        AcrossIterations || (CountersMustNotMatter && !SharedLoops.empty())};
    return Best;
  };
  std::optional<SharedConflict> Best = Search(P->Shape);
  // A block extent the launches do not give is a guess: a conflict between
  // warps counts only when it also shows in a block half as large in the
  // guessed extents (index arithmetic written for the real extent, such as a
  // fill loop that steps by the block's size spelled as a constant, then
  // shows no conflict in one of the two).
  if (Best && Best->CrossWarp) {
    ThreadCoord Half = P->Shape;
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      if (!P->Known[Dim] && Half[Dim] > 1)
        Half[Dim] /= 2;
    if (Half != P->Shape) {
      std::optional<SharedConflict> Again = Search(Half);
      if (!Again || !Again->CrossWarp)
        return std::nullopt;
    }
  }
  return Best;
}

std::string threadName(const ThreadCoord &T, const ThreadCoord &Shape) {
  if (Shape[1] == 1 && Shape[2] == 1)
    return "thread " + std::to_string(T[0]);
  std::string Name =
      "thread (" + std::to_string(T[0]) + ", " + std::to_string(T[1]);
  if (Shape[2] > 1)
    Name += ", " + std::to_string(T[2]);
  return Name + ")";
}

std::vector<const CallExpr *> sharedArrayCalls(const FunctionDecl *Kernel) {
  struct Calls : RecursiveASTVisitor<Calls> {
    std::vector<const CallExpr *> Found;
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (Found.size() >= 64 || !Callee || !Callee->hasBody() ||
          Callee->hasAttr<CUDAGlobalAttr>() || isa<CXXMethodDecl>(Callee))
        return true;
      for (const Expr *Arg : Call->arguments()) {
        const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenCasts());
        if (const auto *AddrOf =
                dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
            AddrOf && AddrOf->getOpcode() == UO_AddrOf)
          if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(
                  AddrOf->getSubExpr()->IgnoreParens()))
            Ref = dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
        const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        if (Var && (isSharedVar(Var) ||
                    (Var->getType()->isPointerType() && Var->hasLocalStorage() &&
                     !isa<ParmVarDecl>(Var)))) {
          Found.push_back(Call);
          break;
        }
      }
      return true;
    }
  } Scan;
  if (Kernel && Kernel->getBody())
    Scan.TraverseStmt(Kernel->getBody());
  return Scan.Found;
}

} // namespace clang::tidy::cuda::analysis
