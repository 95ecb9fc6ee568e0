//===--- CrossBlockSignalsEvaluate.cpp - the events of a kernel's statements ===//
//
// The evaluate phase of the cross-block signal analysis
// (CrossBlockSignalsImpl.h): for each statement of the CFG, the global
// stores and reads, the fences, block barriers and signals it makes (a call
// to a function with a body counts as what the body does), and the transfer
// function the dataflow applies to them.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/CrossBlockSignalsImpl.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/core/KernelWalk.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::tidy::cuda::analysis {

using namespace crossblock;

const CalleeFacts &
CrossBlockSignalAnalysis::Impl::calleeFacts(const FunctionDecl *Callee,
                                            unsigned Depth) {
  static const CalleeFacts None;
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Depth > 4)
    return None;
  if (auto It = Callees.find(Def); It != Callees.end())
    return It->second;
  Callees[Def] = CalleeFacts();
  CalleeFacts Facts;
  llvm::DenseMap<const VarDecl *, unsigned> ParamIndex;
  for (unsigned K = 0; K < Def->getNumParams(); ++K) {
    const ParmVarDecl *P = Def->getParamDecl(K);
    ParamIndex[P] = K;
    if (P->getType()->isPointerType() &&
        P->getType()->getPointeeType().isVolatileQualified())
      Facts.VolatileParam.insert(K);
  }
  auto ParamOf = [&](const Expr *Ptr) -> std::optional<unsigned> {
    Ptr = Ptr ? Ptr->IgnoreParenCasts() : nullptr;
    while (const auto *B = dyn_cast_or_null<BinaryOperator>(Ptr)) {
      if (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub)
        break;
      Ptr = (B->getLHS()->getType()->isPointerType() ? B->getLHS()
                                                     : B->getRHS())
                ->IgnoreParenCasts();
    }
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Ptr))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        if (auto It = ParamIndex.find(V); It != ParamIndex.end())
          return It->second;
    return std::nullopt;
  };
  auto LvalueParam = [&](const Expr *E) -> std::optional<unsigned> {
    E = E->IgnoreParenImpCasts();
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
      return ParamOf(Sub->getBase());
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_Deref)
      return ParamOf(U->getSubExpr());
    return std::nullopt;
  };
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    CalleeFacts &F;
    unsigned Depth;
    decltype(LvalueParam) &LP;
    Finder(Impl &I, CalleeFacts &F, unsigned Depth, decltype(LvalueParam) &LP)
        : I(I), F(F), Depth(Depth), LP(LP) {}
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        if (std::optional<unsigned> K = LP(B->getLHS()))
          F.StoresParam.insert(*K);
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
      if (C->getCastKind() == CK_LValueToRValue &&
          !C->getSubExpr()->getType().isVolatileQualified())
        if (std::optional<unsigned> K = LP(C->getSubExpr()))
          F.ReadsParam.insert(*K);
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
      AsmFacts A = asmFacts(Asm);
      F.Fence |= A.Fence;
      F.Barrier |= A.Barrier;
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      if (threadFenceScope(calleeName(Call)) >= ThreadScope::Device) {
        F.Fence = true;
        return true;
      }
      if (std::optional<BarrierCall> B = asBarrierCall(Call)) {
        F.Barrier = true;
        F.Fence |= B->BarrierScope == Scope::Grid;
        return true;
      }
      const CalleeFacts &Inner = I.calleeFacts(Call->getDirectCallee(), Depth + 1);
      F.Fence |= Inner.Fence;
      F.Barrier |= Inner.Barrier;
      return true;
    }
  } Find(*this, Facts, Depth, LvalueParam);
  Find.TraverseStmt(Def->getBody());
  Callees[Def] = std::move(Facts);
  return Callees[Def];
}

bool CrossBlockSignalAnalysis::Impl::contains(const Stmt *Outer,
                                              const Stmt *Inner) const {
  for (const Stmt *S = Inner; S; S = Parents->getParent(S))
    if (S == Outer)
      return true;
  return false;
}

bool CrossBlockSignalAnalysis::Impl::mentionsThreadIdx(const Stmt *S,
                                                       unsigned Depth) const {
  // A condition that picks threads by their index (`threadIdx.x == 0`,
  // `lane == 0` with `lane` made from threadIdx), not per-thread state.
  if (!S || Depth > 3)
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (std::optional<BuiltinIndexRead> R = asBuiltinIndexRead(E))
      return R->Var == BuiltinIndexRead::ThreadIdx;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
          V && V->hasLocalStorage() && V->getInit())
        return mentionsThreadIdx(V->getInit(), Depth + 1);
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (mentionsThreadRank(calleeName(Call)))
        return true;
  }
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return mentionsThreadIdx(Child, Depth);
  });
}

bool CrossBlockSignalAnalysis::Impl::otherThreads(const Stmt *Store,
                                                  const Stmt *Signal) const {
  const Stmt *Child = Signal;
  for (const Stmt *S = Parents->getParent(Signal); S;
       Child = S, S = Parents->getParent(S)) {
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || Child == If->getCond() || Child == If->getInit() ||
        Child == If->getConditionVariableDeclStmt())
      continue;
    const Expr *Cond = If->getCond();
    if (!Cond || D->uniformityOf(Cond).isUniformAt(Scope::Block) ||
        !mentionsThreadIdx(Cond))
      continue;
    if (!contains(Child, Store))
      return true;
  }
  return false;
}

void CrossBlockSignalAnalysis::Impl::classify(const CFG &Cfg) {
  // Signals: atomics whose result a wait tests, atomics and stores on a
  // location a spin reads, release operations in inline assembly.
  llvm::DenseMap<int, unsigned> SignalOfCandidate;
  std::vector<std::pair<const Stmt *, Event>> Found;
  auto AddSignal = [&](CrossBlockSignal Sig) {
    if (Signals.size() >= MaxBits)
      return;
    Found.push_back({Sig.Where, {Event::Signal,
                                 static_cast<unsigned>(Signals.size())}});
    Signals.push_back(std::move(Sig));
  };
  for (unsigned K = 0; K < Candidates.size(); ++K)
    // A ticket (its value tested by a branch), or a write to a flag that a
    // spin reads; an atomic whose value only a spin tests waits.
    if (BranchTested.contains(static_cast<int>(K)) ||
        (FlagBases.contains(Candidates[K].Base) &&
         !SpinTested.contains(static_cast<int>(K)))) {
      SignalOfCandidate[static_cast<int>(K)] =
          static_cast<unsigned>(Signals.size());
      AddSignal(Candidates[K]);
    }
  for (SignalWait &W : Waits)
    if (W.Signal >= 0) {
      auto It = SignalOfCandidate.find(W.Signal);
      W.Signal = It == SignalOfCandidate.end() ? -1 : static_cast<int>(It->second);
    }

  auto AddStore = [&](const Stmt *Where, const ValueDecl *Base, bool Volatile,
                      const ValueDecl *Field = nullptr) {
    if (!Base || isWaited(Base, Field) || isFlag(Base, Field) ||
        Stores.size() >= MaxBits)
      return;
    Found.push_back({Where, {Event::Store, static_cast<unsigned>(Stores.size())}});
    Stores.push_back({Where, Base, Volatile});
  };
  auto AddRead = [&](const Stmt *Where, const ValueDecl *Base, bool Coherent,
                     const ValueDecl *Field = nullptr) {
    if (!Base || isWaited(Base, Field) || isFlag(Base, Field) ||
        Reads.size() >= size_t{4} * MaxBits)
      return;
    Found.push_back({Where, {Event::Read, static_cast<unsigned>(Reads.size())}});
    Reads.push_back({Where, Base, Coherent});
  };
  auto AddFence = [&](const Stmt *Where, llvm::StringRef Name, bool Release,
                      bool Acquire) {
    if (Release)
      Found.push_back({Where, {Event::ReleaseFence, 0}});
    if (Acquire)
      Found.push_back({Where, {Event::AcquireFence, 0}});
    Fences.push_back({Where, Name.str()});
  };

  const SourceManager &SM = Ctx.getSourceManager();
  for (const CFGBlock *Block : Cfg)
    for (const CFGElement &Element : *Block) {
      std::optional<CFGStmt> Item = Element.getAs<CFGStmt>();
      if (!Item)
        continue;
      const Stmt *S = Item->getStmt();
      if (auto It = CandidateOf.find(S); It != CandidateOf.end()) {
        // Already a signal (added above, in candidate order).
        continue;
      }
      if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
        AsmFacts A = asmFacts(Asm);
        if (A.Fence)
          AddFence(S, "fence in inline assembly", true, true);
        if (A.Barrier)
          Found.push_back({S, {Event::Barrier, 0}});
        if (A.ReleaseWrite) {
          CrossBlockSignal Sig;
          Sig.K = CrossBlockSignal::Asm;
          Sig.Where = S;
          Sig.Name = "release in inline assembly";
          Sig.Order = MemoryOrder::Release;
          for (unsigned K = 0; K < Asm->getNumInputs() && !Sig.Base; ++K)
            Sig.Base = pointerBase(Asm->getInputExpr(K));
          AddSignal(Sig);
        }
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(S)) {
        if (!B->isAssignmentOp())
          continue;
        const ValueDecl *Base = lvalueBase(B->getLHS());
        if (!Base)
          continue;
        const ValueDecl *Field = fieldOf(B->getLHS());
        if (isFlag(Base, Field)) {
          CrossBlockSignal Sig;
          Sig.K = CrossBlockSignal::FlagStore;
          Sig.Where = S;
          Sig.Base = Base;
          Sig.Name = B->getLHS()->getType().isVolatileQualified()
                         ? "volatile store"
                         : "store";
          AddSignal(Sig);
          continue;
        }
        if (B->isCompoundAssignmentOp())
          AddRead(S, Base, B->getLHS()->getType().isVolatileQualified(), Field);
        AddStore(S, Base, B->getLHS()->getType().isVolatileQualified(), Field);
        continue;
      }
      if (const auto *U = dyn_cast<UnaryOperator>(S)) {
        if (U->isIncrementDecrementOp())
          AddStore(S, lvalueBase(U->getSubExpr()),
                   U->getSubExpr()->getType().isVolatileQualified(),
                   fieldOf(U->getSubExpr()));
        continue;
      }
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
        if (Cast->getCastKind() != CK_LValueToRValue)
          continue;
        AddRead(S, lvalueBase(Cast->getSubExpr()),
                Cast->getSubExpr()->getType().isVolatileQualified(),
                fieldOf(Cast->getSubExpr()));
        continue;
      }
      const auto *Call = dyn_cast<CallExpr>(S);
      if (!Call)
        continue;
      llvm::StringRef Name = calleeName(Call);
      if (threadFenceScope(Name) >= ThreadScope::Device) {
        AddFence(S, Name, true, true);
        continue;
      }
      if (isAtomicThreadFenceName(Name) && Call->getDirectCallee()) {
        std::optional<LibcuxxNamespace> Library =
            libcuxxNamespaceOf(Call->getDirectCallee());
        if (!Library)
          continue;
        MemoryOrder O = MemoryOrder::SeqCst;
        ThreadScope Sc = ThreadScope::System;
        if (Call->getNumArgs() >= 1)
          if (std::optional<MemoryOrder> OO = orderOf(Call->getArg(0), Ctx))
            O = *OO;
        if (*Library == LibcuxxNamespace::Cuda && Call->getNumArgs() >= 2 &&
            !isa<CXXDefaultArgExpr>(Call->getArg(1))) {
          Expr::EvalResult R;
          if (Call->getArg(1)->EvaluateAsInt(R, Ctx))
            Sc = *threadScopeOfValue(Call->getArg(1)->getType(),
                                     R.Val.getInt().getSExtValue());
        }
        if (Sc < ThreadScope::Device)
          continue;
        CrossBlockSignal Probe;
        Probe.Order = O;
        Probe.Scope = Sc;
        AddFence(S, "atomic_thread_fence", Probe.releases(), Probe.acquires());
        continue;
      }
      std::optional<CacheHintedAccess> Hinted = cacheHintedAccess(Name);
      if (Hinted && !Hinted->IsStore) {
        if (Call->getNumArgs() == 1)
          AddRead(S, pointerBase(Call->getArg(0)), Hinted->BypassesL1);
        continue;
      }
      if (Hinted && Hinted->IsStore && Call->getNumArgs() == 2) {
        AddStore(S, pointerBase(Call->getArg(0)), false);
        continue;
      }
      if (std::optional<BarrierCall> Barrier = asBarrierCall(Call)) {
        if (Barrier->BarrierScope == Scope::Grid)
          AddFence(S, Barrier->Spelling, true, true);
        if (Barrier->Part == BarrierPart::Arrive)
          continue;
        Found.push_back({S, {Event::Barrier, 0}});
        continue;
      }
      // A member or operator call, or a child grid's launch (its reads are
      // another grid's, ordered by the launch).
      if (isa<CXXMemberCallExpr>(Call) || isa<CXXOperatorCallExpr>(Call) ||
          isa<CUDAKernelCallExpr>(Call))
        continue;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !Callee->getDefinition() ||
          SM.isInSystemHeader(Callee->getDefinition()->getLocation()))
        continue;
      const CalleeFacts &Facts = calleeFacts(Callee, 0);
      for (unsigned K = 0; K < Call->getNumArgs(); ++K) {
        const ValueDecl *Base = pointerBase(Call->getArg(K));
        if (!Base)
          continue;
        if (Facts.ReadsParam.contains(K) || Facts.VolatileParam.contains(K))
          AddRead(S, Base, Facts.VolatileParam.contains(K) || Facts.Fence);
        if (Facts.StoresParam.contains(K))
          AddStore(S, Base, false);
      }
      if (Facts.Fence)
        AddFence(S, Callee->getName(), true, true);
      if (Facts.Barrier)
        Found.push_back({S, {Event::Barrier, 0}});
    }
  // The candidates that are signals: where they are evaluated.
  for (const auto &[K, Index] : SignalOfCandidate)
    Found.push_back({Candidates[K].Where, {Event::Signal, Index}});
  for (auto &[Where, E] : Found)
    EventsOf[Where].push_back(E);
  // Within one statement: reads, then stores, then fences, barriers and
  // signals (a callee's fence follows its stores).
  for (auto &[Where, Events] : EventsOf)
    sortKeepingOrder(Events, [](const Event &L, const Event &R) {
      auto Rank = [](Event::Kind K) {
        switch (K) {
        case Event::Read:
          return 0;
        case Event::Store:
          return 1;
        case Event::ReleaseFence:
        case Event::AcquireFence:
          return 2;
        case Event::Barrier:
          return 3;
        case Event::Signal:
          return 4;
        }
        return 5;
      };
      return Rank(L.K) < Rank(R.K);
    });
}

void CrossBlockSignalAnalysis::Impl::transfer(const CFGBlock *Block, Flow &F,
                                              bool Record) {
  for (const CFGElement &Element : *Block) {
    std::optional<CFGStmt> Item = Element.getAs<CFGStmt>();
    if (!Item)
      continue;
    auto It = EventsOf.find(Item->getStmt());
    if (It == EventsOf.end())
      continue;
    for (const Event &E : It->second) {
      uint64_t Bit = static_cast<uint64_t>(1) << E.Index;
      switch (E.K) {
      case Event::Store:
        F.Unfenced |= Bit;
        F.NoBarrier |= Bit;
        F.Pending |= Bit;
        break;
      case Event::ReleaseFence:
        F.Unfenced = 0;
        break;
      case Event::AcquireFence:
        F.Waited = 0;
        break;
      case Event::Barrier:
        F.NoBarrier = 0;
        break;
      case Event::Read:
        if (Record && F.Seen) {
          const GlobalRead &R = Reads[E.Index];
          if (!R.Coherent && F.Waited) {
            unsigned W = 0;
            while (!(F.Waited & (static_cast<uint64_t>(1) << W)))
              ++W;
            Acquires.push_back({E.Index, W});
          }
          ReadAfterWait.try_emplace(R.Base, E.Index);
        }
        break;
      case Event::Signal: {
        const CrossBlockSignal &Sig = Signals[E.Index];
        if (Sig.Scope < ThreadScope::Device)
          break;
        if (Record)
          for (unsigned K = 0; K < Stores.size(); ++K) {
            uint64_t S = static_cast<uint64_t>(1) << K;
            if (F.Pending & S)
              Published.insert(Stores[K].Base);
            bool NoFence = !Sig.releases() && (F.Unfenced & S) &&
                           (F.Pending & S);
            bool NoBarrier = (F.NoBarrier & S) && (F.Pending & S) &&
                             otherThreads(Stores[K].Where, Sig.Where);
            if (NoFence || NoBarrier)
              Pending.push_back({E.Index, K, NoFence, NoBarrier, -1});
          }
        if (Sig.releases())
          F.Unfenced = 0;
        break;
      }
      }
    }
  }
  if (const Stmt *Cond = Block->getTerminatorCondition(false))
    if (auto It = WaitOf.find(Cond); It != WaitOf.end()) {
      uint64_t Bit = static_cast<uint64_t>(1) << It->second;
      const SignalWait &W = Waits[It->second];
      bool Acq = W.Acquires ||
                 (W.Signal >= 0 && Signals[W.Signal].acquires());
      F.Seen |= Bit;
      // A wait begins a new hand-off: what was stored before it is not what
      // the next signal publishes (a lock's critical section, a round).
      F.Pending = 0;
      if (!Acq)
        F.Waited |= Bit;
    }
}

} // namespace clang::tidy::cuda::analysis
