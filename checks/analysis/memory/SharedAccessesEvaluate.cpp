//===--- SharedAccessesEvaluate.cpp - the cells one thread touches ----------===//
//
// The evaluate phase of the shared-memory access analysis
// (SharedAccessesImpl.h): the cells an access touches for one thread, or
// for every thread of the block, under the loops around it and the
// conditions that decide whether the thread reaches it.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/SharedAccessesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace sharedaccess;

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

std::optional<IndexValue>
SharedAccessAnalysis::Impl::groupIndex(const Expr *E, const ThreadEnv &En) {
  // `g.thread_index().x`, `g.dim_threads().y`: a component of a dim3.
  unsigned Dim = 3;
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || !Field->getIdentifier() || Member->isArrow())
      return std::nullopt;
    std::optional<unsigned> Component = dimComponentIndex(Field->getName());
    if (!Component)
      return std::nullopt;
    Dim = *Component;
    E = Member->getBase()->IgnoreParenImpCasts();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temporary->getSubExpr()->IgnoreParenImpCasts();
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() ||
      !isInCooperativeGroupsNamespace(Callee))
    return std::nullopt;
  // The group: the object of a member call (CUDA 13 makes thread_rank() and
  // its kin static members, called through a member expression), or the
  // argument of cg::thread_rank(g) / cg::group_size(g).
  const Expr *Object = nullptr;
  bool Arrow = false;
  std::optional<GroupQuery> Query;
  if (const auto *Through =
          dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts())) {
    if (Call->getNumArgs() != 0)
      return std::nullopt;
    Object = Through->getBase();
    Arrow = Through->isArrow();
    Query = groupMemberQuery(Callee->getName());
  } else if (!isa<CXXMethodDecl>(Callee) && Call->getNumArgs() == 1 &&
             Dim == 3) {
    Query = groupFunctionQuery(Callee->getName());
    if (Query)
      Object = Call->getArg(0);
  }
  if (!Object || !Query)
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
    if (*Kind == GroupKind::ThreadBlock && *Query == GroupQuery::ThreadIndex) {
      L.Constant = T[Dim];
      return L;
    }
    if (*Kind == GroupKind::ThreadBlock && *Query == GroupQuery::DimThreads) {
      L.Constant = B[Dim];
      return L;
    }
    if (*Kind == GroupKind::GridGroup && *Query == GroupQuery::ThreadIndex) {
      L = IndexValue::symbol(Eval.builtinSymbol(BuiltinIndexRead::BlockIdx, Dim));
      L.scale(B[Dim]);
      L.Constant = T[Dim];
      return L;
    }
    return std::nullopt;
  }
  bool IsSize = *Query == GroupQuery::NumThreads;
  if (*Query != GroupQuery::ThreadRank && !IsSize)
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

} // namespace clang::tidy::cuda::analysis
