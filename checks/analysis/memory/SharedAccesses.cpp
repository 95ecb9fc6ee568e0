//===--- SharedAccesses.cpp - who touches which __shared__ cell, and when -===//
//
// The decide phase and the public face of the shared-memory access
// analysis; the collect and evaluate phases are SharedAccessesCollect.cpp and
// SharedAccessesEvaluate.cpp (SharedAccessesImpl.h).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/SharedAccesses.h"
#include "checks/analysis/memory/SharedAccessesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace sharedaccess;

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
