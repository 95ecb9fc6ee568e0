//===--- DivergenceAnalysis.cpp - where GPU threads can disagree ----------===//
//
// The queries and the public face of the solver. The solver's phases are in
// their own files (see DivergenceSolver.h for the reading order): the body
// scan, the dataflow over CFG blocks, the transfer functions of
// expressions, and the branch regions and control dependences.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/divergence/DivergenceSolver.h"

namespace clang::tidy::cuda::analysis {

using namespace divergence;

llvm::StringRef divergenceKindName(DivergenceKind Kind) {
  switch (Kind) {
  case DivergenceKind::Branch:
    return "branch";
  case DivergenceKind::EarlyExit:
    return "early exit";
  case DivergenceKind::LoopTripCount:
    return "loop trip count";
  case DivergenceKind::Switch:
    return "switch";
  case DivergenceKind::Goto:
    return "goto";
  case DivergenceKind::ViaCall:
    return "via call";
  }
  return "branch";
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const CFGBlock *FunctionDivergence::Impl::blockOf(const Stmt *S) const {
  for (const Stmt *Cur = S; Cur; Cur = Parents->getParent(Cur)) {
    if (const auto *E = dyn_cast<Expr>(Cur)) {
      auto It = StmtBlock.find(E->IgnoreParens());
      if (It != StmtBlock.end())
        return It->second;
    }
    auto It = StmtBlock.find(Cur);
    if (It != StmtBlock.end())
      return It->second;
  }
  return nullptr;
}

Uniformity FunctionDivergence::Impl::cachedValue(const Expr *E) const {
  auto It = Values.find(E->IgnoreParens());
  return It == Values.end() ? Uniformity() : It->second.U;
}

Uniformity FunctionDivergence::Impl::effectiveCondition(
    unsigned Block, llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  const std::optional<Uniformity> &C = Cond[Block];
  if (!C)
    return Uniformity();
  return Inputs ? C->resolve(Inputs) : C->withoutSymbols();
}

std::pair<const ValueDecl *, ValueOrigin> FunctionDivergence::Impl::explain(
    const Expr *E, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  auto Effective = [&](const Uniformity &U) {
    return Inputs ? U.resolve(Inputs) : U.withoutSymbols();
  };
  // The first variable, left to right, whose value is what makes the
  // condition non-uniform.
  llvm::SmallVector<const Stmt *, 16> Work = {E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      Uniformity U = Effective(cachedValue(Ref));
      if (U.level() < Within && isa<VarDecl>(Ref->getDecl()) &&
          !asBuiltinIndexRead(Ref))
        return {Ref->getDecl(), U.origin()};
      continue;
    }
    if (isa<LambdaExpr>(S))
      continue;
    llvm::SmallVector<const Stmt *, 4> Children(S->child_begin(),
                                                S->child_end());
    for (auto It = Children.rbegin(); It != Children.rend(); ++It)
      Work.push_back(*It);
  }
  return {nullptr, Effective(cachedValue(E)).origin()};
}

DivergenceReason FunctionDivergence::Impl::describe(
    unsigned Block, const Stmt *Target, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  const CFGBlock *B = blockById(Block);
  DivergenceReason R;
  R.Function = FD;
  R.Branch = B->getTerminatorStmt();
  R.Condition = conditionOf(B);
  R.ConditionUniformity = effectiveCondition(Block, Inputs);

  // && and || in the condition of an if or a loop: classify by that
  // statement, keep the operand as the condition.
  const Stmt *Owner = R.Branch;
  if (const auto *Logical = dyn_cast_or_null<BinaryOperator>(R.Branch);
      Logical && Logical->isLogicalOp()) {
    const Stmt *Cur = Logical;
    const Stmt *Parent = Parents->getParent(Cur);
    while (Parent &&
           (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
            isa<FullExpr>(Parent) ||
            (isa<UnaryOperator>(Parent) &&
             cast<UnaryOperator>(Parent)->getOpcode() == UO_LNot) ||
            (isa<BinaryOperator>(Parent) &&
             cast<BinaryOperator>(Parent)->isLogicalOp()))) {
      Cur = Parent;
      Parent = Parents->getParent(Cur);
    }
    const Expr *OwnerCond = nullptr;
    if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
      OwnerCond = If->getCond();
    else if (const auto *For = dyn_cast_or_null<ForStmt>(Parent))
      OwnerCond = For->getCond();
    else if (const auto *While = dyn_cast_or_null<WhileStmt>(Parent))
      OwnerCond = While->getCond();
    else if (const auto *Do = dyn_cast_or_null<DoStmt>(Parent))
      OwnerCond = Do->getCond();
    else if (const auto *Cond =
                 dyn_cast_or_null<AbstractConditionalOperator>(Parent))
      OwnerCond = Cond->getCond();
    if (OwnerCond && OwnerCond->IgnoreParens() == Cur)
      Owner = Parent;
  }

  if (Owner && isLoopStmt(Owner)) {
    R.Kind = DivergenceKind::LoopTripCount;
  } else if (Owner && isa<SwitchStmt>(Owner)) {
    R.Kind = DivergenceKind::Switch;
  } else if (Owner && isa<IndirectGotoStmt>(Owner)) {
    R.Kind = DivergenceKind::Goto;
  } else if (const auto *If = dyn_cast_or_null<IfStmt>(Owner);
             If && Target && !isWithin(*Parents, Target, If)) {
    // The point is after the if: threads skipped it by leaving the if's
    // arm through a jump.
    const Stmt *Jump = findExitJump(If->getThen(), false, false);
    if (!Jump)
      Jump = findExitJump(If->getElse(), false, false);
    if (Jump) {
      R.Exit = Jump;
      R.Kind = isa<GotoStmt>(Jump) || isa<IndirectGotoStmt>(Jump)
                   ? DivergenceKind::Goto
                   : DivergenceKind::EarlyExit;
    }
  }

  if (R.Condition) {
    auto [Via, Origin] = explain(R.Condition, Within, Inputs);
    R.Via = Via;
    R.Origin = Origin;
  }
  if (R.Origin.Kind == OriginKind::None)
    R.Origin = R.ConditionUniformity.origin();
  return R;
}

std::optional<DivergenceReason> FunctionDivergence::Impl::findReason(
    const Stmt *S, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs,
    const llvm::DenseSet<unsigned> *Exclude) const {
  const CFGBlock *B = blockOf(S);
  if (!B || !Visited.test(B->getBlockID()))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  // Breadth first over control dependences: the nearest diverging branch
  // explains the point best; among equally near ones, the innermost.
  llvm::SmallVector<unsigned, 4> Frontier;
  llvm::DenseSet<unsigned> Seen;
  for (unsigned A : ControlDeps[B->getBlockID()])
    if (!Exclude || !Exclude->contains(A))
      if (Seen.insert(A).second)
        Frontier.push_back(A);
  while (!Frontier.empty()) {
    std::optional<unsigned> Best;
    for (unsigned A : Frontier) {
      if (!(effectiveCondition(A, Inputs).level() < Within))
        continue;
      if (!Best) {
        Best = A;
        continue;
      }
      const Stmt *BestStmt = blockById(*Best)->getTerminatorStmt();
      const Stmt *AStmt = blockById(A)->getTerminatorStmt();
      if (BestStmt && AStmt &&
          SM.isBeforeInTranslationUnit(BestStmt->getBeginLoc(),
                                       AStmt->getBeginLoc()))
        Best = A;
    }
    if (Best)
      return describe(*Best, S, Within, Inputs);
    llvm::SmallVector<unsigned, 4> Next;
    for (unsigned A : Frontier)
      for (unsigned D : ControlDeps[A])
        if (!Exclude || !Exclude->contains(D))
          if (Seen.insert(D).second)
            Next.push_back(D);
    Frontier = std::move(Next);
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The public face
//===----------------------------------------------------------------------===//

FunctionDivergence::FunctionDivergence(const FunctionDecl *FD, ASTContext &Ctx,
                                       const AnalysisOptions &Options,
                                       FactQueries *Manager)
    : P(std::make_unique<Impl>(FD, Ctx, Options, Manager)) {
  P->run();
}

FunctionDivergence::FunctionDivergence(
    const FunctionDecl *FD, ASTContext &Ctx, const AnalysisOptions &Options,
    FactQueries *Manager,
    llvm::ArrayRef<std::optional<Uniformity>> ParameterValues)
    : P(std::make_unique<Impl>(FD, Ctx, Options, Manager)) {
  P->ParameterValues.assign(ParameterValues.begin(), ParameterValues.end());
  P->run();
}

FunctionDivergence::~FunctionDivergence() = default;

const FunctionDecl *FunctionDivergence::function() const { return P->FD; }
bool FunctionDivergence::isAnalyzed() const { return P->Analyzed; }
const CFG *FunctionDivergence::cfg() const { return P->Cfg.get(); }

const CFGBlock *FunctionDivergence::blockOf(const Stmt *S) const {
  return P->Analyzed && S ? P->blockOf(S) : nullptr;
}

llvm::ArrayRef<const CallExpr *> FunctionDivergence::calls() const {
  return P->Calls;
}

bool FunctionDivergence::isReachable(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  return B && P->Visited.test(B->getBlockID());
}

Uniformity FunctionDivergence::uniformityOf(const Expr *E) const {
  if (!P->Analyzed || !E)
    return Uniformity();
  return P->cachedValue(E);
}

Uniformity FunctionDivergence::returnUniformity() const {
  return P->ReturnValue;
}

Uniformity FunctionDivergence::indirectStoreUniformity() const {
  return P->IndirectStores;
}

std::optional<Uniformity>
FunctionDivergence::referenceParameterExit(unsigned Index) const {
  if (Index >= P->ReferenceParamExit.size())
    return std::nullopt;
  return P->ReferenceParamExit[Index];
}

const std::vector<std::optional<Uniformity>> *
FunctionDivergence::thisFieldExits() const {
  return P->ThisFieldsKept ? &P->ThisFieldExit : nullptr;
}

Uniformity FunctionDivergence::symbolValueAtCall(const CallExpr *Call,
                                                 unsigned Symbol) const {
  auto It = P->Bindings.find(Call);
  if (It == P->Bindings.end())
    return Uniformity();
  for (const auto &[S, U] : It->second)
    if (S == Symbol)
      return U;
  return Uniformity();
}

Uniformity FunctionDivergence::controlUniformity(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return Uniformity();
  return P->Control[B->getBlockID()];
}

std::optional<DivergenceReason>
FunctionDivergence::divergenceAt(const Stmt *S, Scope Within) const {
  return divergenceAt(S, Level::of(Within));
}

std::optional<DivergenceReason> FunctionDivergence::divergenceAt(
    const Stmt *S, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  if (!P->Analyzed || !S)
    return std::nullopt;
  return P->findReason(S, Within, Inputs, nullptr);
}

std::optional<DivergenceReason>
FunctionDivergence::divergenceWithinTile(const Stmt *S,
                                         unsigned TileSize) const {
  std::optional<Level> Tile = Level::tile(TileSize);
  return divergenceAt(S, Tile ? *Tile : Level::block());
}

std::optional<DivergenceReason>
FunctionDivergence::divergenceSince(const Stmt *From, const Stmt *To,
                                    Level Within) const {
  if (!P->Analyzed || !From || !To)
    return std::nullopt;
  const CFGBlock *FromBlock = P->blockOf(From);
  if (!FromBlock)
    return divergenceAt(To, Within);
  // Everything From already depends on is not new divergence.
  llvm::DenseSet<unsigned> Before;
  const auto &FromDeps = P->ControlDeps[FromBlock->getBlockID()];
  llvm::SmallVector<unsigned, 8> Work(FromDeps.begin(), FromDeps.end());
  while (!Work.empty()) {
    unsigned A = Work.pop_back_val();
    if (!Before.insert(A).second)
      continue;
    llvm::append_range(Work, P->ControlDeps[A]);
  }
  return P->findReason(To, Within, {}, &Before);
}

std::pair<const ValueDecl *, ValueOrigin>
FunctionDivergence::explain(const Expr *E, Level Within,
                            llvm::function_ref<Uniformity(unsigned)> Inputs)
    const {
  if (!P->Analyzed || !E)
    return {nullptr, ValueOrigin()};
  return P->explain(E, Within, Inputs);
}

} // namespace clang::tidy::cuda::analysis
