//===--- AsyncCopies.cpp - asynchronous copies into memory, and their waits ===//

#include "checks/analysis/protocols/AsyncCopies.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace clang::tidy::cuda::analysis {

namespace {

/// The outermost namespace of \p D's context, or "".
llvm::StringRef outermostNamespace(const Decl *D) {
  llvm::StringRef Name;
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Ctx))
      Name = NS->getName();
  return Name;
}

const CXXRecordDecl *recordOf(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl();
}

/// The record is cuda::<Name> (in any inline namespace of cuda).
bool isCudaRecord(const CXXRecordDecl *Record, llvm::StringRef Name) {
  return Record && Record->getName() == Name &&
         outermostNamespace(Record) == "cuda";
}

/// The first integral template argument of a specialization.
std::optional<llvm::APSInt>
firstIntegralArgument(const TemplateArgumentList *Args) {
  if (!Args)
    return std::nullopt;
  for (const TemplateArgument &Arg : Args->asArray())
    if (Arg.getKind() == TemplateArgument::Integral)
      return Arg.getAsIntegral();
  return std::nullopt;
}

/// cuda::pipeline<cuda::thread_scope_thread>: its waits complete the calling
/// thread's copies only. Read from the enumerator's name, not its value.
bool isThreadScopePipeline(QualType T) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return false;
  const TemplateArgument &Arg = Spec->getTemplateArgs()[0];
  if (Arg.getKind() != TemplateArgument::Integral)
    return false;
  const auto *Enum = Arg.getIntegralType()->getAs<EnumType>();
  if (!Enum)
    return false;
  for (const EnumConstantDecl *Constant :
       Enum->getDecl()->getDefinitionOrSelf()->enumerators())
    if (llvm::APSInt::isSameValue(Constant->getInitVal(), Arg.getAsIntegral()))
      return Constant->getName() == "thread_scope_thread";
  return false;
}

std::optional<uint64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult Result;
  if (!E->EvaluateAsInt(Result, Ctx) || Result.Val.getInt().isNegative())
    return std::nullopt;
  return Result.Val.getInt().getZExtValue();
}

/// A power-of-two-free factor every value of \p E has (1 when nothing is
/// known): constants, products, sums (their gcd), shifts, and locals with
/// one value.
uint64_t knownFactor(const Expr *E, const ASTContext &Ctx,
                     const FunctionDecl *FD, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return 1;
  E = E->IgnoreParenImpCasts();
  if (std::optional<uint64_t> C = constantOf(E, Ctx))
    return *C == 0 ? 0 : *C;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    uint64_t L = knownFactor(B->getLHS(), Ctx, FD, Depth + 1);
    switch (B->getOpcode()) {
    case BO_Mul:
      return L * knownFactor(B->getRHS(), Ctx, FD, Depth + 1);
    case BO_Add:
    case BO_Sub:
      return std::gcd(L, knownFactor(B->getRHS(), Ctx, FD, Depth + 1));
    case BO_Shl:
      if (std::optional<uint64_t> Shift = constantOf(B->getRHS(), Ctx);
          Shift && *Shift < 16)
        return L << *Shift;
      return 1;
    default:
      return 1;
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (auto Values = assignedValues(Var, FD)) {
        uint64_t Factor = 0;
        for (const Expr *V : *Values)
          Factor = std::gcd(Factor, knownFactor(V, Ctx, FD, Depth + 1));
        return Factor == 0 ? 1 : Factor;
      }
  return 1;
}

/// Where a pointer expression points: a variable, and the subscripts into
/// it (outermost first; a pointer offset counts as the outermost one).
struct Place {
  const VarDecl *Var = nullptr;
  std::vector<const Expr *> Indices;
  /// Reached through a local pointer variable.
  bool ThroughAlias = false;
};

std::optional<Place> placeOfPointer(const Expr *E, const FunctionDecl *FD,
                                    unsigned Depth = 0);

/// A local pointer with one value, and where that value points.
std::optional<Place> aliasTarget(const VarDecl *Var, const FunctionDecl *FD,
                                 unsigned Depth) {
  if (!Var->getType()->isPointerType() || !Var->hasLocalStorage() ||
      isa<ParmVarDecl>(Var) || Depth > 4)
    return std::nullopt;
  auto Values = assignedValues(Var, FD);
  if (!Values || Values->size() != 1)
    return std::nullopt;
  std::optional<Place> Target = placeOfPointer(Values->front(), FD, Depth + 1);
  if (Target)
    Target->ThroughAlias = true;
  return Target;
}

/// `X[i][j]` as an lvalue: X's variable and the subscripts.
std::optional<Place> placeOfLValue(const Expr *E, const FunctionDecl *FD,
                                   unsigned Depth) {
  E = E->IgnoreParenImpCasts();
  std::vector<const Expr *> Indices;
  while (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    Indices.push_back(Sub->getIdx());
    E = Sub->getBase()->IgnoreParenImpCasts();
  }
  std::reverse(Indices.begin(), Indices.end());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return std::nullopt;
  if (Var->getType()->isPointerType())
    if (std::optional<Place> Target = aliasTarget(Var, FD, Depth)) {
      // p[i] through p = &X[r][c]: still X's row r.
      if (Target->Indices.empty())
        Target->Indices = Indices;
      return Target;
    }
  if (!Var->getType()->isArrayType() && !Var->getType()->isPointerType())
    return std::nullopt;
  return Place{Var, std::move(Indices), false};
}

std::optional<Place> placeOfPointer(const Expr *E, const FunctionDecl *FD,
                                    unsigned Depth) {
  if (!E || Depth > 8)
    return std::nullopt;
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return placeOfLValue(U->getSubExpr(), FD, Depth);
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Add) {
    const Expr *Pointer = B->getLHS();
    const Expr *Offset = B->getRHS();
    if (!Pointer->getType()->isPointerType())
      std::swap(Pointer, Offset);
    std::optional<Place> Base = placeOfPointer(Pointer, FD, Depth + 1);
    if (Base && Base->Indices.empty())
      Base->Indices.push_back(Offset);
    return Base;
  }
  // A decayed array or row: `X`, `X[s]`.
  return placeOfLValue(E, FD, Depth);
}

/// Bytes past an \p Align-aligned address that \p E points to, given a
/// buffer aligned to \p Align; nullopt when unknown.
std::optional<unsigned> misalignment(const Expr *E, unsigned Align,
                                     const ASTContext &Ctx,
                                     const FunctionDecl *FD) {
  std::optional<Place> At = placeOfPointer(E, FD);
  if (!At || !At->Var || At->ThroughAlias)
    return std::nullopt;
  // The buffer's own alignment must cover the promise: an array declared
  // alignas(N) or dynamic shared memory (aligned to 16 bytes at least).
  QualType VarType = At->Var->getType();
  if (!VarType->isArrayType())
    return std::nullopt;
  uint64_t BufferAlign = Ctx.getDeclAlign(At->Var).getQuantity();
  if (At->Var->hasAttr<CUDASharedAttr>() && At->Var->hasExternalStorage())
    BufferAlign = std::max<uint64_t>(BufferAlign, 16);
  if (BufferAlign < Align)
    return std::nullopt;
  // Sum index x stride over the subscripts; a pointer offset past the
  // subscripts (`&X[i] + k`) is not followed.
  QualType Level = VarType;
  uint64_t Offset = 0;
  for (const Expr *Index : At->Indices) {
    const ArrayType *Array = Ctx.getAsArrayType(Level);
    if (!Array)
      return std::nullopt;
    Level = Array->getElementType();
    if (Level->isIncompleteType() || Level->isDependentType())
      return std::nullopt;
    uint64_t Stride = Ctx.getTypeSizeInChars(Level).getQuantity();
    if (std::optional<uint64_t> C = constantOf(Index, Ctx)) {
      Offset += *C * Stride;
      continue;
    }
    uint64_t Factor = knownFactor(Index, Ctx, FD);
    if (Factor == 0 || (Factor * Stride) % Align != 0)
      return std::nullopt;
  }
  return static_cast<unsigned>(Offset % Align);
}

const FunctionDecl *calleeOf(const CallExpr *Call) {
  return Call ? Call->getDirectCallee() : nullptr;
}

llvm::StringRef nameOf(const FunctionDecl *FD) {
  if (!FD || !FD->getDeclName().isIdentifier())
    return {};
  return FD->getName();
}

/// The object of a member call, or the first argument of a free function.
const Expr *receiverOf(const CallExpr *Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    return Member->getImplicitObjectArgument();
  return Call->getNumArgs() > 0 ? Call->getArg(0) : nullptr;
}

} // namespace

std::optional<AsyncCopy> asAsyncCopy(const CallExpr *Call, ASTContext &Ctx) {
  const FunctionDecl *FD = calleeOf(Call);
  llvm::StringRef Name = nameOf(FD);
  AsyncCopy Copy;
  Copy.Call = Call;
  int DestinationArg = -1;
  int SourceArg = -1;
  if (Name == "memcpy_async" && isInCooperativeGroupsNamespace(FD)) {
    Copy.Api = AsyncCopyApi::CooperativeGroups;
    Copy.Spelling = "cooperative_groups::memcpy_async";
    DestinationArg = 1;
    // (group, dst, src, size) or (group, dst, dstCount, src, srcCount).
    SourceArg = Call->getNumArgs() == 5 ? 3 : 2;
  } else if (Name == "memcpy_async" && outermostNamespace(FD) == "cuda") {
    if (Call->getNumArgs() < 4)
      return std::nullopt;
    const CXXRecordDecl *Sync =
        recordOf(Call->getArg(Call->getNumArgs() - 1)->getType());
    if (isCudaRecord(Sync, "pipeline")) {
      Copy.Api = AsyncCopyApi::CudaPipeline;
      Copy.ThreadScope =
          isThreadScopePipeline(Call->getArg(Call->getNumArgs() - 1)->getType());
    } else if (Sync && Sync->getName() == "barrier") {
      Copy.Api = AsyncCopyApi::CudaBarrier;
    } else {
      return std::nullopt;
    }
    Copy.Spelling = "cuda::memcpy_async";
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->getType()->isPointerType()) {
        DestinationArg = static_cast<int>(I);
        SourceArg = static_cast<int>(I + 1);
        break;
      }
  } else if (Name == "__pipeline_memcpy_async") {
    Copy.Api = AsyncCopyApi::Primitive;
    Copy.ThreadScope = true;
    Copy.Spelling = "__pipeline_memcpy_async";
    DestinationArg = 0;
    SourceArg = 1;
  } else {
    return std::nullopt;
  }
  if (DestinationArg < 0 ||
      static_cast<unsigned>(DestinationArg) >= Call->getNumArgs())
    return std::nullopt;
  Copy.Destination = Call->getArg(DestinationArg);
  if (SourceArg >= 0 && static_cast<unsigned>(SourceArg) < Call->getNumArgs())
    Copy.Source = Call->getArg(SourceArg);
  // The size follows the source: size_t, or cuda::aligned_size_t<N>(n).
  unsigned SizeArg = static_cast<unsigned>(SourceArg) + 1;
  if (SourceArg >= 0 && SizeArg < Call->getNumArgs()) {
    const Expr *Size = Call->getArg(SizeArg)->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Size))
      Size = Cast->getSubExpr()->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Size);
        Construct && Construct->getNumArgs() == 1)
      Size = Construct->getArg(0);
    if (Size->getType()->isIntegerType())
      Copy.Bytes = constantOf(Size, Ctx);
  }
  for (const Expr *Arg : Call->arguments()) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        recordOf(Arg->getType()));
    if (Spec && isCudaRecord(Spec, "aligned_size_t"))
      if (std::optional<llvm::APSInt> N =
              firstIntegralArgument(&Spec->getTemplateArgs()))
        Copy.PromisedAlignment = static_cast<unsigned>(N->getZExtValue());
  }
  return Copy;
}

std::optional<AsyncWait> asAsyncWait(const CallExpr *Call) {
  const FunctionDecl *FD = calleeOf(Call);
  llvm::StringRef Name = nameOf(FD);
  if (Name.empty())
    return std::nullopt;
  AsyncWait Wait;
  if (isInCooperativeGroupsNamespace(FD) && !isa<CXXMemberCallExpr>(Call)) {
    if (Name == "wait") {
      Wait.Spelling = "cooperative_groups::wait";
      return Wait;
    }
    if (Name == "wait_prior") {
      std::optional<llvm::APSInt> N =
          firstIntegralArgument(FD->getTemplateSpecializationArgs());
      if (!N)
        return std::nullopt;
      Wait.K = AsyncWait::KeepNewest;
      Wait.Keep = static_cast<unsigned>(N->getZExtValue());
      Wait.Spelling =
          "cooperative_groups::wait_prior<" + std::to_string(Wait.Keep) + ">";
      return Wait;
    }
    return std::nullopt;
  }
  if (Name == "__pipeline_wait_prior") {
    Wait.ThreadScope = true;
    Wait.Spelling = "__pipeline_wait_prior";
    if (Call->getNumArgs() == 1)
      if (std::optional<uint64_t> N =
              constantOf(Call->getArg(0), FD->getASTContext())) {
        Wait.K = *N == 0 ? AsyncWait::All : AsyncWait::KeepNewest;
        Wait.Keep = static_cast<unsigned>(*N);
        Wait.Spelling += "(" + std::to_string(*N) + ")";
      }
    // A wait count known only at run time: taken as a full wait.
    return Wait;
  }
  if (outermostNamespace(FD) != "cuda")
    return std::nullopt;
  const Expr *Receiver = receiverOf(Call);
  if (!Receiver)
    return std::nullopt;
  const CXXRecordDecl *Object = recordOf(Receiver->getType());
  if (isCudaRecord(Object, "pipeline")) {
    Wait.ThreadScope = isThreadScopePipeline(Receiver->getType());
    if (isa<CXXMemberCallExpr>(Call) &&
        (Name == "consumer_wait" || Name == "consumer_wait_for" ||
         Name == "consumer_wait_until")) {
      Wait.K = AsyncWait::Oldest;
      Wait.Spelling = "cuda::pipeline::" + Name.str();
      return Wait;
    }
    if (!isa<CXXMemberCallExpr>(Call) && Name == "pipeline_consumer_wait_prior") {
      std::optional<llvm::APSInt> N =
          firstIntegralArgument(FD->getTemplateSpecializationArgs());
      if (!N)
        return std::nullopt;
      Wait.Keep = static_cast<unsigned>(N->getZExtValue());
      Wait.K = Wait.Keep == 0 ? AsyncWait::All : AsyncWait::KeepNewest;
      Wait.Spelling =
          "cuda::pipeline_consumer_wait_prior<" + std::to_string(Wait.Keep) + ">";
      return Wait;
    }
    return std::nullopt;
  }
  if (Object && Object->getName() == "barrier" && isa<CXXMemberCallExpr>(Call) &&
      (Name == "arrive_and_wait" || Name == "wait")) {
    Wait.K = AsyncWait::Barrier;
    Wait.Spelling = "cuda::barrier::" + Name.str();
    return Wait;
  }
  return std::nullopt;
}

bool isAsyncCommit(const CallExpr *Call) {
  const FunctionDecl *FD = calleeOf(Call);
  llvm::StringRef Name = nameOf(FD);
  if (Name == "__pipeline_commit")
    return true;
  if (Name != "producer_commit" && Name != "pipeline_producer_commit")
    return false;
  const Expr *Receiver = receiverOf(Call);
  return Receiver && isCudaRecord(recordOf(Receiver->getType()), "pipeline");
}

//===----------------------------------------------------------------------===//
// The dataflow
//===----------------------------------------------------------------------===//

namespace {

/// Copies are numbered in source order; a function with more than 64 is
/// analysed for its first 64.
using CopySet = uint64_t;
constexpr unsigned MaxCopies = 64;
/// Stages per queue, and queues per program point, before merging.
constexpr unsigned MaxStages = 8;
constexpr unsigned MaxQueues = 8;
/// Rounds over the CFG before giving up on a fixpoint.
constexpr unsigned MaxRounds = 40;

struct Stage {
  CopySet Copies = 0;
  /// A wait completed older stages and left this one (its slot of a
  /// multi-stage buffer is a runtime value).
  bool Staged = false;
  /// The wait that left it.
  const CallExpr *LeftBy = nullptr;
  /// Which wait left it is for the note only: two stages that differ in it
  /// are one state (else every wait would make paths distinct).
  bool operator==(const Stage &O) const {
    return Copies == O.Copies && Staged == O.Staged;
  }
};

/// What one path has in flight.
struct Queue {
  llvm::SmallVector<Stage, 4> Committed; ///< oldest first
  CopySet Open = 0;                      ///< not committed yet
  CopySet BarrierTied = 0;               ///< completed by a cuda::barrier
  /// Completed for this thread by a thread-scope wait; other threads'
  /// copies need a block barrier still.
  CopySet DoneForThisThread = 0;
  const CallExpr *DoneBy = nullptr;
  bool operator==(const Queue &O) const {
    return Committed == O.Committed && Open == O.Open &&
           BarrierTied == O.BarrierTied &&
           DoneForThisThread == O.DoneForThisThread;
  }
  bool empty() const {
    return Committed.empty() && !Open && !BarrierTied && !DoneForThisThread;
  }
};

using State = llvm::SmallVector<Queue, 2>;

void addQueue(State &S, const Queue &Q) {
  if (llvm::is_contained(S, Q))
    return;
  S.push_back(Q);
  if (S.size() <= MaxQueues)
    return;
  // Too many paths: one queue holding what any of them holds, aligned at
  // the newest stage (which the wait counts keep).
  Queue Merged;
  size_t Longest = 0;
  for (const Queue &Each : S)
    Longest = std::max(Longest, Each.Committed.size());
  Merged.Committed.resize(Longest);
  for (const Queue &Each : S) {
    size_t Shift = Longest - Each.Committed.size();
    for (size_t I = 0; I < Each.Committed.size(); ++I) {
      Stage &Into = Merged.Committed[Shift + I];
      Into.Copies |= Each.Committed[I].Copies;
      Into.Staged |= Each.Committed[I].Staged;
      if (!Into.LeftBy)
        Into.LeftBy = Each.Committed[I].LeftBy;
    }
    Merged.Open |= Each.Open;
    Merged.BarrierTied |= Each.BarrierTied;
    Merged.DoneForThisThread |= Each.DoneForThisThread;
    if (!Merged.DoneBy)
      Merged.DoneBy = Each.DoneBy;
  }
  S.clear();
  S.push_back(std::move(Merged));
}

/// A commit makes a stage even with no copy in it (cp.async.commit_group
/// of nothing): the wait counts stay right.
void push(Queue &Q, CopySet Copies) {
  Q.Committed.push_back({Copies, false, nullptr});
  if (Q.Committed.size() > MaxStages) {
    Q.Committed[1].Copies |= Q.Committed[0].Copies;
    Q.Committed[1].Staged = true;
    Q.Committed.erase(Q.Committed.begin());
  }
}

/// Which region of a buffer an access or a copy names, for the conflict
/// test.
struct Region {
  const VarDecl *Buffer = nullptr;
  const Expr *Leading = nullptr;
  std::vector<const Expr *> Indices;
  bool ThroughAlias = false;
};

} // namespace

struct AsyncCopyAnalysis::Impl {
  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  std::vector<AsyncCopy> Copies;
  std::vector<EarlyAccess> Early;

  const CFG *Cfg = nullptr;
  std::unique_ptr<ParentMap> Parents;
  llvm::DenseMap<const CallExpr *, unsigned> CopyIndex;
  llvm::DenseMap<const CallExpr *, AsyncCopyApi> Untracked;
  /// The variables some copy writes into.
  llvm::DenseSet<const VarDecl *> Buffers;
  /// References inside a copy's destination argument: not accesses.
  llvm::DenseSet<const Stmt *> InDestination;
  llvm::DenseMap<const FunctionDecl *, bool> CalleeWaits;
  /// Per access expression (dedup): index into Early.
  llvm::DenseMap<const Expr *, unsigned> EarlyOf;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager)
      : FD(FD), Ctx(Ctx), Manager(Manager) {}

  void run();
  bool collect();
  bool calleeWaits(const FunctionDecl *Callee, unsigned Depth = 0);
  void transfer(const CFGBlock *Block, State &S, bool Record);
  void apply(const Stmt *Element, State &S, bool Record);
  std::optional<std::pair<Region, bool>> accessAt(const DeclRefExpr *Ref,
                                                  const Expr *&Whole) const;
  bool conflicts(const AsyncCopy &Copy, const Region &Access,
                 bool Staged) const;
  bool sameSubscripts(const AsyncCopy &Copy, const Region &Access) const;
  void record(const Expr *Access, const Region &R, bool Writes, unsigned Copy,
              EarlyAccess::Reason Why, const CallExpr *Wait);
};

bool AsyncCopyAnalysis::Impl::calleeWaits(const FunctionDecl *Callee,
                                          unsigned Depth) {
  if (!Callee || Depth > 4)
    return false;
  const FunctionDecl *Def = Callee->getDefinition();
  if (!Def || !Def->getBody())
    return false;
  auto [It, New] = CalleeWaits.try_emplace(Def, false);
  if (!New)
    return It->second;
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    unsigned Depth;
    bool Found = false;
    Finder(Impl &I, unsigned Depth) : I(I), Depth(Depth) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (asAsyncWait(Call) || I.calleeWaits(Call->getDirectCallee(), Depth + 1))
        Found = true;
      return !Found;
    }
  } Find(*this, Depth);
  Find.TraverseStmt(Def->getBody());
  CalleeWaits[Def] = Find.Found;
  return Find.Found;
}

bool AsyncCopyAnalysis::Impl::collect() {
  struct Finder : RecursiveASTVisitor<Finder> {
    Impl &I;
    explicit Finder(Impl &I) : I(I) {}
    bool shouldVisitLambdaBody() const { return false; }
    bool VisitCallExpr(CallExpr *Call) {
      std::optional<AsyncCopy> Copy = asAsyncCopy(Call, I.Ctx);
      if (!Copy)
        return true;
      if (I.Copies.size() >= MaxCopies) {
        // Past the cap a copy is not followed, but it still makes its stage.
        I.Untracked[Call] = Copy->Api;
        return true;
      }
      if (std::optional<Place> At = placeOfPointer(Copy->Destination, I.FD)) {
        Copy->Buffer = At->Var;
        Copy->Indices = At->Indices;
        Copy->Leading = At->Indices.empty() ? nullptr : At->Indices.front();
      }
      if (Copy->PromisedAlignment > 1) {
        Copy->DestinationMisalignment = misalignment(
            Copy->Destination, Copy->PromisedAlignment, I.Ctx, I.FD);
        if (Copy->Source)
          Copy->SourceMisalignment = misalignment(
              Copy->Source, Copy->PromisedAlignment, I.Ctx, I.FD);
      }
      I.CopyIndex[Call] = static_cast<unsigned>(I.Copies.size());
      if (Copy->Buffer)
        I.Buffers.insert(Copy->Buffer);
      llvm::SmallVector<const Stmt *, 16> Work = {Copy->Destination};
      while (!Work.empty()) {
        const Stmt *S = Work.pop_back_val();
        if (!S)
          continue;
        I.InDestination.insert(S);
        for (const Stmt *Child : S->children())
          Work.push_back(Child);
      }
      I.Copies.push_back(std::move(*Copy));
      return true;
    }
  } Find(*this);
  Find.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  return !Copies.empty();
}

std::optional<std::pair<Region, bool>>
AsyncCopyAnalysis::Impl::accessAt(const DeclRefExpr *Ref,
                                  const Expr *&Whole) const {
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || InDestination.contains(Ref))
    return std::nullopt;
  Region R;
  if (Buffers.contains(Var)) {
    R.Buffer = Var;
  } else if (std::optional<Place> Target = aliasTarget(Var, FD, 0);
             Target && Target->Var && Buffers.contains(Target->Var)) {
    R.Buffer = Target->Var;
    R.Indices = Target->Indices;
    R.ThroughAlias = true;
  } else {
    return std::nullopt;
  }
  std::vector<const Expr *> Own;
  const Expr *E = Ref;
  bool Writes = false;
  while (true) {
    const Stmt *Parent = Parents->getParentIgnoreParens(E);
    const auto *PE = dyn_cast_or_null<Expr>(Parent);
    if (!PE)
      return std::nullopt;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(PE)) {
      // Loading a pointer variable is not an access to what it points to.
      if (Cast->getCastKind() == CK_LValueToRValue &&
          (E != Ref || !Var->getType()->isPointerType()))
        break;
      E = PE;
      continue;
    }
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(PE)) {
      if (Sub->getBase()->IgnoreParens() != E)
        return std::nullopt;
      Own.push_back(Sub->getIdx());
      E = PE;
      continue;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(PE)) {
      if (Member->isArrow())
        Own.push_back(nullptr);
      E = PE;
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(PE)) {
      if (U->getOpcode() == UO_Deref) {
        Own.push_back(nullptr);
        E = PE;
        continue;
      }
      if (U->isIncrementDecrementOp()) {
        Writes = true;
        break;
      }
      if (U->getOpcode() == UO_AddrOf) {
        E = PE;
        continue;
      }
      return std::nullopt;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(PE)) {
      if (B->isAssignmentOp() && B->getLHS()->IgnoreParens() == E) {
        Writes = true;
        break;
      }
      return std::nullopt;
    }
    if (const auto *Call = dyn_cast<CallExpr>(PE)) {
      // A pointer handed to a parameter that points to const is read
      // (wmma::load_matrix_sync, a copy's source); anything else is not
      // followed.
      if (CopyIndex.contains(Call))
        break; // a copy's source (its destination is not an access)
      if (isa<CXXOperatorCallExpr>(Call))
        return std::nullopt;
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return std::nullopt;
      for (unsigned A = 0; A < Call->getNumArgs(); ++A) {
        if (Call->getArg(A)->IgnoreParens() != E)
          continue;
        unsigned ParamIndex = A;
        if (ParamIndex >= Callee->getNumParams())
          return std::nullopt;
        QualType T = Callee->getParamDecl(ParamIndex)->getType();
        if ((T->isPointerType() || T->isReferenceType()) &&
            T->getPointeeType().isConstQualified())
          break;
        return std::nullopt;
      }
      break;
    }
    return std::nullopt;
  }
  Whole = E;
  for (const Expr *Index : Own)
    if (R.ThroughAlias && !R.Indices.empty())
      break;
    else
      R.Indices.push_back(Index);
  R.Leading = R.Indices.empty() ? nullptr : R.Indices.front();
  return std::make_pair(std::move(R), Writes);
}

bool AsyncCopyAnalysis::Impl::conflicts(const AsyncCopy &Copy,
                                        const Region &Access,
                                        bool Staged) const {
  if (!Copy.Buffer || Copy.Buffer != Access.Buffer)
    return false;
  std::optional<uint64_t> C =
      Copy.Leading ? constantOf(Copy.Leading, Ctx) : std::optional<uint64_t>(0);
  std::optional<uint64_t> A = Access.Leading ? constantOf(Access.Leading, Ctx)
                                             : std::optional<uint64_t>(0);
  // Constant places the copy provably misses: another row of a
  // multi-dimensional buffer (a copy no longer than a row), or an element
  // outside the copied bytes of a one-dimensional one.
  const ArrayType *Array = Ctx.getAsArrayType(Copy.Buffer->getType());
  bool Rows = Array && Array->getElementType()->isArrayType();
  bool Disjoint = false;
  QualType Element = Array ? Array->getElementType()
                           : Copy.Buffer->getType()->getPointeeType();
  if (C && A && Copy.Bytes && !Access.ThroughAlias && !Element.isNull() &&
      !Element->isIncompleteType() && !Element->isDependentType()) {
    uint64_t Size = Ctx.getTypeSizeInChars(Element).getQuantity();
    if (Rows)
      Disjoint = *Copy.Bytes <= Size && *C != *A;
    else
      Disjoint = *A * Size < *C * Size || *A * Size >= *C * Size + *Copy.Bytes;
  }
  if (!Staged)
    return !Disjoint;
  // A staged copy conflicts only where it provably lands: from the
  // buffer's start, the same constant row, or (one-dimensional) the very
  // element the access names.
  if (!Copy.Leading)
    return true;
  if (Rows)
    return C && A && *C == *A && Access.Leading;
  return sameSubscripts(Copy, Access);
}

bool AsyncCopyAnalysis::Impl::sameSubscripts(const AsyncCopy &Copy,
                                             const Region &Access) const {
  if (Access.ThroughAlias || Copy.Indices.size() > Access.Indices.size())
    return false;
  for (size_t I = 0; I < Copy.Indices.size(); ++I) {
    if (!Copy.Indices[I] || !Access.Indices[I])
      return false;
    llvm::FoldingSetNodeID L;
    llvm::FoldingSetNodeID R;
    Copy.Indices[I]->IgnoreParenImpCasts()->Profile(L, Ctx, true);
    Access.Indices[I]->IgnoreParenImpCasts()->Profile(R, Ctx, true);
    if (L != R)
      return false;
  }
  return !Copy.Indices.empty();
}

void AsyncCopyAnalysis::Impl::record(const Expr *Access, const Region &R,
                                     bool Writes, unsigned Copy,
                                     EarlyAccess::Reason Why,
                                     const CallExpr *Wait) {
  auto [It, New] = EarlyOf.try_emplace(Access, Early.size());
  if (!New) {
    // Keep the strongest reason, then the oldest copy.
    EarlyAccess &Old = Early[It->second];
    if (Why < Old.Why || (Why == Old.Why && Copy < Old.Copy)) {
      Old.Why = Why;
      Old.Copy = Copy;
      Old.Wait = Wait;
    }
    return;
  }
  Early.push_back({Access, R.Buffer, Writes, Copy, Why, Wait});
}

void AsyncCopyAnalysis::Impl::apply(const Stmt *Element, State &S,
                                    bool Record) {
  if (const auto *Call = dyn_cast<CallExpr>(Element)) {
    if (auto It = CopyIndex.find(Call); It != CopyIndex.end()) {
      CopySet Bit = static_cast<CopySet>(1) << It->second;
      const AsyncCopy &Copy = Copies[It->second];
      for (Queue &Q : S) {
        switch (Copy.Api) {
        case AsyncCopyApi::CooperativeGroups:
          // It commits what is open with it.
          push(Q, Q.Open | Bit);
          Q.Open = 0;
          break;
        case AsyncCopyApi::CudaBarrier:
          Q.BarrierTied |= Bit;
          break;
        case AsyncCopyApi::CudaPipeline:
        case AsyncCopyApi::Primitive:
          Q.Open |= Bit;
          break;
        }
      }
      return;
    }
    if (auto It = Untracked.find(Call); It != Untracked.end()) {
      if (It->second == AsyncCopyApi::CooperativeGroups)
        for (Queue &Q : S) {
          push(Q, Q.Open);
          Q.Open = 0;
        }
      return;
    }
    if (isAsyncCommit(Call)) {
      for (Queue &Q : S) {
        push(Q, Q.Open);
        Q.Open = 0;
      }
      return;
    }
    if (std::optional<AsyncWait> Wait = asAsyncWait(Call)) {
      State Next;
      for (Queue Q : S) {
        CopySet Completed = 0;
        switch (Wait->K) {
        case AsyncWait::All:
          for (const Stage &St : Q.Committed)
            Completed |= St.Copies;
          Q.Committed.clear();
          if (!Wait->ThreadScope) {
            // cg::wait: the whole group's copies, the uncommitted too.
            Completed |= Q.Open;
            Q.Open = 0;
          }
          break;
        case AsyncWait::KeepNewest:
          while (Q.Committed.size() > Wait->Keep) {
            Completed |= Q.Committed.front().Copies;
            Q.Committed.erase(Q.Committed.begin());
          }
          for (Stage &St : Q.Committed) {
            St.Staged = true;
            St.LeftBy = Call;
          }
          break;
        case AsyncWait::Oldest:
          if (!Q.Committed.empty()) {
            Completed |= Q.Committed.front().Copies;
            Q.Committed.erase(Q.Committed.begin());
          }
          for (Stage &St : Q.Committed) {
            St.Staged = true;
            St.LeftBy = Call;
          }
          break;
        case AsyncWait::Barrier:
          Q.BarrierTied = 0;
          break;
        }
        if (Wait->ThreadScope && Completed) {
          Q.DoneForThisThread |= Completed;
          Q.DoneBy = Call;
        }
        addQueue(Next, Q);
      }
      S = std::move(Next);
      return;
    }
    if (std::optional<BarrierCall> Barrier = asBarrierCall(Call);
        Barrier && Barrier->BarrierScope >= Scope::Block) {
      State Next;
      for (Queue Q : S) {
        Q.DoneForThisThread = 0;
        Q.DoneBy = nullptr;
        addQueue(Next, Q);
      }
      S = std::move(Next);
      return;
    }
    if (calleeWaits(Call->getDirectCallee())) {
      S.assign(1, Queue());
      return;
    }
    return;
  }
  // Accesses change nothing in flight: only the recording pass looks.
  const auto *Ref = dyn_cast<DeclRefExpr>(Element);
  if (!Ref || !Record)
    return;
  const Expr *Whole = nullptr;
  std::optional<std::pair<Region, bool>> Access = accessAt(Ref, Whole);
  if (!Access)
    return;
  const Region &R = Access->first;
  bool Writes = Access->second;
  for (const Queue &Q : S) {
    auto Each = [&](CopySet Set, auto Fn) {
      for (unsigned I = 0; Set; ++I, Set >>= 1)
        if (Set & 1)
          Fn(I);
    };
    for (const Stage &St : Q.Committed)
      Each(St.Copies, [&](unsigned I) {
        if (conflicts(Copies[I], R, St.Staged))
          record(Whole, R, Writes, I,
                 St.Staged ? EarlyAccess::LeftInFlight : EarlyAccess::NoWait,
                 St.LeftBy);
      });
    Each(Q.Open | Q.BarrierTied, [&](unsigned I) {
      if (conflicts(Copies[I], R, false))
        record(Whole, R, Writes, I, EarlyAccess::NoWait, nullptr);
    });
    Each(Q.DoneForThisThread, [&](unsigned I) {
      if (conflicts(Copies[I], R, false) && !sameSubscripts(Copies[I], R))
        record(Whole, R, Writes, I, EarlyAccess::OtherThreads, Q.DoneBy);
    });
  }
}

void AsyncCopyAnalysis::Impl::transfer(const CFGBlock *Block, State &S,
                                       bool Record) {
  for (const CFGElement &Element : *Block)
    if (std::optional<CFGStmt> Stmt = Element.getAs<CFGStmt>())
      apply(Stmt->getStmt(), S, Record);
}

void AsyncCopyAnalysis::Impl::run() {
  if (!FD || !FD->getBody() || FD->isDependentContext())
    return;
  if (!collect())
    return;
  const FunctionDivergence *D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  Cfg = D->cfg();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(FD->getBody()));

  unsigned N = Cfg->getNumBlockIDs();
  std::vector<std::optional<State>> In(N);
  In[Cfg->getEntry().getBlockID()] = State(1, Queue());
  // Blocks by falling ID: clang numbers a body's blocks from the exit up,
  // so this is close to program order. (A post-order walk of the CFG would
  // step into the null successor of an unreachable edge, as `for (;;)` has.)
  std::vector<const CFGBlock *> Order(Cfg->begin(), Cfg->end());
  llvm::sort(Order, [](const CFGBlock *L, const CFGBlock *R) {
    return L->getBlockID() > R->getBlockID();
  });
  bool Changed = true;
  for (unsigned Round = 0; Changed && Round < MaxRounds; ++Round) {
    Changed = false;
    for (const CFGBlock *Block : Order) {
      if (!In[Block->getBlockID()])
        continue;
      State S = *In[Block->getBlockID()];
      transfer(Block, S, false);
      for (const CFGBlock::AdjacentBlock &Succ : Block->succs()) {
        const CFGBlock *Next = Succ.getReachableBlock();
        if (!Next)
          continue;
        std::optional<State> &Into = In[Next->getBlockID()];
        if (!Into) {
          Into = S;
          Changed = true;
          continue;
        }
        State Before = *Into;
        for (const Queue &Q : S)
          addQueue(*Into, Q);
        if (!(*Into == Before))
          Changed = true;
      }
    }
  }
  for (const CFGBlock *Block : Order)
    if (In[Block->getBlockID()]) {
      State S = *In[Block->getBlockID()];
      transfer(Block, S, true);
    }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Early, [&](const EarlyAccess &L, const EarlyAccess &R) {
    return SM.isBeforeInTranslationUnit(L.Access->getBeginLoc(),
                                        R.Access->getBeginLoc());
  });
}

AsyncCopyAnalysis::AsyncCopyAnalysis(const FunctionDecl *FD, ASTContext &Ctx,
                                     FactQueries &Manager)
    : P(std::make_unique<Impl>(FD, Ctx, Manager)) {
  P->run();
}

AsyncCopyAnalysis::~AsyncCopyAnalysis() = default;

llvm::ArrayRef<AsyncCopy> AsyncCopyAnalysis::copies() const {
  return P->Copies;
}

llvm::ArrayRef<EarlyAccess> AsyncCopyAnalysis::earlyAccesses() const {
  return P->Early;
}

} // namespace clang::tidy::cuda::analysis
