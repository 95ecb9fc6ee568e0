//===--- AsyncCopiesCollect.cpp - the copies, commits and waits of a function ===//
//
// The collect phase of the asynchronous-copy analysis (AsyncCopiesImpl.h):
// the API model of the copies, commits and waits (cp.async, memcpy_async,
// cuda::pipeline, TMA), where a pointer points, and the copies of one
// function.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/protocols/AsyncCopiesImpl.h"
#include "checks/analysis/core/KernelWalk.h"

namespace clang::tidy::cuda::analysis {

using namespace asynccopy;

namespace asynccopy {

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

} // namespace asynccopy

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

bool AsyncCopyAnalysis::Impl::calleeWaits(const FunctionDecl *Callee) {
  return bodyReaches(Callee, CalleeWaits, [](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    return Call && asAsyncWait(Call);
  });
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

} // namespace clang::tidy::cuda::analysis
