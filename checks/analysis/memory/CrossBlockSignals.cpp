//===--- CrossBlockSignals.cpp - data handed to other blocks, and its fences ===//

#include "checks/analysis/memory/CrossBlockSignals.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace clang::tidy::cuda::analysis {

llvm::StringRef memoryOrderName(MemoryOrder O) {
  switch (O) {
  case MemoryOrder::Relaxed:
    return "relaxed";
  case MemoryOrder::Consume:
    return "consume";
  case MemoryOrder::Acquire:
    return "acquire";
  case MemoryOrder::Release:
    return "release";
  case MemoryOrder::AcqRel:
    return "acq_rel";
  case MemoryOrder::SeqCst:
    return "seq_cst";
  }
  return "";
}

llvm::StringRef threadScopeName(ThreadScope S) {
  switch (S) {
  case ThreadScope::Thread:
    return "thread";
  case ThreadScope::Block:
    return "block";
  case ThreadScope::Device:
    return "device";
  case ThreadScope::System:
    return "system";
  }
  return "";
}

bool CrossBlockSignal::releases() const {
  return Scope >= ThreadScope::Device &&
         (Order == MemoryOrder::Release || Order == MemoryOrder::AcqRel ||
          Order == MemoryOrder::SeqCst);
}

bool CrossBlockSignal::acquires() const {
  return Scope >= ThreadScope::Device &&
         (Order == MemoryOrder::Acquire || Order == MemoryOrder::Consume ||
          Order == MemoryOrder::AcqRel || Order == MemoryOrder::SeqCst);
}

namespace {

llvm::StringRef calleeName(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getDeclName().isIdentifier())
    return {};
  return FD->getName();
}

/// The namespaces around \p D, innermost first ("std", "__4", "cuda").
bool inCudaNamespace(const Decl *D, bool &Std) {
  Std = false;
  bool Cuda = false;
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx)) {
      Std |= NS->getName() == "std";
      Cuda |= NS->getName() == "cuda";
    }
  return Cuda;
}

/// A global atomic builtin: its scope by suffix.
std::optional<ThreadScope> atomicBuiltinScope(const CallExpr *Call,
                                              llvm::StringRef &Name) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || Call->getNumArgs() < 2)
    return std::nullopt;
  Name = calleeName(Call);
  llvm::StringRef Stem = Name;
  ThreadScope Scope = ThreadScope::Device;
  if (Stem.consume_back("_block"))
    Scope = ThreadScope::Block;
  else if (Stem.consume_back("_system"))
    Scope = ThreadScope::System;
  static constexpr llvm::StringLiteral Atomics[] = {
      "atomicAdd", "atomicSub", "atomicExch", "atomicMin",
      "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
      "atomicAnd", "atomicOr",  "atomicXor"};
  bool Known = llvm::is_contained(Atomics, Stem);
  if (!Known || !Call->getArg(0)->getType()->isPointerType())
    return std::nullopt;
  return Scope;
}

/// The enumerator of \p T (an enum) with value \p V, lower-cased name.
std::string enumeratorName(QualType T, int64_t V) {
  if (const auto *ET = T->getAs<EnumType>())
    if (const EnumDecl *ED = ET->getDecl()->getDefinition())
      for (const EnumConstantDecl *C : ED->enumerators())
        if (C->getInitVal().getSExtValue() == V)
          return C->getName().lower();
  return {};
}

std::optional<MemoryOrder> orderOf(const Expr *E, const ASTContext &Ctx) {
  if (!E)
    return std::nullopt;
  if (isa<CXXDefaultArgExpr>(E))
    return MemoryOrder::SeqCst;
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  std::string Name = enumeratorName(E->getType(), R.Val.getInt().getSExtValue());
  if (Name.empty()) // libcu++: relaxed, consume, acquire, release, acq_rel, seq_cst
    switch (R.Val.getInt().getSExtValue()) {
    case 0: return MemoryOrder::Relaxed;
    case 1: return MemoryOrder::Consume;
    case 2: return MemoryOrder::Acquire;
    case 3: return MemoryOrder::Release;
    case 4: return MemoryOrder::AcqRel;
    default: return MemoryOrder::SeqCst;
    }
  llvm::StringRef N(Name);
  if (N.contains("relaxed"))
    return MemoryOrder::Relaxed;
  if (N.contains("consume"))
    return MemoryOrder::Consume;
  if (N.contains("acq_rel"))
    return MemoryOrder::AcqRel;
  if (N.contains("acquire"))
    return MemoryOrder::Acquire;
  if (N.contains("release"))
    return MemoryOrder::Release;
  return MemoryOrder::SeqCst;
}

std::optional<ThreadScope> scopeFromValue(QualType T, int64_t V) {
  std::string Name = enumeratorName(T, V);
  llvm::StringRef N(Name);
  if (N.contains("block"))
    return ThreadScope::Block;
  if (N.contains("device"))
    return ThreadScope::Device;
  if (N.contains("system"))
    return ThreadScope::System;
  if (N.contains("thread"))
    return ThreadScope::Thread;
  switch (V) { // libcu++'s __ATOMIC_SYSTEM/DEVICE/BLOCK/THREAD
  case 0: return ThreadScope::System;
  case 1: return ThreadScope::Device;
  case 2: return ThreadScope::Block;
  default: return ThreadScope::Thread;
  }
}

bool isMemoryOrderType(QualType T) {
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  return ET && ET->getDecl()->getName().contains("memory_order");
}

/// `cuda::atomic_ref<T, S>`, `cuda::atomic<T, S>` and the cuda::std forms:
/// the scope, or nothing for another type.
std::optional<ThreadScope> atomicObjectScope(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return std::nullopt;
  llvm::StringRef Name = Spec->getName();
  if (Name != "atomic_ref" && Name != "atomic")
    return std::nullopt;
  bool Std = false;
  if (!inCudaNamespace(Spec, Std))
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (!Std && Args.size() >= 2 &&
      Args[1].getKind() == TemplateArgument::Integral)
    return scopeFromValue(Args[1].getIntegralType(),
                          Args[1].getAsIntegral().getSExtValue());
  return ThreadScope::System;
}

struct AsmFacts {
  bool Fence = false;
  bool ReleaseWrite = false;
  bool AcquireRead = false;
  bool FlagRead = false;
  bool Barrier = false;
};

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

constexpr unsigned MaxBits = 64;

struct Flow {
  uint64_t Unfenced = 0;  ///< stores with no release fence since
  uint64_t NoBarrier = 0; ///< stores with no block barrier since
  uint64_t Waited = 0;    ///< non-acquiring waits with no acquire fence since
  uint64_t Seen = 0;      ///< waits passed
  uint64_t Pending = 0;   ///< stores since the last wait
  bool operator==(const Flow &O) const {
    return Unfenced == O.Unfenced && NoBarrier == O.NoBarrier &&
           Waited == O.Waited && Seen == O.Seen && Pending == O.Pending;
  }
};

/// What a call to a function with a body does, as far as this analysis
/// cares.
struct CalleeFacts {
  bool Fence = false;
  bool Barrier = false;
  llvm::DenseSet<unsigned> StoresParam;
  llvm::DenseSet<unsigned> ReadsParam;
  llvm::DenseSet<unsigned> VolatileParam;
};

/// A stable sort without std::stable_sort's deprecated temporary buffer:
/// equal elements keep their order (the position is the last key).
template <typename T, typename LessFn>
void sortKeepingOrder(std::vector<T> &Items, LessFn Less) {
  std::vector<unsigned> Order(Items.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](unsigned A, unsigned B) {
    if (Less(Items[A], Items[B]))
      return true;
    if (Less(Items[B], Items[A]))
      return false;
    return A < B;
  });
  std::vector<T> Sorted;
  Sorted.reserve(Items.size());
  for (unsigned I : Order)
    Sorted.push_back(Items[I]);
  Items = std::move(Sorted);
}

struct Event {
  enum Kind { Store, Signal, ReleaseFence, AcquireFence, Barrier, Read } K;
  unsigned Index = 0;
};

/// Where a value tested by a wait comes from.
struct Origin {
  int Candidate = -1; ///< an atomic candidate's result
  const ValueDecl *Base = nullptr;
  bool Acquires = false;
  bool FlagRead = false; ///< a load of a flag, not a read-modify-write
  /// The field of the location the flag is (`tiles[i].status`), or null.
  const ValueDecl *Field = nullptr;
  /// Where in the tested expression the value was found.
  const Stmt *Found = nullptr;
};

/// The field an lvalue names last (`p[i].w`, `s->flag`), or null.
const ValueDecl *fieldOf(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *M = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()))
    return M->getMemberDecl();
  return nullptr;
}

/// A relational comparison (<, <=, >, >=).
bool isRelational(const Stmt *S) {
  const auto *B = dyn_cast<BinaryOperator>(S);
  return B && B->isRelationalOp();
}

} // namespace

struct CrossBlockSignalAnalysis::Impl {
  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  const FunctionDivergence *D = nullptr;
  std::unique_ptr<ParentMap> Parents;

  std::vector<GlobalStore> Stores;
  std::vector<CrossBlockSignal> Signals;
  std::vector<DeviceFence> Fences;
  std::vector<SignalWait> Waits;
  std::vector<GlobalRead> Reads;
  std::vector<UnfencedRelease> Releases;
  std::vector<UnacquiredRead> Acquires;

  /// Local pointers (and atomic_ref objects) and the location they name.
  llvm::DenseMap<const VarDecl *, const ValueDecl *> Alias;
  /// Atomic operations on global memory: possible signals.
  std::vector<CrossBlockSignal> Candidates;
  llvm::DenseMap<const Stmt *, unsigned> CandidateOf;
  /// Locals and __shared__ variables holding a signal's value.
  llvm::DenseMap<const VarDecl *, Origin> Derived;
  /// Locations read by spins (loop conditions): flags.
  llvm::DenseSet<std::pair<const ValueDecl *, const ValueDecl *>> FlagKeys;
  llvm::DenseSet<const ValueDecl *> FlagBases;
  /// Locations whose signal value is tested by any wait.
  llvm::DenseSet<std::pair<const ValueDecl *, const ValueDecl *>> WaitedKeys;
  /// The location (\p Base, its field \p Field) is a flag a spin reads, or
  /// a counter a branch tests.
  bool isFlag(const ValueDecl *Base, const ValueDecl *Field) const {
    return FlagKeys.contains({Base, nullptr}) || FlagKeys.contains({Base, Field});
  }
  bool isWaited(const ValueDecl *Base, const ValueDecl *Field) const {
    return WaitedKeys.contains({Base, nullptr}) ||
           WaitedKeys.contains({Base, Field});
  }
  bool pureLoop(const Stmt *Loop) const;
  bool mentionsThreadIdx(const Stmt *S, unsigned Depth = 0) const;
  /// Candidates whose value a spin tests, or another branch.
  llvm::DenseSet<int> SpinTested, BranchTested;
  llvm::DenseMap<const Stmt *, std::vector<Event>> EventsOf;
  llvm::DenseMap<const Stmt *, unsigned> WaitOf; ///< terminator -> wait
  llvm::DenseMap<const FunctionDecl *, CalleeFacts> Callees;
  /// Findings before the filter on readers.
  std::vector<UnfencedRelease> Pending;
  /// Locations read after a wait: the first such read.
  llvm::DenseMap<const ValueDecl *, unsigned> ReadAfterWait;
  /// Locations stored since a wait and before a signal on some path.
  llvm::DenseSet<const ValueDecl *> Published;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager)
      : FD(FD), Ctx(Ctx), Manager(Manager) {}

  const ValueDecl *pointerBase(const Expr *E, unsigned Depth = 0) const;
  const ValueDecl *lvalueBase(const Expr *E, unsigned Depth = 0) const;
  bool isGlobalVar(const VarDecl *V) const;
  std::optional<CrossBlockSignal> asAtomic(const Stmt *S) const;
  std::optional<Origin> flagReadOrigin(const Expr *E) const;
  std::optional<Origin> originIn(const Stmt *S) const;
  const CalleeFacts &calleeFacts(const FunctionDecl *Callee, unsigned Depth);
  bool otherThreads(const Stmt *Store, const Stmt *Signal) const;
  bool contains(const Stmt *Outer, const Stmt *Inner) const;
  void findAliases();
  void findCandidates();
  void findDerived();
  void findWaits(const CFG &Cfg);
  void classify(const CFG &Cfg);
  void transfer(const CFGBlock *Block, Flow &F, bool Record);
  void run();
};

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
      if (atomicObjectScope(T)) {
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
    std::optional<ThreadScope> Scope = atomicObjectScope(Object->getType());
    if (!Scope)
      return std::nullopt;
    llvm::StringRef Name = Method->getName();
    bool Writes = Name == "store" || Name == "exchange" ||
                  Name.starts_with("fetch_") ||
                  Name.starts_with("compare_exchange");
    if (!Writes)
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
        (Method->getName() == "load" || Method->getName() == "wait"))
      if (std::optional<ThreadScope> Scope =
              atomicObjectScope(Object->getType())) {
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
    llvm::StringRef Name = calleeName(Call);
    if ((Name == "__ldcg" || Name == "__ldcv" || Name == "__ldlu") &&
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
  std::vector<const CFGBlock *> Blocks(Cfg.begin(), Cfg.end());
  llvm::sort(Blocks, [](const CFGBlock *L, const CFGBlock *R) {
    return L->getBlockID() > R->getBlockID();
  });
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
        Call && calleeName(Call).starts_with("atomicCAS") &&
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
        if (llvm::StringRef(C.Name).starts_with("atomicCAS") ||
            llvm::StringRef(C.Name).starts_with("compare_exchange"))
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
      llvm::StringRef Name = calleeName(Call);
      if (Name == "__threadfence" || Name == "__threadfence_system") {
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
      if (llvm::StringRef(calleeName(Call)).contains("thread_rank"))
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
      if (Name == "__threadfence" || Name == "__threadfence_system") {
        AddFence(S, Name, true, true);
        continue;
      }
      if (Name == "atomic_thread_fence" && Call->getDirectCallee()) {
        bool Std = false;
        if (!inCudaNamespace(Call->getDirectCallee(), Std))
          continue;
        MemoryOrder O = MemoryOrder::SeqCst;
        ThreadScope Sc = ThreadScope::System;
        if (Call->getNumArgs() >= 1)
          if (std::optional<MemoryOrder> OO = orderOf(Call->getArg(0), Ctx))
            O = *OO;
        if (!Std && Call->getNumArgs() >= 2 &&
            !isa<CXXDefaultArgExpr>(Call->getArg(1))) {
          Expr::EvalResult R;
          if (Call->getArg(1)->EvaluateAsInt(R, Ctx))
            Sc = *scopeFromValue(Call->getArg(1)->getType(),
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
      if (Name == "__ldcg" || Name == "__ldcv" || Name == "__ldlu" ||
          Name == "__ldg" || Name == "__ldca" || Name == "__ldcs") {
        if (Call->getNumArgs() == 1)
          AddRead(S, pointerBase(Call->getArg(0)),
                  Name == "__ldcg" || Name == "__ldcv" || Name == "__ldlu");
        continue;
      }
      if ((Name == "__stcg" || Name == "__stcs" || Name == "__stwt" ||
           Name == "__stwb") &&
          Call->getNumArgs() == 2) {
        AddStore(S, pointerBase(Call->getArg(0)), false);
        continue;
      }
      if (std::optional<BarrierCall> Barrier = asBarrierCall(Call)) {
        if (Barrier->BarrierScope == Scope::Grid)
          AddFence(S, Barrier->Spelling, true, true);
        if (!Barrier->Spelling.empty() &&
            (llvm::StringRef(Barrier->Spelling).contains("arrive") &&
             !llvm::StringRef(Barrier->Spelling).contains("wait")))
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

void CrossBlockSignalAnalysis::Impl::run() {
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return;
  // Most kernels use no global atomic, volatile flag or release assembly.
  struct Any : RecursiveASTVisitor<Any> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      llvm::StringRef Name = calleeName(Call);
      Found |= Name.starts_with("atomic") || isa<CXXMemberCallExpr>(Call);
      return !Found;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *) {
      Found = true;
      return false;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
      Found |= C->getCastKind() == CK_LValueToRValue &&
               C->getSubExpr()->getType().isVolatileQualified();
      return !Found;
    }
  } Look;
  Look.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  if (!Look.Found)
    return;
  D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  const CFG *Cfg = D->cfg();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));
  findAliases();
  findCandidates();
  findDerived();
  findWaits(*Cfg);
  if (Waits.empty())
    return;
  classify(*Cfg);
  if (Signals.empty())
    return;

  unsigned N = Cfg->getNumBlockIDs();
  std::vector<std::optional<Flow>> In(N);
  In[Cfg->getEntry().getBlockID()] = Flow();
  std::vector<const CFGBlock *> Order(Cfg->begin(), Cfg->end());
  llvm::sort(Order, [](const CFGBlock *L, const CFGBlock *R) {
    return L->getBlockID() > R->getBlockID();
  });
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < 64; ++Round) {
    Changed = false;
    for (const CFGBlock *Block : Order) {
      if (!In[Block->getBlockID()])
        continue;
      Flow F = In[Block->getBlockID()].value_or(Flow());
      transfer(Block, F, false);
      for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
        const CFGBlock *Next = Succ.getReachableBlock();
        if (!Next)
          continue;
        std::optional<Flow> &Into = In[Next->getBlockID()];
        Flow J = Into ? *Into : Flow();
        J.Unfenced |= F.Unfenced;
        J.NoBarrier |= F.NoBarrier;
        J.Waited |= F.Waited;
        J.Seen |= F.Seen;
        J.Pending |= F.Pending;
        if (!Into || !(J == *Into)) {
          Into = J;
          Changed = true;
        }
      }
    }
  }
  for (const CFGBlock *Block : Order)
    if (In[Block->getBlockID()]) {
      Flow F = In[Block->getBlockID()].value_or(Flow());
      transfer(Block, F, true);
    }

  // Keep the stores another block reads after a wait, and the reads of
  // locations stored before a signal; one finding per pair.
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](const Stmt *L, const Stmt *R) {
    return SM.isBeforeInTranslationUnit(L->getBeginLoc(), R->getBeginLoc());
  };
  llvm::DenseMap<std::pair<unsigned, unsigned>, unsigned> Merged;
  for (UnfencedRelease &U : Pending) {
    auto It = ReadAfterWait.find(Stores[U.Store].Base);
    if (It == ReadAfterWait.end())
      continue;
    U.Reader = static_cast<int>(It->second);
    auto [At, New] = Merged.try_emplace({U.Signal, U.Store},
                                        static_cast<unsigned>(Releases.size()));
    if (New) {
      Releases.push_back(U);
      continue;
    }
    Releases[At->second].MissingFence |= U.MissingFence;
    Releases[At->second].MissingBarrier |= U.MissingBarrier;
  }
  // Reads of what some signal publishes (stored before it, fenced or not).
  const llvm::DenseSet<const ValueDecl *> &StoredBefore = Published;
  llvm::DenseSet<unsigned> SeenRead;
  std::vector<UnacquiredRead> Kept;
  for (const UnacquiredRead &A : Acquires)
    if (StoredBefore.contains(Reads[A.Read].Base) &&
        SeenRead.insert(A.Read).second)
      Kept.push_back(A);
  Acquires = std::move(Kept);
  sortKeepingOrder(Releases, [&](const UnfencedRelease &L,
                                  const UnfencedRelease &R) {
    if (L.Signal != R.Signal)
      return Before(Signals[L.Signal].Where, Signals[R.Signal].Where);
    return Before(Stores[L.Store].Where, Stores[R.Store].Where);
  });
  sortKeepingOrder(Acquires, [&](const UnacquiredRead &L,
                                  const UnacquiredRead &R) {
    return Before(Reads[L.Read].Where, Reads[R.Read].Where);
  });
}

const Stmt *CrossBlockSignalAnalysis::fenceInsertionPoint(unsigned Signal) const {
  if (Signal >= P->Signals.size() || !P->Parents)
    return nullptr;
  const Stmt *S = P->Signals[Signal].Where;
  if (S->getBeginLoc().isMacroID())
    return nullptr;
  const Stmt *Child = S;
  for (const Stmt *Parent = P->Parents->getParent(S); Parent;
       Child = Parent, Parent = P->Parents->getParent(Parent)) {
    if (isa<CompoundStmt>(Parent))
      return Child->getBeginLoc().isMacroID() ? nullptr : Child;
    // A signal in a loop's condition runs on every trip: no one point.
    if (const auto *W = dyn_cast<WhileStmt>(Parent); W && W->getCond() == Child)
      return nullptr;
    if (const auto *Do = dyn_cast<DoStmt>(Parent); Do && Do->getCond() == Child)
      return nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Parent);
        For && (For->getCond() == Child || For->getInc() == Child))
      return nullptr;
    if (isa<IfStmt>(Parent) || isa<WhileStmt>(Parent) || isa<ForStmt>(Parent) ||
        isa<DoStmt>(Parent)) {
      const auto *If = dyn_cast<IfStmt>(Parent);
      if (If && If->getCond() == Child)
        continue; // before the if
      // A body that is one statement, not a block: no place for two.
      return nullptr;
    }
  }
  return nullptr;
}

CrossBlockSignalAnalysis::CrossBlockSignalAnalysis(const FunctionDecl *Kernel,
                                                   ASTContext &Ctx,
                                                   FactQueries &Manager)
    : P(std::make_unique<Impl>(Kernel, Ctx, Manager)) {
  P->run();
}

CrossBlockSignalAnalysis::~CrossBlockSignalAnalysis() = default;

llvm::ArrayRef<GlobalStore> CrossBlockSignalAnalysis::stores() const {
  return P->Stores;
}
llvm::ArrayRef<CrossBlockSignal> CrossBlockSignalAnalysis::signals() const {
  return P->Signals;
}
llvm::ArrayRef<DeviceFence> CrossBlockSignalAnalysis::fences() const {
  return P->Fences;
}
llvm::ArrayRef<SignalWait> CrossBlockSignalAnalysis::waits() const {
  return P->Waits;
}
llvm::ArrayRef<GlobalRead> CrossBlockSignalAnalysis::reads() const {
  return P->Reads;
}
llvm::ArrayRef<UnfencedRelease>
CrossBlockSignalAnalysis::unfencedReleases() const {
  return P->Releases;
}
llvm::ArrayRef<UnacquiredRead>
CrossBlockSignalAnalysis::unacquiredReads() const {
  return P->Acquires;
}

} // namespace clang::tidy::cuda::analysis
