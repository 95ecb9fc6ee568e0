//===--- AsyncCopiesCollect.cpp - the copies, commits and waits of a function ===//
//
// The collect phase of the asynchronous-copy analysis (AsyncCopiesImpl.h):
// the copies of one function (what the API says about each call is the API
// model's, api/CudaBuiltins.h), their sizes and promised alignments, and
// where a pointer points.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/protocols/AsyncCopiesImpl.h"
#include "checks/analysis/core/KernelWalk.h"

namespace clang::tidy::cuda::analysis {

using namespace asynccopy;

namespace asynccopy {

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

} // namespace asynccopy

std::optional<AsyncCopy> asAsyncCopy(const CallExpr *Call, ASTContext &Ctx) {
  std::optional<AsyncCopyCall> Api = asAsyncCopyCall(Call);
  if (!Api)
    return std::nullopt;
  AsyncCopy Copy;
  Copy.Call = Call;
  Copy.Api = Api->Api;
  Copy.ThreadScope = Api->ThreadScope;
  Copy.Spelling = Api->Spelling;
  Copy.Destination = Call->getArg(Api->DestinationArg);
  unsigned SourceArg = Api->SourceArg;
  if (SourceArg < Call->getNumArgs())
    Copy.Source = Call->getArg(SourceArg);
  // The size follows the source: size_t, or cuda::aligned_size_t<N>(n).
  unsigned SizeArg = SourceArg + 1;
  if (SizeArg < Call->getNumArgs()) {
    const Expr *Size = Call->getArg(SizeArg)->IgnoreImplicit();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Size))
      Size = Cast->getSubExpr()->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Size);
        Construct && Construct->getNumArgs() == 1)
      Size = Construct->getArg(0);
    if (Size->getType()->isIntegerType())
      Copy.Bytes = constantOf(Size, Ctx);
  }
  for (const Expr *Arg : Call->arguments())
    if (std::optional<unsigned> N = alignedSizeAlignment(Arg->getType()))
      Copy.PromisedAlignment = *N;
  return Copy;
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
