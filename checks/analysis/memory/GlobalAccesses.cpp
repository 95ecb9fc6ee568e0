//===--- GlobalAccesses.cpp - lanes of one warp talking through memory ----===//

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

namespace {

/// A block's size when no launch gives it.
constexpr unsigned DefaultBlockThreads = 256;
/// How far a loop is run, and how many combinations of loop values one
/// thread's access is evaluated for: larger than the race analysis's, since
/// a scratch row is often filled by a loop over a warp's worth of cells.
constexpr unsigned MaxIterations = 256;
constexpr size_t MaxCombinations = 256;

/// A cell as one string, to group the threads that touch it.
std::string cellKey(const IndexValue &Cell) {
  std::string K = std::to_string(Cell.Constant);
  for (const auto &[S, C] : Cell.Terms)
    K += "|" + std::to_string(S) + ":" + std::to_string(C);
  return K;
}

bool isSharedVar(const VarDecl *V) {
  return V && V->hasAttr<CUDASharedAttr>() && !V->getType()->isReferenceType();
}

/// nvcuda::wmma::<Name>.
bool isWmma(const FunctionDecl *F, llvm::StringRef Name) {
  if (!F || !F->getIdentifier() || F->getName() != Name)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(F->getDeclContext());
  if (!NS || NS->getName() != "wmma")
    return false;
  const auto *Outer = dyn_cast<NamespaceDecl>(NS->getDeclContext());
  return Outer && Outer->getName() == "nvcuda";
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

} // namespace

struct GlobalAccessAnalysis::Impl {
  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  GlobalAccessOptions Opts;
  unsigned BlockThreads = DefaultBlockThreads;
  bool Analyzable = false;
  /// The function's divergence, and with call-site context the caller's.
  const FunctionDivergence *D = nullptr;
  const FunctionDivergence *CallerD = nullptr;
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<ParentMap> CallerParents;
  llvm::DenseSet<const VarDecl *> Mutated;
  std::vector<MemoryAccess> Accesses;
  std::vector<Info> Infos;
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
  bool resolve(const Expr *E, Offset &Out, unsigned Depth = 0);
  void collect();
  void addAccess(MemoryAccess::Kind K, const Expr *Where, Offset Off,
                 std::optional<Tile> T = std::nullopt);
  std::optional<MemoryAccess::Kind> kindOf(const Expr *Where) const;
  void contextOf(const Expr *Where, Info &I);
  void contextIn(const Stmt *From, const Stmt *Top, ParentMap &PM, Info &I);
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
  static constexpr LoopRules CounterSteps{MaxIterations,
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

// --- collection ---------------------------------------------------------------

bool GlobalAccessAnalysis::Impl::resolve(const Expr *E, Offset &Out,
                                         unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_NoOp:
    case CK_ArrayToPointerDecay:
    case CK_LValueToRValue:
      return resolve(Cast->getSubExpr(), Out, Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return false;
    if (isSharedVar(Var)) {
      if (!Var->getType()->isArrayType())
        return false;
      Out.Base = Var;
      Out.Shared = true;
      return true;
    }
    if (!Var->getType()->isPointerType() || Mutated.contains(Var))
      return false;
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
      if (Opts.Call && Param->getDeclContext() == FD) {
        unsigned Index = Param->getFunctionScopeIndex();
        if (Index >= Opts.Call->getNumArgs())
          return false;
        return resolve(Opts.Call->getArg(Index), Out, Depth + 1);
      }
      if (Param->getDeclContext() != kernel())
        return false;
      Out.Base = Param;
      Out.Shared = false;
      return true;
    }
    if (Var->hasLocalStorage() && Var->getInit())
      return resolve(Var->getInit(), Out, Depth + 1);
    return false;
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    if (Unary->getOpcode() != UO_AddrOf)
      return false;
    const auto *Sub =
        dyn_cast<ArraySubscriptExpr>(Unary->getSubExpr()->IgnoreParens());
    if (!Sub)
      return false;
    return resolve(Sub, Out, Depth + 1);
  }
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    QualType T = Sub->getType();
    if (T->isIncompleteType() || T->isDependentType())
      return false;
    if (!resolve(Sub->getBase(), Out, Depth + 1))
      return false;
    int64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
    Out.Terms.emplace_back(Sub->getIdx(), Size);
    Out.ElementSize = Size;
    return true;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() != BO_Add && Binary->getOpcode() != BO_Sub)
      return false;
    const Expr *Ptr = Binary->getLHS();
    const Expr *Int = Binary->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Int);
    if (!Ptr->getType()->isPointerType() ||
        !Int->getType()->isIntegralOrEnumerationType() ||
        (Binary->getOpcode() == BO_Sub && Ptr != Binary->getLHS()))
      return false;
    QualType Pointee = Ptr->getType()->getPointeeType();
    if (Pointee->isIncompleteType() || Pointee->isDependentType())
      return false;
    if (!resolve(Ptr, Out, Depth + 1))
      return false;
    int64_t Size = Ctx.getTypeSizeInChars(Pointee).getQuantity();
    Out.Terms.emplace_back(Int, Binary->getOpcode() == BO_Sub ? -Size : Size);
    return true;
  }
  return false;
}

std::optional<MemoryAccess::Kind>
GlobalAccessAnalysis::Impl::kindOf(const Expr *Where) const {
  const Stmt *Up = Parents->getParentIgnoreParens(Where);
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up))
    return Cast->getCastKind() == CK_LValueToRValue
               ? std::optional<MemoryAccess::Kind>(MemoryAccess::Read)
               : std::nullopt;
  if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(Up)) {
    if (Binary->getLHS()->IgnoreParens() != Where)
      return std::nullopt;
    if (Binary->getOpcode() == BO_Assign)
      return MemoryAccess::Write;
    if (Binary->isCompoundAssignmentOp())
      return MemoryAccess::ReadWrite;
    return std::nullopt;
  }
  if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Up))
    if (Unary->isIncrementDecrementOp())
      return MemoryAccess::ReadWrite;
  return std::nullopt;
}

const VarDecl *GlobalAccessAnalysis::Impl::counterOf(const ForStmt *For) {
  if (auto It = Counters.find(For); It != Counters.end())
    return It->second;
  const VarDecl *Found = loopVariable(For, /*AllowAssignedInit=*/false);
  if (Found && !Found->getType()->isIntegerType())
    Found = nullptr;
  if (Found) {
    // Changed only by the step.
    struct Writes : RecursiveASTVisitor<Writes> {
      const VarDecl *Var;
      ParentMap &PM;
      bool Written = false;
      Writes(const VarDecl *Var, ParentMap &PM) : Var(Var), PM(PM) {}
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        if (Ref->getDecl() != Var)
          return true;
        if (!isPlainRead(Ref, PM))
          Written = true;
        return true;
      }
    } Scan(Found, *Parents);
    Scan.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    Scan.TraverseStmt(const_cast<Expr *>(For->getCond()));
    if (Scan.Written)
      Found = nullptr;
  }
  Counters[For] = Found;
  return Found;
}

void GlobalAccessAnalysis::Impl::contextIn(const Stmt *From, const Stmt *Top,
                                           ParentMap &PM, Info &I) {
  const Stmt *Child = From;
  std::vector<const ForStmt *> Loops;
  for (unsigned Depth = 0; Child && Child != Top && Depth < 256; ++Depth) {
    const Stmt *Up = PM.getParent(Child);
    if (!Up)
      break;
    if (std::optional<std::pair<const Expr *, bool>> Guard =
            branchCondition(Up, Child)) {
      I.Guards.push_back(*Guard);
    } else if (const auto *While = dyn_cast<WhileStmt>(Up)) {
      if (Child == While->getBody())
        I.Guards.emplace_back(While->getCond(), true);
    } else if (const auto *For = dyn_cast<ForStmt>(Up)) {
      if (Child == For->getBody()) {
        if (&PM == Parents.get() && counterOf(For))
          Loops.push_back(For);
        else if (For->getCond())
          I.Guards.emplace_back(For->getCond(), true);
      }
    } else if (const auto *Block = dyn_cast<CompoundStmt>(Up)) {
      // `if (c) return;` (or break / continue) before it: it needs !c.
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        const auto *Exit = dyn_cast<IfStmt>(S);
        if (!Exit || Exit->getElse())
          continue;
        const Stmt *Then = Exit->getThen();
        if (const auto *Inner = dyn_cast<CompoundStmt>(Then);
            Inner && Inner->size() == 1)
          Then = Inner->body_front();
        if (isa<ReturnStmt, BreakStmt, ContinueStmt>(Then))
          I.Guards.emplace_back(Exit->getCond(), false);
      }
    }
    Child = Up;
  }
  std::reverse(Loops.begin(), Loops.end());
  I.Loops.insert(I.Loops.begin(), Loops.begin(), Loops.end());
}

void GlobalAccessAnalysis::Impl::contextOf(const Expr *Where, Info &I) {
  contextIn(Where, FD->getBody(), *Parents, I);
  if (Opts.Call && CallerParents)
    contextIn(Opts.Call, Opts.Caller->getBody(), *CallerParents, I);
}

void GlobalAccessAnalysis::Impl::addAccess(MemoryAccess::Kind K,
                                           const Expr *Where, Offset Off,
                                           std::optional<Tile> T) {
  MemoryAccess A;
  A.K = K;
  A.Base = Off.Base;
  A.Shared = Off.Shared;
  A.Where = Where;
  Info I;
  I.Off = std::move(Off);
  I.T = T;
  contextOf(Where, I);
  Accesses.push_back(A);
  Infos.push_back(std::move(I));
}

void GlobalAccessAnalysis::Impl::collect() {
  struct Scan : RecursiveASTVisitor<Scan> {
    std::vector<const Expr *> Found;
    std::vector<const CallExpr *> Calls;
    bool TwoDimensional = false;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      Found.push_back(E);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *E) {
      if (E->getOpcode() == UO_Deref)
        Found.push_back(E);
      return true;
    }
    bool VisitCallExpr(CallExpr *E) {
      Calls.push_back(E);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
        if (Read->Var == BuiltinIndexRead::ThreadIdx && Read->Component &&
            Read->Component != 'x')
          TwoDimensional = true;
      return true;
    }
    bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
      if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
        if (Read->Var == BuiltinIndexRead::ThreadIdx && Read->Component &&
            Read->Component != 'x')
          TwoDimensional = true;
      return true;
    }
  } S;
  S.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  if (S.TwoDimensional)
    return;
  for (const Expr *E : S.Found) {
    if (E->getType()->isArrayType() || E->isTypeDependent())
      continue;
    std::optional<MemoryAccess::Kind> K = kindOf(E);
    if (!K)
      continue;
    Offset Off;
    bool Ok = false;
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      Ok = resolve(Sub, Off);
    } else if (const auto *Deref = dyn_cast<UnaryOperator>(E)) {
      Ok = resolve(Deref->getSubExpr(), Off);
      QualType T = Deref->getType();
      if (Ok && !T->isIncompleteType() && !T->isDependentType())
        Off.ElementSize = Ctx.getTypeSizeInChars(T).getQuantity();
    }
    if (!Ok || !Off.Base)
      continue;
    // __shared__ memory: only the reads of wmma tiles are this file's.
    if (Off.Shared && *K != MemoryAccess::Read)
      continue;
    addAccess(*K, E, std::move(Off));
  }
  for (const CallExpr *Call : S.Calls) {
    if (!isWmma(Call->getDirectCallee(), "store_matrix_sync") ||
        Call->getNumArgs() < 3)
      continue;
    Offset Off;
    if (!resolve(Call->getArg(0), Off) || !Off.Base)
      continue;
    QualType PtrType = Call->getArg(0)->IgnoreParenImpCasts()->getType();
    if (!PtrType->isPointerType())
      PtrType = Call->getArg(0)->getType();
    if (!PtrType->isPointerType())
      continue;
    QualType Elem = PtrType->getPointeeType();
    if (Elem->isIncompleteType() || Elem->isDependentType())
      continue;
    Off.ElementSize = Ctx.getTypeSizeInChars(Elem).getQuantity();
    const auto *Frag = Call->getArg(1)->getType()->getAsCXXRecordDecl();
    const auto *Spec =
        dyn_cast_or_null<ClassTemplateSpecializationDecl>(Frag);
    if (!Spec || Spec->getTemplateArgs().size() < 3)
      continue;
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args[1].getKind() != TemplateArgument::Integral ||
        Args[2].getKind() != TemplateArgument::Integral)
      continue;
    Tile T;
    T.M = Args[1].getAsIntegral().getZExtValue();
    T.N = Args[2].getAsIntegral().getZExtValue();
    T.Ldm = Call->getArg(2);
    if (Call->getNumArgs() >= 4)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              Call->getArg(3)->IgnoreParenImpCasts())) {
        if (Ref->getDecl()->getName() == "mem_row_major")
          T.RowMajor = true;
        else if (Ref->getDecl()->getName() == "mem_col_major")
          T.RowMajor = false;
      }
    if (T.M == 0 || T.N == 0 || T.M > 64 || T.N > 64)
      continue;
    addAccess(MemoryAccess::TileStore, Call, std::move(Off), T);
  }
  // Source order.
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<unsigned> Order(Accesses.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    SourceLocation LA = Accesses[A].Where->getBeginLoc();
    SourceLocation LB = Accesses[B].Where->getBeginLoc();
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A < B;
  });
  std::vector<MemoryAccess> SortedA;
  std::vector<Info> SortedI;
  for (unsigned I : Order) {
    SortedA.push_back(Accesses[I]);
    SortedI.push_back(std::move(Infos[I]));
  }
  Accesses = std::move(SortedA);
  Infos = std::move(SortedI);
}

void GlobalAccessAnalysis::Impl::buildIntervals() {
  Intervals = std::make_unique<BarrierIntervals>(
      *D->cfg(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        return Call && WarpSyncs.isWarpSync(Call);
      });
  for (const CFGBlock *Block : *D->cfg()) {
    if (!Block)
      continue;
    unsigned Index = 0;
    for (const CFGElement &E : *Block) {
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        ElementAt.try_emplace(S->getStmt(), Block, Index);
      ++Index;
    }
  }
}

bool GlobalAccessAnalysis::Impl::reaches(const Stmt *From, const Stmt *To) {
  auto F = ElementAt.find(From);
  if (F == ElementAt.end() || !ElementAt.contains(To))
    return false;
  llvm::DenseSet<const CFGBlock *> Entered;
  std::vector<std::pair<const CFGBlock *, unsigned>> Work{
      {F->second.first, F->second.second + 1}};
  while (!Work.empty()) {
    auto [Block, Start] = Work.back();
    Work.pop_back();
    bool Stopped = false;
    for (unsigned I = Start; I < Block->size(); ++I) {
      std::optional<CFGStmt> S = (*Block)[I].getAs<CFGStmt>();
      if (!S)
        continue;
      if (S->getStmt() == To)
        return true;
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
          Call && WarpSyncs.isWarpSync(Call)) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    for (const CFGBlock::AdjacentBlock &Next : Block->succs())
      if (const CFGBlock *B = Next.getReachableBlock())
        if (Entered.insert(B).second)
          Work.emplace_back(B, 0);
  }
  return false;
}

void GlobalAccessAnalysis::Impl::run() {
  if (Opts.Call && (!Opts.Caller || !Opts.Caller->getBody()))
    return;
  if (!Opts.Call && !FD->hasAttr<CUDAGlobalAttr>())
    return;
  if (!FD->getBody())
    return;
  D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  if (Opts.Caller)
    CallerD = Manager.divergence(Opts.Caller);
  BlockExtentFact X = Manager.blockExtent(kernel(), 0);
  if (X.Exact && *X.Exact >= 1)
    BlockThreads = static_cast<unsigned>(
        std::min<uint64_t>(*X.Exact, MaxBlockThreads));
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));
  if (Opts.Call)
    CallerParents =
        std::make_unique<ParentMap>(const_cast<Stmt *>(Opts.Caller->getBody()));
  // Variables written or whose address is taken: not followed.
  addVariablesNotOnlyRead(FD->getBody(), *Parents, Mutated,
                          /*Assigned=*/nullptr, /*WithArrays=*/false);
  if (Opts.Call)
    addVariablesNotOnlyRead(Opts.Caller->getBody(), *CallerParents, Mutated,
                            /*Assigned=*/nullptr, /*WithArrays=*/false);
  collect();
  if (Accesses.empty())
    return;
  buildIntervals();
  Analyzable = true;
}

// --- evaluation ---------------------------------------------------------------

std::optional<std::vector<IndexValue>>
GlobalAccessAnalysis::Impl::cellsFor(unsigned Index, unsigned T) {
  const Info &I = Infos[Index];
  std::vector<ThreadEnv> Envs(1);
  Envs[0].Thread = {T, 0, 0};
  for (const ForStmt *For : I.Loops) {
    std::vector<ThreadEnv> Next;
    for (const ThreadEnv &E : Envs) {
      const VarDecl *Counter = counterOf(For);
      std::optional<std::vector<int64_t>> Values =
          Counter ? Eval.runLoop(For, Counter, E, CounterSteps) : std::nullopt;
      if (!Values)
        return std::nullopt;
      for (int64_t V : *Values) {
        ThreadEnv N = E;
        N.Counters.emplace_back(Counter, V);
        Next.push_back(std::move(N));
      }
      if (Next.size() > MaxCombinations)
        return std::nullopt;
    }
    Envs = std::move(Next);
  }
  std::vector<IndexValue> Out;
  for (const ThreadEnv &E : Envs) {
    bool Makes = true;
    for (const auto &[Cond, Needed] : I.Guards)
      if (std::optional<bool> V = Eval.truth(Cond, E); V && *V != Needed) {
        Makes = false;
        break;
      }
    if (!Makes)
      continue;
    IndexValue Cell;
    for (const auto &[Term, Scale] : I.Off.Terms) {
      std::optional<IndexValue> V = Eval.eval(Term, E);
      if (!V)
        return std::nullopt;
      Cell.add(V->scale(Scale), 1);
    }
    if (!I.T) {
      Out.push_back(std::move(Cell));
      continue;
    }
    // A tile store: its origin, and the leading dimension as a constant
    // last entry.
    std::optional<IndexValue> Ldm = Eval.eval(I.T->Ldm, E);
    if (!Ldm || !Ldm->isConstant() || Ldm->Constant <= 0)
      return std::nullopt;
    Out.push_back(std::move(Cell));
    Out.push_back(*Ldm);
  }
  return Out;
}

const std::optional<std::vector<std::vector<IndexValue>>> &
GlobalAccessAnalysis::Impl::cells(unsigned A) {
  auto It = CellCache.find(A);
  if (It != CellCache.end())
    return It->second;
  std::optional<std::vector<std::vector<IndexValue>>> All =
      std::vector<std::vector<IndexValue>>(BlockThreads);
  for (unsigned T = 0; T < BlockThreads; ++T) {
    std::optional<std::vector<IndexValue>> C = cellsFor(A, T);
    if (!C) {
      All.reset();
      break;
    }
    (*All)[T] = std::move(*C);
  }
  return CellCache[A] = std::move(All);
}

std::string GlobalAccessAnalysis::Impl::render(const IndexValue &Bytes,
                                               const MemoryAccess &A) {
  int64_t Size = std::max<int64_t>(1, Infos[&A - Accesses.data()].Off.ElementSize);
  bool Divides = Bytes.Constant % Size == 0 &&
                 llvm::all_of(Bytes.Terms, [&](const auto &T) {
                   return T.second % Size == 0;
                 });
  int64_t Div = Divides ? Size : 1;
  std::string Text;
  for (const auto &[S, C] : Bytes.Terms) {
    int64_t Coeff = C / Div;
    if (!Text.empty())
      Text += Coeff < 0 ? " - " : " + ";
    else if (Coeff < 0)
      Text += "-";
    int64_t Abs = Coeff < 0 ? -Coeff : Coeff;
    Text += Eval.symbolName(S);
    if (Abs != 1)
      Text += " * " + std::to_string(Abs);
  }
  int64_t K = Bytes.Constant / Div;
  if (Text.empty())
    Text = std::to_string(K);
  else if (K != 0)
    Text += (K < 0 ? " - " : " + ") + std::to_string(K < 0 ? -K : K);
  std::string Name = A.Base->getName().str();
  if (!Divides)
    return "byte " + Text + " of '" + Name + "'";
  return Name + "[" + Text + "]";
}

std::vector<MemoryExchange> GlobalAccessAnalysis::Impl::exchanges() {
  std::vector<MemoryExchange> Out;
  if (!Analyzable)
    return Out;
  struct Key {
    const ValueDecl *Base;
    unsigned Interval;
    bool Tile;
    bool operator<(const Key &O) const {
      return std::tie(Base, Interval, Tile) < std::tie(O.Base, O.Interval, O.Tile);
    }
  };
  std::map<Key, MemoryExchange> Groups;
  std::set<Key> AcrossWarps;
  std::vector<Key> Order;
  auto Meets = [&](unsigned W, unsigned R) {
    return W == R || reaches(Accesses[W].Where, Accesses[R].Where);
  };
  for (unsigned R = 0; R < Accesses.size(); ++R) {
    const MemoryAccess &Read = Accesses[R];
    if (!Read.reads())
      continue;
    std::optional<unsigned> Interval = Intervals->intervalOf(Read.Where);
    if (!Interval)
      continue;
    bool Partner = llvm::any_of(Accesses, [&](const MemoryAccess &W) {
      return W.Base == Read.Base &&
             (W.K == MemoryAccess::TileStore || (W.writes() && !Read.Shared));
    });
    if (!Partner)
      continue;
    const auto &ReadCells = cells(R);
    if (!ReadCells)
      continue;
    for (unsigned W = 0; W < Accesses.size(); ++W) {
      const MemoryAccess &Write = Accesses[W];
      bool IsTile = Write.K == MemoryAccess::TileStore;
      if (Write.Base != Read.Base || (!IsTile && !Write.writes()) ||
          (!IsTile && Read.Shared))
        continue;
      Key K{Read.Base, *Interval, IsTile};
      if (AcrossWarps.count(K))
        continue;
      if (!Meets(W, R))
        continue;
      const auto &WriteCells = cells(W);
      if (!WriteCells)
        continue;
      std::optional<LaneWitness> Witness;
      bool Cross = false;
      if (!IsTile) {
        auto [Cached, NewWriters] = WritersCache.try_emplace(W);
        std::map<std::string, std::vector<unsigned>> &Writers = Cached->second;
        if (NewWriters)
          for (unsigned T = 0; T < BlockThreads; ++T)
            for (const IndexValue &C : (*WriteCells)[T]) {
              std::vector<unsigned> &List = Writers[cellKey(C)];
              if (List.empty() || List.back() != T)
                List.push_back(T);
            }
        for (unsigned T = 0; T < BlockThreads && !Cross; ++T)
          for (const IndexValue &C : (*ReadCells)[T]) {
            auto It = Writers.find(cellKey(C));
            if (It == Writers.end())
              continue;
            for (unsigned By : It->second) {
              if (By == T)
                continue;
              if (By / 32 != T / 32) {
                Cross = true;
                break;
              }
              if (!Witness)
                Witness = LaneWitness{By, T, render(C, Read)};
            }
            if (Cross)
              break;
          }
      } else {
        // Per warp: the tile's origin and leading dimension.
        const Tile &TI = *Infos[W].T;
        int64_t Size = std::max<int64_t>(1, Infos[W].Off.ElementSize);
        unsigned Warps = (BlockThreads + 31) / 32;
        std::vector<std::optional<std::pair<IndexValue, int64_t>>> Origin(Warps);
        bool Consistent = true;
        for (unsigned T = 0; T < BlockThreads && Consistent; ++T) {
          const std::vector<IndexValue> &C = (*WriteCells)[T];
          for (size_t I = 0; I + 1 < C.size(); I += 2) {
            std::pair<IndexValue, int64_t> O{C[I], C[I + 1].Constant};
            auto &Slot = Origin[T / 32];
            if (!Slot)
              Slot = O;
            else if (!(Slot->first == O.first) || Slot->second != O.second)
              Consistent = false;
          }
        }
        if (!Consistent)
          continue;
        auto InTile = [&](const IndexValue &Cell, const std::pair<IndexValue, int64_t> &O) {
          IndexValue Diff = Cell;
          Diff.add(O.first, -1);
          if (!Diff.isConstant() || Diff.Constant < 0 ||
              Diff.Constant % Size != 0)
            return false;
          int64_t E = Diff.Constant / Size;
          int64_t Major = E / O.second;
          int64_t Minor = E % O.second;
          bool Row = Major < TI.M && Minor < TI.N;
          bool Col = Major < TI.N && Minor < TI.M;
          if (!TI.RowMajor)
            return Row && Col;
          return *TI.RowMajor ? Row : Col;
        };
        for (unsigned T = 0; T < BlockThreads && !Cross; ++T)
          for (const IndexValue &C : (*ReadCells)[T]) {
            for (unsigned Warp = 0; Warp < Warps; ++Warp) {
              if (!Origin[Warp] || !InTile(C, *Origin[Warp]))
                continue;
              if (Warp != T / 32) {
                Cross = true;
                break;
              }
              if (!Witness)
                Witness = LaneWitness{Warp * 32, T, render(C, Read)};
            }
            if (Cross)
              break;
          }
      }
      if (Cross) {
        AcrossWarps.insert(K);
        Groups.erase(K);
        continue;
      }
      if (!Witness)
        continue;
      auto [It, New] = Groups.try_emplace(K);
      if (New) {
        It->second.Base = Read.Base;
        It->second.Tile = IsTile;
        Order.push_back(K);
      }
      std::vector<MemoryExchangeRead> &Reads = It->second.Reads;
      if (Reads.empty() || Reads.back().Read != &Read)
        Reads.push_back(MemoryExchangeRead{&Read, &Write, *Witness});
    }
  }
  for (const Key &K : Order)
    if (auto It = Groups.find(K); It != Groups.end())
      Out.push_back(std::move(It->second));
  return Out;
}

// --- interface ----------------------------------------------------------------

GlobalAccessAnalysis::GlobalAccessAnalysis(const FunctionDecl *FD,
                                           ASTContext &Ctx,
                                           FactQueries &Manager,
                                           GlobalAccessOptions Options)
    : P(std::make_unique<Impl>(FD, Ctx, Manager, Options)) {
  P->run();
}

GlobalAccessAnalysis::~GlobalAccessAnalysis() = default;

const std::vector<MemoryAccess> &GlobalAccessAnalysis::accesses() const {
  return P->Accesses;
}

unsigned GlobalAccessAnalysis::blockThreads() const { return P->BlockThreads; }

std::vector<MemoryExchange> GlobalAccessAnalysis::exchanges() const {
  return P->exchanges();
}

std::vector<const CallExpr *> pointerArgumentCalls(const FunctionDecl *Kernel) {
  std::vector<const CallExpr *> Out;
  if (!Kernel || !Kernel->getBody())
    return Out;
  const SourceManager &SM = Kernel->getASTContext().getSourceManager();
  for (const CallExpr *Call : callsIn(Kernel->getBody())) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || isa<CXXMethodDecl>(Callee))
      continue;
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->hasBody() || Def->hasAttr<CUDAGlobalAttr>() ||
        SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())) ||
        Def->isDependentContext())
      continue;
    if (llvm::none_of(Call->arguments(), [](const Expr *A) {
          return A->getType()->isPointerType() || A->getType()->isArrayType();
        }))
      continue;
    Out.push_back(Call);
    if (Out.size() >= 64)
      break;
  }
  return Out;
}

} // namespace clang::tidy::cuda::analysis
