//===--- CrossBlockSignalsCollect.cpp - signals, waits and their locations -===//
//
// The collect phase of the cross-block signal analysis
// (CrossBlockSignalsImpl.h): which calls are global atomics, fences and flag
// reads, with their memory order and scope; the global location a pointer
// or lvalue names; the atomics that may be signals, the locals holding their
// values, and the branch conditions that wait on them.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/CrossBlockSignalsImpl.h"
#include "checks/analysis/core/KernelWalk.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>

namespace clang::tidy::cuda::analysis {

using namespace crossblock;

namespace crossblock {

std::optional<MemoryOrder> orderOf(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  if (isa<CXXDefaultArgExpr>(E))
    return MemoryOrder::SeqCst;
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return memoryOrderOfValue(E->getType(), R.Val.getInt().getSExtValue());
}

AsmFacts asmFacts(const GCCAsmStmt *Asm) {
  AsmFacts F;
  const auto *Text = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
  if (!Text)
    return F;
  std::string Lower = Text->getString().lower();
  llvm::StringRef S(Lower);
  bool Wide = S.contains(".gpu") || S.contains(".sys");
  F.Fence = S.contains("membar.gl") || S.contains("membar.sys") ||
            (S.contains("fence.sc") && Wide) ||
            (S.contains("fence.acq_rel") && Wide);
  bool Writes = S.contains("st.") || S.contains("red.") || S.contains("atom.");
  F.ReleaseWrite =
      Writes && Wide && (S.contains(".release") || S.contains(".acq_rel"));
  F.AcquireRead = (S.contains("ld.") || S.contains("atom.")) &&
                  S.contains(".acquire") && Wide;
  F.FlagRead = F.AcquireRead || S.contains("ld.volatile") ||
               (S.contains("ld.") && S.contains(".relaxed"));
  F.Barrier = S.contains("bar.sync") || S.contains("barrier.sync") ||
              S.contains("barrier.cta.sync");
  return F;
}

/// The field an lvalue names last (`p[i].w`, `s->flag`), or null.
const ValueDecl *fieldOf(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *M = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()))
    return M->getMemberDecl();
  return nullptr;
}

} // namespace crossblock

namespace {

/// A global atomic builtin (atomicFunctionScope): its scope.
std::optional<ThreadScope> atomicBuiltinScope(const CallExpr *Call,
                                              llvm::StringRef &Name) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || Call->getNumArgs() < 2)
    return std::nullopt;
  Name = calleeName(Call);
  std::optional<ThreadScope> Scope = atomicFunctionScope(Name);
  if (!Scope || !Call->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  return Scope;
}

/// A relational comparison (<, <=, >, >=).
bool isRelational(const Stmt *S) {
  const auto *B = dyn_cast<BinaryOperator>(S);
  return B && B->isRelationalOp();
}

} // namespace

bool CrossBlockSignalAnalysis::Impl::isGlobalVar(const VarDecl *V) const {
  return V && V->hasGlobalStorage() && !V->isStaticLocal() &&
         !V->hasAttr<CUDASharedAttr>() && !V->hasAttr<CUDAConstantAttr>() &&
         V->hasAttr<CUDADeviceAttr>();
}

const ValueDecl *CrossBlockSignalAnalysis::Impl::pointerBase(const Expr *E,
                                                             unsigned Depth) const {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V)
      return nullptr;
    if (isa<ParmVarDecl>(V) && V->getType()->isPointerType())
      return V;
    if (isGlobalVar(V) && V->getType()->isArrayType())
      return V;
    if (V->hasLocalStorage())
      return Alias.lookup(V);
    return nullptr;
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->getType()->isPointerType())
      return M->getMemberDecl();
    if (M->getType()->isArrayType())
      return lvalueBase(M, Depth + 1);
    return nullptr;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) {
      if (B->getLHS()->getType()->isPointerType())
        return pointerBase(B->getLHS(), Depth + 1);
      return pointerBase(B->getRHS(), Depth + 1);
    }
    if (B->getOpcode() == BO_Assign || B->getOpcode() == BO_Comma)
      return pointerBase(B->getRHS(), Depth + 1);
    return nullptr;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_AddrOf)
      return lvalueBase(U->getSubExpr(), Depth + 1);
    if (U->isIncrementDecrementOp())
      return pointerBase(U->getSubExpr(), Depth + 1);
    return nullptr;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    if (const ValueDecl *T = pointerBase(C->getTrueExpr(), Depth + 1))
      return T;
    return pointerBase(C->getFalseExpr(), Depth + 1);
  }
  return nullptr;
}

const ValueDecl *CrossBlockSignalAnalysis::Impl::lvalueBase(const Expr *E,
                                                            unsigned Depth) const {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
    return pointerBase(Sub->getBase(), Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return pointerBase(U->getSubExpr(), Depth + 1);
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    if (M->isArrow())
      return pointerBase(M->getBase(), Depth + 1);
    return lvalueBase(M->getBase(), Depth + 1);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (V && isGlobalVar(V))
      return V;
    // A reference or atomic_ref local bound to global memory.
    if (V && V->hasLocalStorage())
      return Alias.lookup(V);
  }
  return nullptr;
}

void CrossBlockSignalAnalysis::Impl::findAliases() {
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    bool Changed = false;
    explicit Finder(Impl &I) : I(I) {}
    void note(const VarDecl *V, const ValueDecl *Base) {
      if (!V || !Base || I.Alias.contains(V))
        return;
      I.Alias[V] = Base;
      Changed = true;
    }
    const ValueDecl *fromInit(const VarDecl *V, const Expr *Init) const {
      if (!Init)
        return nullptr;
      QualType T = V->getType();
      if (T->isPointerType())
        return I.pointerBase(Init);
      if (T->isReferenceType())
        return I.lvalueBase(Init);
      if (libcuxxAtomicScope(T)) {
        // cuda::atomic_ref<int> r(*p): the location it refers to.
        const Expr *E = Init->IgnoreImplicit();
        if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
            Construct && Construct->getNumArgs() >= 1)
          return I.lvalueBase(Construct->getArg(0));
      }
      return nullptr;
    }
    bool VisitVarDecl(VarDecl *V) {
      if (V->hasLocalStorage() && !isa<ParmVarDecl>(V))
        note(V, fromInit(V, V->getInit()));
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() == BO_Assign &&
          B->getLHS()->getType()->isPointerType())
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
              V && V->hasLocalStorage() && !isa<ParmVarDecl>(V))
            note(V, I.pointerBase(B->getRHS()));
      return true;
    }
  };
  for (unsigned Round = 0; Round < 4; ++Round) {
    Finder Find(*this);
    Find.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    if (!Find.Changed)
      break;
  }
}

std::optional<CrossBlockSignal>
CrossBlockSignalAnalysis::Impl::asAtomic(const Stmt *S) const {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Object || !Method || !Method->getDeclName().isIdentifier())
      return std::nullopt;
    // The method may be the base implementation's: the object as written.
    Object = Object->IgnoreImpCasts();
    std::optional<ThreadScope> Scope = libcuxxAtomicScope(Object->getType());
    if (!Scope)
      return std::nullopt;
    llvm::StringRef Name = Method->getName();
    std::optional<AtomicAccess> Access = atomicMemberAccess(Name);
    if (!Access || *Access == AtomicAccess::Read)
      return std::nullopt;
    CrossBlockSignal Sig;
    Sig.K = CrossBlockSignal::AtomicRef;
    Sig.Where = S;
    Sig.Name = Name.str();
    Sig.Scope = *Scope;
    Sig.Order = MemoryOrder::SeqCst;
    for (const Expr *Arg : Member->arguments())
      if (isMemoryOrderType(Arg->getType())) {
        if (std::optional<MemoryOrder> O = orderOf(Arg, Ctx))
          Sig.Order = *O;
        break;
      }
    const Expr *Obj = Object->IgnoreParenImpCasts();
    if (Object->getType()->isPointerType())
      Sig.Base = pointerBase(Object);
    else if (const auto *Construct =
                 dyn_cast<CXXConstructExpr>(Obj->IgnoreImplicit());
             Construct && Construct->getNumArgs() >= 1)
      Sig.Base = lvalueBase(Construct->getArg(0));
    else
      Sig.Base = lvalueBase(Obj);
    if (!Sig.Base) {
      // cuda::atomic_ref<int>(*p).fetch_add(...): a temporary.
      struct FindConstruct : RecursiveASTVisitor<FindConstruct> {
        const CXXConstructExpr *Found = nullptr;
        bool VisitCXXConstructExpr(CXXConstructExpr *C) {
          if (!Found && C->getNumArgs() >= 1)
            Found = C;
          return true;
        }
      } Find;
      Find.TraverseStmt(const_cast<Expr *>(Obj));
      if (Find.Found)
        Sig.Base = lvalueBase(Find.Found->getArg(0));
    }
    if (!Sig.Base)
      return std::nullopt;
    return Sig;
  }
  const auto *Call = dyn_cast<CallExpr>(S);
  llvm::StringRef Name;
  std::optional<ThreadScope> Scope = atomicBuiltinScope(Call, Name);
  if (!Scope)
    return std::nullopt;
  CrossBlockSignal Sig;
  Sig.K = CrossBlockSignal::Atomic;
  Sig.Where = S;
  Sig.Name = Name.str();
  Sig.Scope = *Scope;
  Sig.Order = MemoryOrder::Relaxed;
  Sig.Base = pointerBase(Call->getArg(0));
  if (!Sig.Base)
    return std::nullopt;
  return Sig;
}

std::optional<Origin>
CrossBlockSignalAnalysis::Impl::flagReadOrigin(const Expr *E) const {
  // A volatile load of global memory.
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
      Cast && Cast->getCastKind() == CK_LValueToRValue &&
      Cast->getSubExpr()->getType().isVolatileQualified())
    if (const ValueDecl *Base = lvalueBase(Cast->getSubExpr()))
      return Origin{-1, Base, false, true, fieldOf(Cast->getSubExpr()), E};
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    if (Object)
      Object = Object->IgnoreImpCasts();
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Object && Method && Method->getDeclName().isIdentifier() &&
        atomicMemberAccess(Method->getName()) == AtomicAccess::Read)
      if (std::optional<ThreadScope> Scope =
              libcuxxAtomicScope(Object->getType())) {
        MemoryOrder O = MemoryOrder::SeqCst;
        for (const Expr *Arg : Member->arguments())
          if (isMemoryOrderType(Arg->getType())) {
            if (std::optional<MemoryOrder> OO = orderOf(Arg, Ctx))
              O = *OO;
            break;
          }
        CrossBlockSignal Probe;
        Probe.Scope = *Scope;
        Probe.Order = O;
        const ValueDecl *Base = Object->getType()->isPointerType()
                                    ? pointerBase(Object)
                                    : lvalueBase(Object);
        if (Base)
          return Origin{-1, Base, Probe.acquires(), true, nullptr, E};
      }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    std::optional<CacheHintedAccess> Hinted =
        cacheHintedAccess(calleeName(Call));
    if (Hinted && !Hinted->IsStore && Hinted->BypassesL1 &&
        Call->getNumArgs() == 1)
      if (const ValueDecl *Base = pointerBase(Call->getArg(0)))
        return Origin{-1, Base, false, true, nullptr, E};
  }
  return std::nullopt;
}

std::optional<Origin>
CrossBlockSignalAnalysis::Impl::originIn(const Stmt *S) const {
  if (!S)
    return std::nullopt;
  if (auto It = CandidateOf.find(S); It != CandidateOf.end()) {
    const CrossBlockSignal &C = Candidates[It->second];
    return Origin{static_cast<int>(It->second), C.Base, C.acquires(), false,
                  nullptr, S};
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (std::optional<Origin> O = flagReadOrigin(E))
      return O;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
        if (auto It = Derived.find(V); It != Derived.end()) {
          Origin O = It->second;
          O.Found = S;
          return O;
        }
  }
  for (const Stmt *Child : S->children())
    if (std::optional<Origin> O = originIn(Child))
      return O;
  return std::nullopt;
}

void CrossBlockSignalAnalysis::Impl::findCandidates() {
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    explicit Finder(Impl &I) : I(I) {}
    bool VisitStmt(Stmt *S) {
      if (isa<CallExpr>(S))
        if (std::optional<CrossBlockSignal> Sig = I.asAtomic(S)) {
          if (Sig->Scope < ThreadScope::Device ||
              I.Candidates.size() >= MaxBits)
            return true;
          I.CandidateOf[S] = static_cast<unsigned>(I.Candidates.size());
          I.Candidates.push_back(*Sig);
        }
      return true;
    }
  } Find(*this);
  Find.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
}

void CrossBlockSignalAnalysis::Impl::findDerived() {
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    bool Changed = false;
    explicit Finder(Impl &I) : I(I) {}
    void note(const VarDecl *V, const Expr *Value) {
      if (!V || !Value || I.Derived.contains(V) || I.Alias.contains(V))
        return;
      if (!V->hasLocalStorage() && !V->hasAttr<CUDASharedAttr>())
        return;
      if (V->getType()->isPointerType())
        return;
      if (std::optional<Origin> O = I.originIn(Value)) {
        I.Derived[V] = *O;
        Changed = true;
      }
    }
    bool VisitVarDecl(VarDecl *V) {
      if (!isa<ParmVarDecl>(V))
        note(V, V->getInit());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp())
        if (const auto *Ref =
                dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          note(dyn_cast<VarDecl>(Ref->getDecl()), B->getRHS());
      return true;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
      AsmFacts F = asmFacts(Asm);
      if (!F.FlagRead || Asm->getNumOutputs() == 0)
        return true;
      const ValueDecl *Base = nullptr;
      for (unsigned K = 0; K < Asm->getNumInputs() && !Base; ++K)
        Base = I.pointerBase(Asm->getInputExpr(K));
      if (!Base)
        return true;
      for (unsigned K = 0; K < Asm->getNumOutputs(); ++K)
        if (const auto *Ref = dyn_cast<DeclRefExpr>(
                Asm->getOutputExpr(K)->IgnoreParenImpCasts()))
          if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
              V && !I.Derived.contains(V)) {
            I.Derived[V] = Origin{-1, Base, F.AcquireRead, true};
            Changed = true;
          }
      return true;
    }
  };
  for (unsigned Round = 0; Round < 4; ++Round) {
    Finder Find(*this);
    Find.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
    if (!Find.Changed)
      break;
  }
}

namespace {
/// A loop condition, or an `if` whose branch leaves a loop: a spin.
bool isSpin(const Stmt *Terminator) {
  if (!Terminator)
    return false;
  if (isa<WhileStmt>(Terminator) || isa<DoStmt>(Terminator) ||
      isa<ForStmt>(Terminator))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Terminator)) {
    for (const Stmt *Branch : {If->getThen(), If->getElse()}) {
      if (!Branch)
        continue;
      if (isa<BreakStmt>(Branch))
        return true;
      if (const auto *Body = dyn_cast<CompoundStmt>(Branch))
        for (const Stmt *Child : Body->body())
          if (isa<BreakStmt>(Child))
            return true;
    }
  }
  return false;
}
} // namespace

bool CrossBlockSignalAnalysis::Impl::pureLoop(const Stmt *Loop) const {
  // A spin does nothing but wait: no store to global memory in its body.
  const Stmt *Body = nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Body = W->getBody();
  else if (const auto *Do = dyn_cast<DoStmt>(Loop))
    Body = Do->getBody();
  else if (const auto *For = dyn_cast<ForStmt>(Loop))
    Body = For->getBody();
  if (!Body)
    return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const Impl &I;
    bool Stores = false;
    explicit Finder(const Impl &I) : I(I) {}
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp() && I.lvalueBase(B->getLHS()))
        Stores = true;
      return !Stores;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->isIncrementDecrementOp() && I.lvalueBase(U->getSubExpr()))
        Stores = true;
      return !Stores;
    }
  } Find(*this);
  Find.TraverseStmt(const_cast<Stmt *>(Body));
  return !Find.Stores;
}

void CrossBlockSignalAnalysis::Impl::findWaits(const CFG &Cfg) {
  std::vector<const CFGBlock *> Blocks = blocksInProgramOrder(Cfg);
  // The loop a spin's condition belongs to, when the loop only waits.
  auto SpinLoop = [&](const Stmt *Terminator) -> bool {
    if (!isSpin(Terminator))
      return false;
    if (!isa<IfStmt>(Terminator))
      return pureLoop(Terminator);
    for (const Stmt *S = Parents->getParent(Terminator); S;
         S = Parents->getParent(S))
      if (isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<ForStmt>(S))
        return pureLoop(S);
    return false;
  };
  struct Found {
    const Stmt *Cond;
    Origin O;
    bool Spin;
  };
  std::vector<Found> All;
  // A CAS whose expected value is not a constant updates (read, compute,
  // CAS until it sticks); it does not wait for another block.
  std::function<bool(const Stmt *)> RetryCas = [&](const Stmt *S) -> bool {
    if (!S)
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && isAtomicCasName(calleeName(Call)) &&
        Call->getNumArgs() == 3) {
      Expr::EvalResult R;
      if (Call->getArg(1)->isValueDependent() ||
          !Call->getArg(1)->EvaluateAsInt(R, Ctx))
        return true;
    }
    return llvm::any_of(S->children(),
                        [&](const Stmt *Child) { return RetryCas(Child); });
  };
  for (const CFGBlock *Block : Blocks) {
    const Stmt *Cond = Block->getTerminatorCondition(false);
    if (!Cond || RetryCas(Cond))
      continue;
    std::optional<Origin> O = originIn(Cond);
    if (!O)
      continue;
    bool Spin = SpinLoop(Block->getTerminatorStmt());
    All.push_back({Cond, *O, Spin});
    if (Spin && O->Base) {
      FlagBases.insert(O->Base);
      FlagKeys.insert({O->Base, O->Candidate >= 0 ? nullptr : O->Field});
    }
  }
  for (const Found &F : All) {
    const Origin &O = F.O;
    if (Waits.size() >= MaxBits)
      break;
    if (!F.Spin) {
      if (O.Candidate < 0) {
        // A branch on a flag counts where a spin elsewhere reads it.
        if (!O.Base || !isFlag(O.Base, O.Field))
          continue;
      } else {
        // A ticket is tested for equality (or its truth): `ticket == n - 1`,
        // `if (amLast)`. A bound (`next < end`) hands out work; a CAS tested
        // for its expected value claims a slot.
        const CrossBlockSignal &C = Candidates[O.Candidate];
        if (isAtomicCasName(C.Name) || isCompareExchangeName(C.Name))
          continue;
        bool Bound = false;
        for (const Stmt *S = O.Found; S; S = Parents->getParent(S)) {
          Bound |= isRelational(S);
          if (S == F.Cond)
            break;
        }
        if (Bound)
          continue;
      }
    }
    if (O.Base)
      WaitedKeys.insert({O.Base, O.Candidate >= 0 ? nullptr : O.Field});
    if (O.Candidate >= 0)
      (F.Spin ? SpinTested : BranchTested).insert(O.Candidate);
    SignalWait W;
    W.Where = F.Cond;
    W.Signal = O.Candidate;
    W.Base = O.Base;
    W.Acquires = O.Acquires;
    WaitOf[F.Cond] = static_cast<unsigned>(Waits.size());
    Waits.push_back(W);
  }
}

} // namespace clang::tidy::cuda::analysis
