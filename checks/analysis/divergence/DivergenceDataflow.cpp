//===--- DivergenceDataflow.cpp - the fixed point -------------------------===//
//
// The forward dataflow over CFG blocks: entry states (with the butterfly
// reductions and the sync/temporal divergence of branch regions folded in),
// block visits, statement transfer, and the variable slots (declare, assign,
// stores through pointers, escaped locals).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/divergence/DivergenceSolver.h"

namespace clang::tidy::cuda::analysis {

using namespace divergence;

//===----------------------------------------------------------------------===//
// The fixed point
//===----------------------------------------------------------------------===//

void FunctionDivergence::Impl::run() {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return;
  IsKernel = FD->hasAttr<CUDAGlobalAttr>();
  RowsWarpAligned = Mgr ? Mgr->rowsAreWarpAligned(FD)
                        : Opts.AssumeBlockDimXMultipleOf32;
  if (Mgr)
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      Extents[Dim] = Mgr->blockExtent(FD, Dim);
  PlanesWarpAligned =
      std::min<uint64_t>(Extents[0].Factor, 1u << 10) *
          std::min<uint64_t>(Extents[1].Factor, 1u << 10) % 32 ==
      0;

  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  Options.AddInitializers = false;
  Options.AddLifetime = false;
  Options.AddScopes = false;
  Options.AddEHEdges = false;
  Options.AddCXXNewAllocator = false;
  Options.AddCXXDefaultInitExprInCtors = false;
  Cfg = CFG::buildCFG(FD, const_cast<Stmt *>(Body), &Ctx, Options);
  if (!Cfg)
    return;
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  scanBody(Body);
  mapBlocks();
  // Every analysis of a TU stays cached: size the maps for this function.
  // (DenseMap's reserve() and first insertion allocate 64 buckets at least;
  // constructing with a count allocates just enough.)
  Values = decltype(Values)(StmtBlock.size());
  Bindings = decltype(Bindings)(Calls.size());
  PostDom = std::make_unique<CFGPostDomTree>(Cfg.get());

  unsigned N = Cfg->getNumBlockIDs();
  Out.assign(N, State());
  Visited.resize(N);
  Cond.assign(N, std::nullopt);
  Regions.resize(N);
  JoinOf.assign(N, {});

  // Parameters whose address escapes start from what the caller passed.
  State Initial = initialState();
  for (unsigned Slot = 0; Slot < Vars.size(); ++Slot)
    if (Escaped.test(Slot) && isa<ParmVarDecl>(Vars[Slot]))
      escapedJoin(Slot, Initial[Slot]);
  EscapedChanged = false;

  PostOrderCFGView Order(Cfg.get());
  ForwardDataflowWorklist Worklist(*Cfg, &Order);
  Worklist.enqueueBlock(&Cfg->getEntry());
  // Locals whose address escaped are flow-insensitive; when one of them
  // narrows, every block that read it runs again.
  while (true) {
    while (const CFGBlock *B = Worklist.dequeue())
      visit(B, Worklist);
    if (!EscapedChanged)
      break;
    EscapedChanged = false;
    for (const CFGBlock *B : *Cfg)
      if (Visited.test(B->getBlockID()))
        Worklist.enqueueBlock(B);
  }

  const CFGBlock &Exit = Cfg->getExit();
  if (Visited.test(Exit.getBlockID()))
    ReturnValue = Out[Exit.getBlockID()][ReturnSlot];
  // What each writable reference parameter holds on return: the slot's
  // value at the exit, with the sync dependence of every divergent branch
  // that stored into it on some path. A caller takes this for the variable
  // it bound, rather than the join of every store the function makes
  // (split_node1(parent, key, nodeIdx, mydata, alloc) stores a per-lane
  // `mydata` and a broadcast `nodeIdx`: only the first is per-lane).
  ReferenceParamExit.assign(FD->getNumParams(), std::nullopt);
  for (unsigned Index = 0; Index < FD->getNumParams(); ++Index) {
    const ParmVarDecl *Param = FD->getParamDecl(Index);
    auto Slot = slotOf(Param);
    if (!Slot || !Param->getType()->isReferenceType() ||
        !isWritableIndirection(Param->getType()) ||
        Index >= Uniformity::FirstCaptureSymbol || IsKernel)
      continue;
    // Captured by reference, its address taken, bound to another
    // reference: stores the dataflow does not see may reach it, so the
    // caller takes the join of every store instead (nullopt).
    if (Escaped.test(*Slot))
      continue;
    if (!Visited.test(Exit.getBlockID()))
      continue; // no path returns: nothing reaches the caller this way
    Uniformity V = Out[Exit.getBlockID()][*Slot];
    ReferenceParamExit[Index] = V.clearLaneLinear().setPointsToLocal(false);
  }
  // What each field of `*this` holds on return, for the callers' objects.
  if (ThisFieldsKept) {
    ThisFieldExit.assign(ThisFieldSlots.size(), std::nullopt);
    if (Visited.test(Exit.getBlockID()))
      for (unsigned I = 0; I < ThisFieldSlots.size(); ++I) {
        Uniformity V = Out[Exit.getBlockID()][ThisFieldSlots[I]];
        ThisFieldExit[I] = V.clearLaneLinear().setPointsToLocal(false);
      }
  }
  computeControl();
  Analyzed = true;
  releaseSolverState();
}

void FunctionDivergence::Impl::initializeMembers() {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD);
  if (!Ctor || ThisFieldSlots.empty())
    return;
  auto ThisSlot = [&](const FieldDecl *Field) -> std::optional<unsigned> {
    auto It = FieldSlot.find({nullptr, Field});
    if (It == FieldSlot.end())
      return std::nullopt;
    return It->second;
  };
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    const Expr *Value = Init->getInit();
    if (!Value)
      continue;
    if (const FieldDecl *Field = Init->getMember()) {
      if (auto Slot = ThisSlot(Field))
        Live->mutableAt(*Slot) =
            Uniformity(valueOf(Value)).clearLaneLinear().setPointsToLocal(
                false);
      continue;
    }
    // A base's constructor: what it leaves in the base's fields.
    if (const auto *Construct =
            dyn_cast<CXXConstructExpr>(Value->IgnoreImplicit()))
      constructInto(Construct, ThisSlot);
  }
}

void FunctionDivergence::Impl::constructInto(
    const CXXConstructExpr *Construct,
    llvm::function_ref<std::optional<unsigned>(const FieldDecl *)>
        SlotOfField) {
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  llvm::SmallVector<const FieldDecl *, 8> Fields;
  if (!Ctor || !flattenedFields(Ctor->getParent(), MaxThisFields, Fields))
    return;
  Uniformity Arguments;
  for (const Expr *Arg : Construct->arguments())
    Arguments.join(argumentValue(Arg));
  Arguments.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
  const CallSummary *Summary =
      Mgr && !Ctor->isDependentContext() ? Mgr->summary(Ctor) : nullptr;
  bool Kept = Summary && !Summary->Conservative && Summary->ThisFieldsKept &&
              Summary->ThisFieldExit.size() == Fields.size();
  // A fresh object's fields hold nothing any thread set: their symbols
  // (a field no initializer sets) are uniform.
  auto SymbolValue = [&](unsigned Symbol) -> Uniformity {
    if (Symbol < Construct->getNumArgs() &&
        Symbol < Uniformity::FirstCaptureSymbol)
      return argumentValue(Construct->getArg(Symbol));
    return Uniformity();
  };
  llvm::SmallVector<std::pair<unsigned, Uniformity>, 8> Updates;
  for (unsigned I = 0; I < Fields.size(); ++I) {
    auto Slot = SlotOfField(Fields[I]);
    if (!Slot)
      continue;
    if (!Kept) {
      Updates.push_back({*Slot, Arguments});
      continue;
    }
    const std::optional<Uniformity> &Exit = Summary->ThisFieldExit[I];
    Updates.push_back(
        {*Slot, Exit ? Exit->resolve(SymbolValue) : Uniformity()});
  }
  for (const auto &[Slot, V] : Updates)
    Live->mutableAt(Slot) = V;
}

/// Every analysis of a TU stays cached while the checks run, so what only
/// the fixed point and computeControl() need goes: the queries read Values,
/// Cond, Control, ControlDeps, Bindings and the CFG maps.
void FunctionDivergence::Impl::releaseSolverState() {
  Out = std::vector<State>();
  Regions = std::vector<std::unique_ptr<Region>>();
  JoinOf = std::vector<llvm::SmallVector<unsigned, 2>>();
  DefsInBlock = std::vector<llvm::SmallVector<unsigned, 2>>();
  EscapedValue = std::vector<Uniformity>();
  VarIndex = llvm::DenseMap<const VarDecl *, unsigned>();
  CancellingLoops = decltype(CancellingLoops)();
  Butterflies = decltype(Butterflies)();
  PostDom.reset();
}

FunctionDivergence::Impl::State
FunctionDivergence::Impl::entryState(const CFGBlock *B) {
  if (B == &Cfg->getEntry())
    return initialState();
  State S;
  for (const CFGBlock::AdjacentBlock &Pred : B->preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !Visited.test(P->getBlockID()))
      continue;
    const State &PredOut = Out[P->getBlockID()];
    State Reduced;
    const State *Incoming = &PredOut;
    if (const ButterflyLoop *Loop = butterflyExitingTo(P, B)) {
      // Leaving a butterfly reduction: every lane of each segment has
      // combined the whole segment (WarpReductions.h).
      std::optional<Level> Tile = Level::tile(Loop->Width);
      if (std::optional<unsigned> Slot = slotOf(Loop->Value);
          Tile && Slot && !Escaped.test(*Slot)) {
        Level Segment = *Tile;
        if (PredOut[*Slot].level() < Segment ||
            PredOut[*Slot].dependsOnSymbols()) {
          Reduced = PredOut;
          Reduced.mutableAt(*Slot) = Uniformity::at(
              Segment, {OriginKind::Intrinsic, P->getTerminatorStmt()});
          Incoming = &Reduced;
        }
      }
    }
    if (S.empty()) {
      S = *Incoming;
      continue;
    }
    S.join(*Incoming);
  }
  if (S.empty())
    S = State(NumSlots);
  // Sync and temporal divergence: where paths that split at a non-uniform
  // branch meet again, what they assigned is only as uniform as the branch.
  for (unsigned Branch : JoinOf[B->getBlockID()]) {
    const std::optional<Uniformity> &C = Cond[Branch];
    if (!C || C->isTop())
      continue;
    const Region &R = *Regions[Branch];
    const CFGBlock *BranchBlock = blockById(Branch);
    const Stmt *Where = conditionOf(BranchBlock);
    if (!Where)
      Where = BranchBlock->getTerminatorStmt();
    Uniformity Narrow = Uniformity::at(
        C->level(), ValueOrigin{R.Temporal ? OriginKind::TemporalDivergence
                                           : OriginKind::SyncDivergence,
                                Where});
    Narrow.addSymbols(C->symbols());
    // A choice made by the lane alone (`if (lane >= step)` in a scan) is the
    // same at the same lane of every warp, and so is what it picks.
    Narrow.setLaneLevel(C->laneLevel());
    for (unsigned Slot : R.Defs) {
      if (Escaped.test(Slot))
        escapedJoin(Slot, Narrow);
      else
        S.mutableAt(Slot).narrowByPathChoice(Narrow);
    }
  }
  return S;
}

void FunctionDivergence::Impl::visit(const CFGBlock *B,
                                     ForwardDataflowWorklist &Worklist) {
  unsigned Id = B->getBlockID();
  State In = entryState(B);
  Current = B;
  Live = &In;
  ++VisitCounter;
  ValuesChanged = false;
  if (B == &Cfg->getEntry())
    initializeMembers();
  for (const CFGElement &Element : *B)
    if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
      transfer(S->getStmt());

  if (successors(B).size() >= 2) {
    Uniformity C;
    if (const Expr *Condition = conditionOf(B))
      C = valueOf(Condition);
    if (const CancellingLoop *Loop = cancellingLoopOf(B)) {
      // `for (t = X + tid; t < Y + tid; t += S)`: tid cancels, the trip
      // count is as uniform as X, Y and S (ThreadIndexForms.h).
      C = Uniformity();
      for (const Expr *Deciding : Loop->Deciding)
        C.join(valueOf(Deciding));
    }
    C.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
    std::optional<Uniformity> &Known = Cond[Id];
    Uniformity Joined = Known ? Uniformity::join(*Known, C) : C;
    if (!Known || !Known->sameAs(Joined)) {
      Known = Joined;
      if (!Joined.isTop())
        for (unsigned Join : region(B).Joins)
          Worklist.enqueueBlock(blockById(Join));
    }
  }

  bool Changed = !Visited.test(Id) || ValuesChanged || !Out[Id].sameAs(In);
  Out[Id] = std::move(In);
  Live = nullptr;
  Current = nullptr;
  Visited.set(Id);
  if (Changed)
    Worklist.enqueueSuccessors(B);
}

void FunctionDivergence::Impl::transfer(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S)) {
    Uniformity U = valueOf(E);
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (Binary->isAssignmentOp())
        assign(Binary->getLHS(), U);
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->isIncrementDecrementOp())
        assign(Unary->getSubExpr(), U);
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
        Uniformity V = valueOf(Op->getArg(1));
        if (Op->getOperator() != OO_Equal)
          V.join(valueOf(Op->getArg(0)));
        assign(Op->getArg(0), V.clearLaneLinear());
      }
    }
    return;
  }
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const class Decl *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        declare(Var);
    return;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *Value = Return->getRetValue())
      Live->mutableAt(ReturnSlot) = valueOf(Value);
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    Level L = inlineAsmOutputLevel(Asm->getAsmString());
    Uniformity V = Uniformity::at(L, {OriginKind::InlineAsm, Asm});
    if (L == Level::grid())
      for (const Expr *Input : Asm->inputs())
        V.join(valueOf(Input));
    V.clearLaneLinear().setKnownAlignLog2(0);
    // %laneid is the linear thread index mod 32, as `threadIdx.x % 32` is:
    // a loop from the lane id in steps of 32 up to a multiple of 32 has one
    // trip count per warp.
    if (Asm->getNumOutputs() == 1 && isLaneIdRead(Asm->getAsmString())) {
      V.setLaneLinear(Level::grid(), 63, 5);
      V.setLaneLevel(Level::grid());
    }
    for (const Expr *Output : Asm->outputs())
      assign(Output, V);
    return;
  }
}

void FunctionDivergence::Impl::declare(const VarDecl *Var) {
  auto Slot = slotOf(Var);
  if (!Slot) {
    if (isMemoryReference(Var)) {
      // Flow-insensitive, like an escaped local: when the address narrows
      // (a loop around the declaration), every block that read it runs
      // again.
      Uniformity Address = addressOf(Var->getInit());
      auto [It, New] = MemoryReferenceAddress.try_emplace(Var, Address);
      if (!New) {
        Uniformity Joined = Uniformity::join(It->second, Address);
        if (!Joined.sameAs(It->second)) {
          It->second = Joined;
          EscapedChanged = true;
        }
      }
    }
    return;
  }
  Uniformity V;
  if (Var->isConstexpr() && !Var->getType()->isReferenceType()) {
    // A compile-time constant: the same in every thread of every instance,
    // whatever the functions its initializer calls would compute at run
    // time.
    // Half-typed code (`constexpr int I = ;`) leaves no initializer, or one
    // with errors, and evaluateValue() would read through it (fuzzer crash,
    // tests/fuzz/regressions/crash-constexpr-without-initializer.cu).
    const Expr *Init = Var->getInit();
    if (Var->getType()->isIntegralOrEnumerationType() && Init &&
        !Var->isInvalidDecl() && !Init->containsErrors() &&
        !Init->isValueDependent())
      if (const APValue *Value = Var->evaluateValue(); Value && Value->isInt())
        V.setKnownAlignLog2(alignOfConstant(Value->getInt()));
    if (Escaped.test(*Slot))
      escapedJoin(*Slot, V);
    else
      Live->mutableAt(*Slot) = V;
    return;
  }
  if (const Expr *Init = Var->getInit()) {
    V = valueOf(Init);
    if (Var->getType()->isReferenceType()) {
      // A reference holds what it refers to; reads through it see the
      // locals it may alias.
      V.setPointsToLocal(rootVariable(Init, nullptr, Mgr) != nullptr ||
                         addressOf(Init).mayPointToLocal());
    }
  }
  if (Escaped.test(*Slot))
    escapedJoin(*Slot, V);
  else
    Live->mutableAt(*Slot) = V;
  if (auto Fields = FieldSlotsOf.find(Var); Fields != FieldSlotsOf.end()) {
    // `int2 p = {x, y}`: each field its own element; a constructor: what
    // its summary leaves in each field; any other initializer (a copy)
    // gives every field its value.
    const auto *List = dyn_cast_or_null<InitListExpr>(
        Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr);
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(
        Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr);
    if (Construct && !Construct->getConstructor()->isCopyOrMoveConstructor()) {
      constructInto(Construct, [&](const FieldDecl *Field)
                                   -> std::optional<unsigned> {
        auto It = FieldSlot.find({Var, Field});
        if (It == FieldSlot.end())
          return std::nullopt;
        return It->second;
      });
    } else if (List && List->isSemanticForm() &&
        List->getNumInits() == Fields->second.size()) {
      for (unsigned I = 0; I < List->getNumInits(); ++I)
        Live->mutableAt(Fields->second[I]) = valueOf(List->getInit(I));
    } else {
      for (unsigned Field : Fields->second)
        Live->mutableAt(Field) = V;
    }
  }
}

Uniformity FunctionDivergence::Impl::readSlot(unsigned Slot) const {
  Uniformity V = Escaped.test(Slot) ? EscapedValue[Slot] : (*Live)[Slot];
  if (Slot < Vars.size() && Vars[Slot]->getType()->isReferenceType() &&
      V.mayPointToLocal()) {
    Uniformity Aliased = AllEscaped;
    V.join(Aliased.setPointsToLocal(false));
  }
  return V;
}

void FunctionDivergence::Impl::escapedJoin(unsigned Slot,
                                           const Uniformity &V) {
  Uniformity Joined = Uniformity::join(EscapedValue[Slot], V);
  if (Joined.sameAs(EscapedValue[Slot]))
    return;
  EscapedValue[Slot] = Joined;
  EscapedChanged = true;
  Uniformity Content = Joined;
  AllEscaped.join(Content.setPointsToLocal(false).clearLaneLinear());
}

void FunctionDivergence::Impl::assign(const Expr *LHS, const Uniformity &V) {
  const Expr *Target = LHS->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Target)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    // A reference bound to a field of `*this`: the field.
    if (auto Alias = Var ? ThisFieldAlias.find(Var) : ThisFieldAlias.end();
        Alias != ThisFieldAlias.end()) {
      Live->mutableAt(Alias->second) = V;
      return;
    }
    if (auto Part =
            Var ? ThisFieldPartAlias.find(Var) : ThisFieldPartAlias.end();
        Part != ThisFieldPartAlias.end()) {
      Uniformity W = V;
      Live->mutableAt(Part->second).join(W.clearLaneLinear());
      return;
    }
    auto Slot = Var ? slotOf(Var) : std::nullopt;
    if (!Slot) {
      if (Var && isMemoryReference(Var))
        storeThrough(LHS, V);
      else if (Var && Var->getType()->isReferenceType())
        IndirectStores.join(V);
      return;
    }
    if (Var->getType()->isReferenceType()) {
      // Writes through the reference; afterwards reads of it see V.
      Uniformity Old = readSlot(*Slot);
      storeThrough(LHS, V);
      Uniformity New = V;
      New.setPointsToLocal(Old.mayPointToLocal());
      if (Escaped.test(*Slot))
        escapedJoin(*Slot, New);
      else
        Live->mutableAt(*Slot) = New;
      return;
    }
    if (Escaped.test(*Slot))
      escapedJoin(*Slot, V);
    else
      Live->mutableAt(*Slot) = V;
    // The whole object (`p = q`): every field.
    if (auto Fields = FieldSlotsOf.find(Var); Fields != FieldSlotsOf.end())
      for (unsigned Field : Fields->second)
        Live->mutableAt(Field) = V;
    return;
  }
  llvm::SmallVector<const Expr *, 2> Indices;
  bool Exact = false;
  if (auto Field = fieldSlotOf(Target, &Indices, &Exact)) {
    // `p.y = v` replaces the field; `p.a[i] = v` and `p.f.g = v` change
    // part of it (a weak update, the index deciding which element).
    if (Exact) {
      Live->mutableAt(*Field) = V;
      return;
    }
    Uniformity W = V;
    for (const Expr *Index : Indices)
      W.join(valueOf(Index));
    Live->mutableAt(*Field).join(W.clearLaneLinear());
    return;
  }
  if (const VarDecl *Ref = referencePartRoot(Target, &Indices)) {
    // `p.y = v` with p a reference (a parameter `Point &p`): a store to the
    // referee, and part of what p holds afterwards, so that a caller taking
    // what the function leaves in p sees it (a weak update: the other
    // fields keep their values).
    storeThrough(LHS, V);
    if (auto Slot = slotOf(Ref)) {
      Uniformity W = V;
      for (const Expr *Index : Indices)
        W.join(valueOf(Index));
      W.clearLaneLinear().setPointsToLocal(false);
      if (Escaped.test(*Slot))
        escapedJoin(*Slot, W);
      else
        Live->mutableAt(*Slot).join(W);
    }
    return;
  }
  Indices.clear();
  if (const VarDecl *Root = rootVariable(Target, &Indices, Mgr)) {
    if (auto Slot = slotOf(Root)) {
      // One element or field of a local aggregate: a weak update, with the
      // index deciding which element each thread wrote.
      Uniformity W = V;
      for (const Expr *Index : Indices)
        W.join(valueOf(Index));
      W.clearLaneLinear();
      if (Escaped.test(*Slot))
        escapedJoin(*Slot, W);
      else
        Live->mutableAt(*Slot).join(W);
      // A part that is no field of its own (`c.m() = v` through an
      // accessor): any field may be the one written.
      if (auto Fields = FieldSlotsOf.find(Root); Fields != FieldSlotsOf.end())
        for (unsigned Field : Fields->second)
          Live->mutableAt(Field).join(W);
    }
    return;
  }
  storeThrough(LHS, V);
}

/// A store to memory through a pointer or reference.
void FunctionDivergence::Impl::storeThrough(const Expr *LHS,
                                            const Uniformity &V) {
  // Stores to globals and __shared__ arrays by name cannot reach a
  // caller's locals.
  const Expr *Base = LHS->IgnoreParenImpCasts();
  while (true) {
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Base))
      Base = Subscript->getBase()->IgnoreParenImpCasts();
    else if (const auto *Member = dyn_cast<MemberExpr>(Base);
             Member && !Member->isArrow())
      Base = Member->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (!Var->hasLocalStorage() && !Var->getType()->isReferenceType())
        return;
  Uniformity Stored = V;
  Stored.clearLaneLinear().setPointsToLocal(false);
  IndirectStores.join(Stored);
  if (addressOf(LHS).mayPointToLocal())
    for (unsigned Slot = 0; Slot < Vars.size(); ++Slot)
      if (Escaped.test(Slot))
        escapedJoin(Slot, Stored);
}

Uniformity FunctionDivergence::Impl::readVariable(const VarDecl *Var,
                                                  const Expr *Where) {
  for (const auto *Aliases : {&ThisFieldAlias, &ThisFieldPartAlias})
    if (auto Alias = Aliases->find(Var); Alias != Aliases->end())
      return (*Live)[Alias->second];
  if (auto Slot = slotOf(Var)) {
    Uniformity V = readSlot(*Slot);
    // The whole object: what whole writes stored and every field.
    if (auto Fields = FieldSlotsOf.find(Var); Fields != FieldSlotsOf.end())
      for (unsigned Field : Fields->second)
        V.join((*Live)[Field]);
    return V;
  }
  auto Capture = CaptureSymbol.find(Var);
  if (Capture != CaptureSymbol.end())
    return Uniformity::symbol(Capture->second);
  if (auto Memory = MemoryReferenceAddress.find(Var);
      Memory != MemoryReferenceAddress.end())
    return loadThrough(Memory->second, Var->getType().getNonReferenceType());
  if (Var->hasLocalStorage())
    return Uniformity();
  if (Var->hasAttr<CUDASharedAttr>())
    return Uniformity::at(Level::block(),
                          {OriginKind::SharedMemory, Where});
  Uniformity U;
  if (Var->getType().isConstQualified() &&
      Var->getType()->isIntegralOrEnumerationType())
    if (std::optional<llvm::APSInt> Value = constantInt(Where, Ctx))
      U.setKnownAlignLog2(alignOfConstant(*Value));
  return U;
}

} // namespace clang::tidy::cuda::analysis
