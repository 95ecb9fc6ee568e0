//===--- DivergenceExpressions.cpp - values of expressions ----------------===//
//
// The transfer functions of expressions: hardware indices, loads, casts,
// the lane arithmetic that makes `threadIdx.x / 32` warp-uniform, and calls
// (known intrinsics and cooperative-groups members, summaries of callees).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/api/ForwardingWrappers.h"
#include "checks/analysis/core/CompileErrors.h"
#include "checks/analysis/divergence/DivergenceSolver.h"
#include "checks/analysis/divergence/ReturnAlignment.h"

namespace clang::tidy::cuda::analysis {

using namespace divergence;

namespace divergence {

/// `threadIdx.y * blockDim.x` (+ `threadIdx.z * blockDim.x * blockDim.y`):
/// the row part of the linear thread index, which added to threadIdx.x gives
/// the index warps are cut from whatever the block's shape.
bool isRowOffset(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Add)
      return isRowOffset(Binary->getLHS()) && isRowOffset(Binary->getRHS());
    if (Binary->getOpcode() != BO_Mul)
      return false;
    llvm::SmallVector<const Expr *, 4> Factors;
    llvm::SmallVector<const Expr *, 4> Work = {Binary};
    while (!Work.empty()) {
      const Expr *F = Work.pop_back_val()->IgnoreParenImpCasts();
      if (const auto *Mul = dyn_cast<BinaryOperator>(F);
          Mul && Mul->getOpcode() == BO_Mul) {
        Work.push_back(Mul->getLHS());
        Work.push_back(Mul->getRHS());
      } else {
        Factors.push_back(F);
      }
    }
    unsigned RowIndices = 0;
    bool HasRowWidth = false;
    for (const Expr *F : Factors) {
      std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(F);
      if (!Read)
        return false;
      if (Read->Var == BuiltinIndexRead::ThreadIdx &&
          (Read->Component == 'y' || Read->Component == 'z'))
        ++RowIndices;
      else if (Read->Var == BuiltinIndexRead::BlockDim)
        HasRowWidth = HasRowWidth || Read->Component == 'x';
      else
        return false;
    }
    return RowIndices == 1 && HasRowWidth;
  }
  return false;
}

namespace {

/// The row part of an index as a sum of terms `coefficient * threadIdx.D`
/// (D = y or z), each coefficient a product of a constant and blockDim
/// components: `16 * threadIdx.y`, `4 * (threadIdx.y + 4 * threadIdx.z)`.
struct RowCoefficient {
  uint64_t Constant = 1;
  unsigned BlockDimX = 0, BlockDimY = 0;
};
struct RowTerms {
  std::optional<RowCoefficient> Y, Z;
  /// No thread index: a coefficient alone.
  bool isCoefficient() const { return !Y && !Z; }
  RowCoefficient Alone;
};

std::optional<RowTerms> rowTerms(const Expr *E, const ASTContext &Ctx,
                                 unsigned Depth = 0) {
  E = E->IgnoreParenImpCasts();
  if (Depth > 8)
    return std::nullopt;
  RowTerms T;
  if (std::optional<llvm::APSInt> C = constantInt(E, Ctx)) {
    if (C->isNegative() || C->getActiveBits() > 20)
      return std::nullopt;
    T.Alone.Constant = C->getZExtValue();
    return T;
  }
  if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E)) {
    if (Read->Var == BuiltinIndexRead::ThreadIdx && Read->Component == 'y')
      T.Y = RowCoefficient();
    else if (Read->Var == BuiltinIndexRead::ThreadIdx &&
             Read->Component == 'z')
      T.Z = RowCoefficient();
    else if (Read->Var == BuiltinIndexRead::BlockDim &&
             Read->Component == 'x')
      T.Alone.BlockDimX = 1;
    else if (Read->Var == BuiltinIndexRead::BlockDim &&
             Read->Component == 'y')
      T.Alone.BlockDimY = 1;
    else
      return std::nullopt;
    return T;
  }
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary || (Binary->getOpcode() != BO_Add &&
                  Binary->getOpcode() != BO_Mul))
    return std::nullopt;
  std::optional<RowTerms> L = rowTerms(Binary->getLHS(), Ctx, Depth + 1);
  std::optional<RowTerms> R = rowTerms(Binary->getRHS(), Ctx, Depth + 1);
  if (!L || !R)
    return std::nullopt;
  if (Binary->getOpcode() == BO_Add) {
    // Only sums of index terms; a constant or blockDim added is no row.
    if (L->isCoefficient() || R->isCoefficient() || (L->Y && R->Y) ||
        (L->Z && R->Z))
      return std::nullopt;
    RowTerms Sum;
    Sum.Y = L->Y ? L->Y : R->Y;
    Sum.Z = L->Z ? L->Z : R->Z;
    return Sum;
  }
  if (!L->isCoefficient() && !R->isCoefficient())
    return std::nullopt;
  const RowTerms &Factor = L->isCoefficient() ? *L : *R;
  RowTerms Product = L->isCoefficient() ? *R : *L;
  auto Scale = [&](RowCoefficient &C) {
    C.Constant *= Factor.Alone.Constant;
    C.BlockDimX += Factor.Alone.BlockDimX;
    C.BlockDimY += Factor.Alone.BlockDimY;
  };
  if (Product.isCoefficient()) {
    Scale(Product.Alone);
    if (Product.Alone.Constant > (static_cast<uint64_t>(1) << 20))
      return std::nullopt;
    return Product;
  }
  if (Product.Y)
    Scale(*Product.Y);
  if (Product.Z)
    Scale(*Product.Z);
  return Product;
}

/// \p C equals blockDim.x (\p Planes false) or blockDim.x * blockDim.y
/// (true), symbolically or through the extents every launch gives.
bool isRowWidth(const RowCoefficient &C, bool Planes,
                const std::array<BlockExtentFact, 3> &Extents) {
  const unsigned WantY = Planes ? 1 : 0;
  if (C.Constant == 1 && C.BlockDimX == 1 && C.BlockDimY == WantY)
    return true;
  const std::optional<uint64_t> &X = Extents[0].Exact;
  const std::optional<uint64_t> &Y = Extents[1].Exact;
  if (!X || C.BlockDimX > 1 || C.BlockDimY > 1)
    return false;
  // blockDim.y enters only through a plane's width or a coefficient.
  uint64_t Height = 1;
  if (Planes || C.BlockDimY) {
    if (!Y)
      return false;
    Height = *Y;
  }
  uint64_t Value =
      C.Constant * (C.BlockDimX ? *X : 1) * (C.BlockDimY ? Height : 1);
  return Value == *X * (Planes ? Height : 1);
}

} // namespace

bool isRowOffset(const Expr *E, const std::array<BlockExtentFact, 3> &Extents,
                 const ASTContext &Ctx) {
  if (isRowOffset(E))
    return true;
  std::optional<RowTerms> Terms = rowTerms(E, Ctx);
  if (!Terms || Terms->isCoefficient())
    return false;
  // threadIdx.z's term needs the plane width; without threadIdx.y in the
  // sum it is a row only in blocks one row high.
  if (Terms->Z && !Terms->Y)
    return false;
  return (!Terms->Y || isRowWidth(*Terms->Y, false, Extents)) &&
         (!Terms->Z || isRowWidth(*Terms->Z, true, Extents));
}

std::optional<llvm::APSInt> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  return E->getIntegerConstantExpr(Ctx);
}

unsigned alignOfConstant(const llvm::APSInt &V) {
  if (V == 0)
    return 63;
  return std::min<unsigned>(V.countr_zero(), 63);
}

} // namespace divergence

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Uniformity FunctionDivergence::Impl::valueOf(const Expr *E) {
  E = E->IgnoreParens();
  auto It = Values.find(E);
  auto Home = StmtBlock.find(E);
  bool ElsewhereInCfg = Home != StmtBlock.end() && Home->second != Current;
  if (It != Values.end() &&
      (It->second.Visit == VisitCounter || ElsewhereInCfg))
    return It->second.U;
  // Evaluated in another block that has not run yet: optimistic until it
  // does (the worklist comes back here when it changes).
  if (ElsewhereInCfg)
    return Uniformity();
  Uniformity U = evaluate(E);
  store(E, U);
  return Values[E].U;
}

void FunctionDivergence::Impl::store(const Expr *E, const Uniformity &U) {
  CachedValue &Slot = Values[E];
  if (Slot.Visit == 0) {
    Slot.U = U;
    ValuesChanged = true;
  } else {
    Uniformity Joined = Uniformity::join(Slot.U, U);
    if (!Joined.sameAs(Slot.U)) {
      Slot.U = Joined;
      ValuesChanged = true;
    }
  }
  Slot.Visit = VisitCounter;
}

Uniformity
FunctionDivergence::Impl::indexRead(const BuiltinIndexRead &Read,
                                    const Expr *Where) const {
  ValueOrigin Origin{OriginKind::HardwareIndex, Where};
  switch (Read.Var) {
  case BuiltinIndexRead::ThreadIdx:
    if (Read.Component == 'x') {
      Uniformity X = Uniformity::varying(Origin);
      // In blocks exactly 2^k wide, threadIdx.x is the linear index mod 2^k
      // (a function of the lane alone up to 32).
      std::optional<uint64_t> Width = Extents[0].Exact;
      if (Width && llvm::isPowerOf2_64(*Width) && *Width <= 1024) {
        unsigned Span = llvm::Log2_64(*Width);
        X.setLaneLinear(Level::grid(), 63, Span);
        if (Span <= 5)
          X.setLaneLevel(Level::grid());
        return X;
      }
      return X.setLaneLinear(Level::grid(), 63);
    }
    if (Read.Component == 'y' && RowsWarpAligned)
      return Uniformity::at(Level::warp(), Origin);
    if (Read.Component == 'z' && (RowsWarpAligned || PlanesWarpAligned))
      return Uniformity::at(Level::warp(), Origin);
    return Uniformity::varying(Origin);
  case BuiltinIndexRead::BlockIdx:
    return Uniformity::at(Level::block(), Origin);
  case BuiltinIndexRead::BlockDim: {
    // Launches use whole warps per row in practice; the lane arithmetic
    // relies on it (documented in docs/design/divergence.md), unless the
    // TU shows the width. y and z are as the launches make them.
    Uniformity U;
    unsigned Dim = Read.Component == 'x' ? 0 : Read.Component == 'y' ? 1 : 2;
    const BlockExtentFact &Extent = Extents[Dim];
    unsigned Known = Extent.Exact ? (*Extent.Exact ? llvm::countr_zero(
                                                         *Extent.Exact)
                                                   : 0)
                                  : llvm::countr_zero(Extent.Factor);
    if (Dim == 0 && !Extent.Exact)
      Known = std::max(Known, 5u);
    U.setKnownAlignLog2(Known);
    return U;
  }
  case BuiltinIndexRead::GridDim:
    return Uniformity();
  }
  return Uniformity();
}

Uniformity FunctionDivergence::Impl::loadThrough(Uniformity Address,
                                                 QualType Loaded) const {
  Uniformity Value = Address;
  Value.clearLaneLinear().setKnownAlignLog2(0);
  if (Address.mayPointToLocal()) {
    Uniformity Aliased = AllEscaped;
    Value.join(Aliased.setPointsToLocal(false));
  }
  bool StillPointer = !Loaded.isNull() && (Loaded->isPointerType() ||
                                           Loaded->isReferenceType());
  Value.setPointsToLocal(Address.mayPointToLocal() && StillPointer);
  return Value;
}

Uniformity FunctionDivergence::Impl::addressOf(const Expr *LValue) {
  const Expr *E = LValue->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return Uniformity();
    if (auto Slot = slotOf(Var)) {
      if (Var->getType()->isReferenceType())
        return readSlot(*Slot);
      // A local's address is the same number in every thread, but what it
      // points to is each thread's own.
      return Uniformity().setPointsToLocal(true);
    }
    if (CaptureSymbol.contains(Var))
      return readVariable(Var, E).setPointsToLocal(true);
    if (Var->hasAttr<CUDASharedAttr>())
      return Uniformity::at(Level::block(), {OriginKind::SharedMemory, E});
    if (auto Memory = MemoryReferenceAddress.find(Var);
        Memory != MemoryReferenceAddress.end())
      return Memory->second;
    return Uniformity();
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (Member->isArrow())
      return valueOf(Member->getBase());
    if (isa<VarDecl>(Member->getMemberDecl()))
      return Uniformity();
    return addressOf(Member->getBase());
  }
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return Uniformity::join(valueOf(Subscript->getBase()),
                            valueOf(Subscript->getIdx()))
        .clearLaneLinear();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_Deref)
      return valueOf(Unary->getSubExpr());
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
    if (Cast->getCastKind() == CK_NoOp ||
        Cast->getCastKind() == CK_DerivedToBase ||
        Cast->getCastKind() == CK_UncheckedDerivedToBase)
      return addressOf(Cast->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return valueOf(Temporary->getSubExpr());
  // Calls returning references and the like: as uniform as their value.
  return valueOf(E);
}

Uniformity FunctionDivergence::Impl::evaluate(const Expr *E) {
  if (isa<PseudoObjectExpr>(E) || isa<CallExpr>(E) || isa<DeclRefExpr>(E))
    if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
      return indexRead(*Read, E);

  if (const auto *Int = dyn_cast<IntegerLiteral>(E)) {
    Uniformity U;
    return U.setKnownAlignLog2(alignOfConstant(
        llvm::APSInt(Int->getValue(), /*isUnsigned=*/true)));
  }
  if (isa<CharacterLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<StringLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
      isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E) ||
      isa<UnaryExprOrTypeTraitExpr>(E) || isa<OffsetOfExpr>(E) ||
      isa<SizeOfPackExpr>(E) || isa<TypeTraitExpr>(E) ||
      isa<CXXNoexceptExpr>(E) || isa<CXXScalarValueInitExpr>(E) ||
      isa<ImplicitValueInitExpr>(E) || isa<LambdaExpr>(E) ||
      isa<SourceLocExpr>(E) || isa<CXXTypeidExpr>(E) ||
      isa<ArrayTypeTraitExpr>(E) || isa<ExpressionTraitExpr>(E))
    return Uniformity();
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return valueOf(Subst->getReplacement());
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return valueOf(Full->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return valueOf(Temporary->getSubExpr());
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return valueOf(Bind->getSubExpr());
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return valueOf(Default->getExpr());
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return valueOf(Default->getExpr());
  if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(E))
    return Opaque->getSourceExpr() ? valueOf(Opaque->getSourceExpr())
                                   : Uniformity();
  if (const auto *Pseudo = dyn_cast<PseudoObjectExpr>(E)) {
    if (const Expr *Result = Pseudo->getResultExpr())
      return valueOf(Result);
    Uniformity U;
    for (const Expr *Semantic : Pseudo->semantics())
      U.join(valueOf(Semantic));
    return U.clearLaneLinear();
  }

  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return readVariable(Var, E);
    if (const auto *Enum = dyn_cast<EnumConstantDecl>(Ref->getDecl())) {
      Uniformity U;
      return U.setKnownAlignLog2(alignOfConstant(Enum->getInitVal()));
    }
    return Uniformity();
  }
  if (isa<CXXThisExpr>(E))
    return Uniformity::symbol(Uniformity::ThisSymbol);

  // A part of a local aggregate with no slot of its own (an element, a
  // field of an escaped object, what an accessor returns): the whole
  // object's value (any field may be the one read) joined with the
  // subscripts that choose the part.
  auto ReadPartOfLocal = [&](const Expr *Part) -> std::optional<Uniformity> {
    llvm::SmallVector<const Expr *, 2> Indices;
    const VarDecl *Root = rootVariable(Part, &Indices, Mgr);
    if (!Root || !slotOf(Root))
      return std::nullopt;
    Uniformity U = readVariable(Root, Part);
    for (const Expr *Index : Indices)
      U.join(valueOf(Index));
    return U.clearLaneLinear().setKnownAlignLog2(0);
  };
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Member->getMemberDecl()))
      return readVariable(Var, E);
    if (!isa<FieldDecl>(Member->getMemberDecl()))
      return Uniformity();
    llvm::SmallVector<const Expr *, 2> Indices;
    bool Exact = false;
    if (auto Field = fieldSlotOf(E, &Indices, &Exact)) {
      // A field of its own: read like a variable (`p.y`), keeping what is
      // known of it; a part of one joins the subscripts.
      Uniformity U = (*Live)[*Field];
      if (Exact)
        return U;
      for (const Expr *Index : Indices)
        U.join(valueOf(Index));
      return U.clearLaneLinear().setKnownAlignLog2(0);
    }
    if (std::optional<Uniformity> Part = ReadPartOfLocal(E))
      return *Part;
    if (!Member->isArrow())
      return Uniformity(valueOf(Member->getBase()))
          .clearLaneLinear()
          .setKnownAlignLog2(0);
    return loadThrough(addressOf(E), E->getType());
  }
  if (isa<ArraySubscriptExpr>(E)) {
    llvm::SmallVector<const Expr *, 2> Indices;
    if (auto Field = fieldSlotOf(E, &Indices, nullptr)) {
      Uniformity U = (*Live)[*Field];
      for (const Expr *Index : Indices)
        U.join(valueOf(Index));
      return U.clearLaneLinear().setKnownAlignLog2(0);
    }
    if (std::optional<Uniformity> Part = ReadPartOfLocal(E))
      return *Part;
    return loadThrough(addressOf(E), E->getType());
  }

  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    switch (Unary->getOpcode()) {
    case UO_Deref:
      return loadThrough(valueOf(Unary->getSubExpr()), E->getType());
    case UO_AddrOf:
      return addressOf(Unary->getSubExpr());
    case UO_Plus:
      return valueOf(Unary->getSubExpr());
    default:
      return Uniformity(valueOf(Unary->getSubExpr()))
          .clearLaneLinear()
          .setKnownAlignLog2(0);
    }
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return evaluateCast(Cast);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return evaluateBinary(Binary);
  if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E)) {
    // Threads that disagree on the condition pick different arms.
    Uniformity U = valueOf(Conditional->getCond());
    U.join(valueOf(Conditional->getTrueExpr()));
    U.join(valueOf(Conditional->getFalseExpr()));
    return U.clearLaneLinear().setKnownAlignLog2(0);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evaluateCall(Call);
  if (isa<AtomicExpr>(E))
    return Uniformity::varying({OriginKind::AtomicResult, E});
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    Uniformity U;
    for (const Expr *Arg : Construct->arguments())
      U.join(valueOf(Arg));
    // What the constructor leaves in the fields, when its summary says
    // (`lane_(threadIdx.x % 32)` makes the object per-lane whatever the
    // arguments are).
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (const CallSummary *Summary =
            Ctor && Mgr && !Ctor->isDependentContext() ? Mgr->summary(Ctor)
                                                       : nullptr;
        Summary && !Summary->Conservative && Summary->ThisFieldsKept) {
      auto SymbolValue = [&](unsigned Symbol) -> Uniformity {
        if (Symbol < Construct->getNumArgs() &&
            Symbol < Uniformity::FirstCaptureSymbol)
          return argumentValue(Construct->getArg(Symbol));
        return Uniformity();
      };
      for (const std::optional<Uniformity> &Exit : Summary->ThisFieldExit)
        if (Exit)
          U.join(Exit->resolve(SymbolValue));
    }
    return U.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
  }
  if (const auto *Init = dyn_cast<InitListExpr>(E)) {
    // A scalar list-initialized from one value (`index_type{threadIdx.x}`,
    // which may not narrow) is that value, its arithmetic facts included.
    if (Init->getType()->isScalarType() && Init->getNumInits() == 1 &&
        Init->getInit(0))
      return valueOf(Init->getInit(0));
    Uniformity U;
    for (const Expr *Element : Init->inits())
      if (Element)
        U.join(valueOf(Element));
    return U.clearLaneLinear().setKnownAlignLog2(0);
  }
  if (const auto *StmtE = dyn_cast<StmtExpr>(E)) {
    const CompoundStmt *Body = StmtE->getSubStmt();
    if (!Body->body_empty())
      if (const auto *Last = dyn_cast<Expr>(Body->body_back()))
        return valueOf(Last);
    return Uniformity();
  }
  // Anything else: as uniform as its operands.
  Uniformity U;
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      U.join(valueOf(ChildExpr));
  return U.clearLaneLinear().setKnownAlignLog2(0);
}

Uniformity FunctionDivergence::Impl::evaluateCast(const CastExpr *Cast) {
  const Expr *Sub = Cast->getSubExpr();
  switch (Cast->getCastKind()) {
  case CK_LValueToRValue:
    // A volatile read outside shared memory is how code watches what other
    // blocks (or the host) write while it runs: the threads of a block may
    // each see a different value. A volatile __shared__ variable is only
    // written by the block itself, and is read like any other.
    if (Sub->getType().isVolatileQualified() && !isSharedVariableAccess(Sub))
      return Uniformity::varying({OriginKind::VolatileLoad, Cast});
    return valueOf(Sub);
  case CK_ArrayToPointerDecay:
    return addressOf(Sub);
  case CK_FunctionToPointerDecay:
  case CK_BuiltinFnToFnPtr:
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    return Uniformity();
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_LValueToRValueBitCast:
    return valueOf(Sub);
  default:
    return Uniformity(valueOf(Sub)).clearLaneLinear().setKnownAlignLog2(0);
  }
}

Uniformity FunctionDivergence::Impl::evaluateBinary(const BinaryOperator *B) {
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_Assign)
    return valueOf(B->getRHS());
  if (Op == BO_Comma)
    return valueOf(B->getRHS());
  if (Op == BO_LAnd || Op == BO_LOr)
    return Uniformity::join(valueOf(B->getLHS()), valueOf(B->getRHS()))
        .clearLaneLinear()
        .setKnownAlignLog2(0);
  if (B->isCompoundAssignmentOp())
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  return arithmetic(Op, B->getLHS(), B->getRHS(), valueOf(B->getLHS()),
                    valueOf(B->getRHS()));
}

/// thread_rank() of a thread_block is the block's linear thread index (what
/// warps are cut from); of a thread_block_tile<N>, that index modulo N. Both
/// are lane-linear, like threadIdx.x and threadIdx.x % N, so that
/// `tile.thread_rank() < 16` is uniform within tiles of 16 and
/// `block.thread_rank() / 32` is the warp index. Returns the level and the
/// alignment of the offset, as setLaneLinear() takes them. (Added for the
/// warp-scope checks: cuda-full-warp-mask, cuda-divergent-group-creation,
/// tile collectives in cuda-divergent-barrier.)
///
/// A grid_group's thread_rank() is the block's rank times the block size
/// plus the thread's rank in the block: lane-linear with a block-uniform
/// offset, which is a multiple of 32 when the block size is, that is when
/// the TU shows blocks whole warps wide (\p RowsWarpAligned). So a
/// grid-stride loop `for (i = grid.thread_rank(); i < n; i += grid.size())`
/// has one trip count per warp when n is a multiple of 32 (cuda-samples
/// binaryPartitionCG).
static std::optional<std::pair<Level, unsigned>>
rankLaneLinearity(const CallExpr *Call, bool RowsWarpAligned) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getName() != "thread_rank")
    return std::nullopt;
  std::optional<GroupOperand> Group = groupOperandOf(Call);
  if (!Group)
    return std::nullopt;
  if (Group->Kind == GroupKind::ThreadBlock)
    return std::make_pair(Level::grid(), 63u);
  if (Group->Kind == GroupKind::GridGroup && RowsWarpAligned)
    return std::make_pair(Level::block(), 5u);
  if (Group->Kind == GroupKind::Tile && Group->TileSize)
    if (std::optional<Level> Tile = Level::tile(*Group->TileSize))
      return std::make_pair(*Tile, Tile->tileLog2Value());
  return std::nullopt;
}

/// The known alignment of a group's size: a thread_block's or grid_group's
/// size() / num_threads() is a multiple of 32 when the TU shows blocks whole
/// warps wide; a thread_block_tile<N>'s is N. 0 for anything else.
static unsigned groupSizeAlignLog2(const CallExpr *Call,
                                   bool RowsWarpAligned) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() ||
      (FD->getName() != "size" && FD->getName() != "num_threads"))
    return 0;
  std::optional<GroupOperand> Group = groupOperandOf(Call);
  if (!Group)
    return 0;
  if ((Group->Kind == GroupKind::ThreadBlock ||
       Group->Kind == GroupKind::GridGroup) &&
      RowsWarpAligned)
    return 5;
  if (Group->Kind == GroupKind::Tile && Group->TileSize &&
      llvm::isPowerOf2_32(*Group->TileSize))
    return llvm::Log2_32(*Group->TileSize);
  return 0;
}

/// A lane-linear index compared with a bound: `tid < C` with C a multiple
/// of 2^k (and the index's offset one too) gives the same answer to every
/// thread of an aligned tile of 2^k threads, since such a tile lies wholly
/// below or wholly at or above C. So `threadIdx.x < 32` is warp-uniform and
/// `threadIdx.x < 16` is not. `<=` and `>` need C + 1 to be the multiple,
/// which only a constant bound tells. Anything else: \p Joined, unchanged.
/// (Added for the warp-scope checks: cuda-full-warp-mask,
/// cuda-divergent-group-creation.)
static Uniformity laneBoundComparison(BinaryOperatorKind Op, const Expr *LHS,
                                      const Expr *RHS, const Uniformity &L,
                                      const Uniformity &R, Uniformity Joined,
                                      const ASTContext &Ctx) {
  Joined.setKnownAlignLog2(0);
  if (L.isScaledLaneLinear() == R.isScaledLaneLinear())
    return Joined;
  bool LaneOnLeft = L.isScaledLaneLinear();
  const Uniformity &Lane = LaneOnLeft ? L : R;
  const Uniformity &Bound = LaneOnLeft ? R : L;
  const Expr *BoundExpr = LaneOnLeft ? RHS : LHS;
  // As `Lane op Bound`.
  if (!LaneOnLeft)
    Op = Op == BO_LT   ? BO_GT
         : Op == BO_GT ? BO_LT
         : Op == BO_LE ? BO_GE
                       : BO_LE;
  unsigned BoundAlign;
  if (Op == BO_LT || Op == BO_GE) {
    BoundAlign = Bound.knownAlignLog2();
  } else {
    std::optional<llvm::APSInt> C = constantInt(BoundExpr, Ctx);
    if (!C)
      return Joined;
    llvm::APSInt Next = C->extend(C->getBitWidth() + 1);
    ++Next;
    BoundAlign = alignOfConstant(Next);
  }
  // `2^s * lane + U op B` with U and B multiples of 2^(s + t) is decided by
  // the multiples alone in every aligned tile of 2^t lanes.
  unsigned Aligned = std::min(BoundAlign, Lane.laneOffsetAlignLog2());
  if (Aligned < Lane.laneScaleLog2())
    return Joined;
  // The lane term has a period (tid % 2^s, threadIdx.x of a block 2^s
  // wide) that the multiples cover: every thread gets U's answer.
  if (Lane.laneSpanLog2() < 63 &&
      Aligned >= Lane.laneScaleLog2() + Lane.laneSpanLog2()) {
    Level Shared = std::min(Lane.laneOffsetLevel(), Bound.level());
    if (Shared <= Joined.level())
      return Joined;
    Uniformity Result = Uniformity::at(Shared, Lane.origin());
    Result.addSymbols(L.symbols() | R.symbols());
    return Result;
  }
  unsigned TileLog2 =
      std::min(Aligned - Lane.laneScaleLog2(),
               static_cast<unsigned>(Level::MaxTileLog2));
  Level Shared = std::min({Level::tileLog2(TileLog2), Lane.laneOffsetLevel(),
                           Bound.level()});
  if (Shared <= Joined.level())
    return Joined;
  Uniformity Result = Uniformity::at(Shared, Lane.origin());
  Result.addSymbols(L.symbols() | R.symbols());
  return Result;
}

/// Operators join their operands; the lane arithmetic below is what makes
/// `threadIdx.x / 32` warp-uniform and `threadIdx.x % 32` a lane index.
Uniformity FunctionDivergence::Impl::arithmetic(BinaryOperatorKind Op,
                                                const Expr *LHS,
                                                const Expr *RHS, Uniformity L,
                                                const Uniformity &R) const {
  Uniformity Result = Uniformity::join(L, R);
  Result.clearLaneLinear().setPointsToLocal(L.mayPointToLocal() ||
                                            R.mayPointToLocal());
  std::optional<llvm::APSInt> RConst = constantInt(RHS, Ctx);

  switch (Op) {
  case BO_Add:
  case BO_Sub: {
    Result.setKnownAlignLog2(
        std::min(L.knownAlignLog2(), R.knownAlignLog2()));
    const Uniformity *Lane = nullptr;
    const Uniformity *Offset = nullptr;
    const Expr *OffsetExpr = nullptr;
    if (L.isScaledLaneLinear() && !R.isScaledLaneLinear()) {
      Lane = &L;
      Offset = &R;
      OffsetExpr = RHS;
    } else if (Op == BO_Add && R.isScaledLaneLinear() &&
               !L.isScaledLaneLinear()) {
      Lane = &R;
      Offset = &L;
      OffsetExpr = LHS;
    }
    const bool OneDimensional =
        Extents[1].Exact == 1u && Extents[2].Exact == 1u;
    // In a 1-D block 2^k threads wide every thread's index is below 2^k:
    // a period of 2^k or more is no period (threadIdx.x, whose period is
    // the width, and thread_rank() are the same value there).
    auto SamePeriod = [&](unsigned A, unsigned B) {
      std::optional<uint64_t> Width = Extents[0].Exact;
      if (OneDimensional && Width && llvm::isPowerOf2_64(*Width)) {
        const unsigned K = llvm::Log2_64(*Width);
        return std::min(A, K) == std::min(B, K);
      }
      return A == B;
    };
    // Two lane forms whose lane terms cancel: the difference of their
    // offsets, as uniform and as aligned as both.
    auto OffsetsDifference = [&] {
      Uniformity Difference = Uniformity::at(
          std::min(L.laneOffsetLevel(), R.laneOffsetLevel()), L.origin());
      Difference.addSymbols(L.symbols() | R.symbols());
      Difference.setKnownAlignLog2(
          std::min(L.laneOffsetAlignLog2(), R.laneOffsetAlignLog2()));
      return Difference.setPointsToLocal(Result.mayPointToLocal());
    };
    const bool LLane = L.isScaledLaneLinear() || L.isLaneQuotient();
    const bool RLane = R.isScaledLaneLinear() || R.isLaneQuotient();
    if (Op == BO_Sub && OneDimensional && L.isLaneQuotient() &&
        R.isLaneQuotient() && L.laneShiftLog2() == R.laneShiftLog2() &&
        SamePeriod(L.laneSpanLog2(), R.laneSpanLog2())) {
      // (lane / 2^k + U) - (lane / 2^k + V) = U - V (cuCollections'
      // `idx - thread_rank / CGSize`, idx the global index / CGSize).
      return OffsetsDifference();
    }
    if ((L.isLaneQuotient() && !RLane) ||
        (Op == BO_Add && R.isLaneQuotient() && !LLane)) {
      // A quotient plus a value that is not a lane form: still a quotient,
      // its offset as uniform and as aligned as both (`idx += stride`).
      const Uniformity &Quotient = L.isLaneQuotient() ? L : R;
      const Uniformity &Offset = L.isLaneQuotient() ? R : L;
      return Result.setLaneQuotient(
          std::min(Quotient.laneOffsetLevel(), Offset.level()),
          std::min(Quotient.laneOffsetAlignLog2(), Offset.knownAlignLog2()),
          Quotient.laneShiftLog2(), Quotient.laneSpanLog2());
    }
    if (!Lane && Op == BO_Sub && L.isScaledLaneLinear() &&
        R.isScaledLaneLinear() && L.laneScaleLog2() == R.laneScaleLog2() &&
        SamePeriod(L.laneSpanLog2(), R.laneSpanLog2()) && OneDimensional) {
      // (2^s lane + U) - (2^s lane + V), the lane term with the same period
      // on both sides: U - V, the thread's own index gone (cuCollections'
      // `idx - thread_rank` with idx = threadIdx.x + blockDim.x * blockIdx.x,
      // the block's first index). Only in blocks known to be 1-D: elsewhere
      // threadIdx.x stands in for the linear index only as far as warp
      // tiles go, and `linear - threadIdx.x` is a row's offset, not uniform.
      return OffsetsDifference();
    }
    if (!Lane && Op == BO_Sub && L.isScaledLaneLinear() &&
        R.isScaledLaneLinear() && L.laneScaleLog2() == R.laneScaleLog2() &&
        R.laneSpanLog2() <= L.laneSpanLog2() &&
        R.laneSpanLog2() <= Level::MaxTileLog2) {
      // (2^s lane + U) - (2^s (lane mod 2^k) + V): the lane rounded down to
      // a multiple of 2^k, the same in every aligned tile of 2^k threads
      // (`tid - lane_id`, the first thread of the warp).
      const unsigned K = R.laneSpanLog2();
      Level Shared = std::min({Level::tileLog2(K), L.laneOffsetLevel(),
                               R.laneOffsetLevel()});
      Uniformity Base = Uniformity::at(Shared, L.origin());
      Base.addSymbols(L.symbols() | R.symbols());
      Base.setKnownAlignLog2(std::min({L.laneScaleLog2() + K,
                                       L.laneOffsetAlignLog2(),
                                       R.laneOffsetAlignLog2()}));
      return Base;
    }
    if (Lane) {
      // threadIdx.x + the row part of the index is the linear index itself,
      // whatever threadIdx.x's own period.
      if (isRowOffset(OffsetExpr, Extents, Ctx) &&
          Lane->laneScaleLog2() == 0)
        Result.setLaneLinear(Lane->laneOffsetLevel(),
                             Lane->laneOffsetAlignLog2());
      else
        Result.setScaledLaneLinear(
            std::min(Lane->laneOffsetLevel(), Offset->level()),
            std::min(Lane->laneOffsetAlignLog2(), Offset->knownAlignLog2()),
            Lane->laneScaleLog2(), Lane->laneSpanLog2());
    }
    return Result;
  }
  case BO_Mul: {
    Result.setKnownAlignLog2(L.knownAlignLog2() + R.knownAlignLog2());
    // (lane + U) * 2^k: still lane-linear, the lane scaled by 2^k
    // (ggml's `i0 = (blockDim.x*blockIdx.y + threadIdx.x)*4`).
    std::optional<llvm::APSInt> LConst = constantInt(LHS, Ctx);
    const Uniformity *Lane = L.isScaledLaneLinear() ? &L
                             : R.isScaledLaneLinear() ? &R
                                                      : nullptr;
    std::optional<llvm::APSInt> &Factor = Lane == &L ? RConst : LConst;
    if (Lane && Factor && Factor->isStrictlyPositive() &&
        Factor->getActiveBits() <= 32 &&
        llvm::isPowerOf2_64(Factor->getZExtValue())) {
      unsigned K = llvm::Log2_64(Factor->getZExtValue());
      Result.setScaledLaneLinear(Lane->laneOffsetLevel(),
                                 Lane->laneOffsetAlignLog2() + K,
                                 Lane->laneScaleLog2() + K,
                                 Lane->laneSpanLog2());
    }
    return Result;
  }
  case BO_Shl:
    if (RConst && RConst->isNonNegative()) {
      auto K = static_cast<unsigned>(RConst->getZExtValue());
      Result.setKnownAlignLog2(L.knownAlignLog2() + K);
      if (L.isScaledLaneLinear() && K < 32)
        Result.setScaledLaneLinear(L.laneOffsetLevel(),
                                   L.laneOffsetAlignLog2() + K,
                                   L.laneScaleLog2() + K, L.laneSpanLog2());
    }
    return Result;
  case BO_Div:
  case BO_Shr: {
    // `x / 1` and `x >> 0` are x, whatever x is: a template's `tid / CGSize`
    // instantiated with CGSize = 1 keeps its lane form.
    if (RConst && (Op == BO_Div ? RConst->isOne() : RConst->isZero()))
      return L.setPointsToLocal(Result.mayPointToLocal());
    if (!RConst || !L.isLaneLinear() || RConst->isNegative())
      return Result.setKnownAlignLog2(0);
    unsigned Log2;
    if (Op == BO_Shr) {
      Log2 = static_cast<unsigned>(RConst->getZExtValue());
    } else {
      uint64_t Divisor = RConst->getZExtValue();
      if (!llvm::isPowerOf2_64(Divisor))
        return Result.setKnownAlignLog2(0);
      Log2 = llvm::Log2_64(Divisor);
    }
    // (tid mod 2^s + U) / 2^k with s <= k and U a multiple of 2^k (or of
    // 2^a >= 2^s, when no multiple of 2^k lies between U and U + 2^s): U's
    // quotient, as uniform as U.
    if (L.laneSpanLog2() <= std::min(Log2, L.laneOffsetAlignLog2())) {
      Uniformity Quotient = Uniformity::at(L.laneOffsetLevel(), L.origin());
      Quotient.addSymbols(L.symbols() | R.symbols());
      return Quotient;
    }
    // (L + U) / 2^k with U a multiple of 2^a: the same for every thread of
    // an aligned tile of 2^min(k, a) threads, and no wider than U itself.
    unsigned TileLog2 = std::min({Log2, L.laneOffsetAlignLog2(),
                                  static_cast<unsigned>(Level::MaxTileLog2)});
    Level Shared = std::min(Level::tileLog2(TileLog2), L.laneOffsetLevel());
    Uniformity Quotient = Uniformity::at(Shared, L.origin());
    Quotient.addSymbols(L.symbols() | R.symbols());
    // With U a multiple of 2^k, (lane + U) / 2^k is lane / 2^k + U / 2^k:
    // the thread's term is the same for any such U, so two quotients of the
    // same lane differ by a uniform amount.
    if (Log2 > 0 && Log2 <= L.laneOffsetAlignLog2() && Log2 < 63)
      Quotient.setLaneQuotient(L.laneOffsetLevel(),
                               L.laneOffsetAlignLog2() - Log2, Log2,
                               L.laneSpanLog2());
    return Quotient;
  }
  case BO_Rem:
  case BO_And: {
    Result.setKnownAlignLog2(0);
    if (Op == BO_And && RConst && L.isScaledLaneLinear()) {
      // (2^s lane + U) & ~(2^k - 1) with s <= k and U a multiple of 2^k:
      // U + 2^s (lane rounded down to a multiple of 2^(k - s)), the same in
      // every aligned tile of 2^(k - s) threads (`tid & ~31`).
      llvm::APInt Low = ~*RConst;
      if (!Low.isZero() && !Low.isAllOnes() && (Low + 1).isPowerOf2()) {
        const unsigned K = (Low + 1).logBase2();
        if (K >= L.laneScaleLog2() && K <= L.laneOffsetAlignLog2() &&
            K - L.laneScaleLog2() <= L.laneSpanLog2()) {
          const unsigned Tile = std::min<unsigned>(K - L.laneScaleLog2(),
                                                   Level::MaxTileLog2);
          Uniformity Base = Uniformity::at(
              std::min(Level::tileLog2(Tile), L.laneOffsetLevel()),
              L.origin());
          Base.addSymbols(L.symbols() | R.symbols());
          Base.setKnownAlignLog2(K);
          return Base;
        }
      }
    }
    if (!RConst || !L.isLaneLinear() || RConst->isNegative())
      return Result;
    uint64_t Value = RConst->getZExtValue();
    uint64_t Modulus = Op == BO_Rem ? Value : Value + 1;
    if (!llvm::isPowerOf2_64(Modulus))
      return Result;
    unsigned Log2 = llvm::Log2_64(Modulus);
    // (L + U) mod 2^k = L mod 2^k when U is a multiple of 2^k: consecutive
    // across each aligned tile of 2^k, with a period of 2^k.
    if (Log2 > L.laneOffsetAlignLog2() || Log2 > Level::MaxTileLog2)
      return Result;
    // With the period recorded, the offset is gone: tid mod 2^k exactly.
    unsigned Span = std::min(Log2, L.laneSpanLog2());
    Result.setLaneLinear(Level::grid(), 63, Span);
    // Up to a warp's 32, it is a function of the lane alone: the same at the
    // same lane of every warp (`tid % WARP_SIZE`).
    if (Span <= 5)
      Result.setLaneLevel(Level::grid());
    return Result;
  }
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE:
    return laneBoundComparison(Op, LHS, RHS, L, R, Result, Ctx);
  default:
    return Result.setKnownAlignLog2(0);
  }
}

Uniformity FunctionDivergence::Impl::argumentValue(const Expr *Arg) {
  Uniformity V = valueOf(Arg);
  if (V.mayPointToLocal()) {
    Uniformity Aliased = AllEscaped;
    V.join(Aliased.setPointsToLocal(false));
  }
  return V;
}

Uniformity FunctionDivergence::Impl::evaluateCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();

  // The object and the arguments as the callee's parameters see them.
  const Expr *Object = nullptr;
  llvm::SmallVector<const Expr *, 4> Args;
  unsigned FirstArg = 0;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    Object = Member->getImplicitObjectArgument();
  } else if (isa<CXXOperatorCallExpr>(Call)) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Method && !Method->isStatic() && Call->getNumArgs() > 0) {
      Object = Call->getArg(0);
      FirstArg = 1;
    }
  }
  for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I)
    Args.push_back(Call->getArg(I));

  auto JoinOperands = [&] {
    Uniformity U;
    for (const Expr *Arg : Args)
      U.join(argumentValue(Arg));
    if (Object)
      U.join(valueOf(Object));
    if (!Callee)
      U.join(valueOf(Call->getCallee()));
    return U.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
  };

  // The callee's summary put its stores to the object's fields into their
  // slots here (below): the object takes no other store.
  bool ObjectWrittenByFields = false;
  // Locals the call may write: by writable reference or pointer, or the
  // object of a non-const member function.
  // \p ReferenceExit, when it knows, gives what the callee leaves in the
  // variable bound to its reference parameter I (resolved at this call).
  auto ApplyStores = [&](const Uniformity &Stored,
                         llvm::function_ref<std::optional<Uniformity>(unsigned)>
                             ReferenceExit = nullptr) {
    Uniformity AnyStore = Stored;
    AnyStore.clearLaneLinear().setPointsToLocal(false);
    for (unsigned I = 0; I < Args.size(); ++I) {
      Uniformity V = AnyStore;
      QualType ParamType =
          Callee && I < Callee->getNumParams()
              ? Callee->getParamDecl(I)->getType()
              : Args[I]->getType();
      if (!isWritableIndirection(ParamType))
        continue;
      if (ParamType->isReferenceType() && Callee &&
          I < Callee->getNumParams() &&
          !callMayWriteReferenceParameter(Mgr, Callee, I))
        continue;
      if (ParamType->isReferenceType() && ReferenceExit)
        if (std::optional<Uniformity> Exit = ReferenceExit(I))
          V = Exit->clearLaneLinear().setPointsToLocal(false);
      const VarDecl *Root = ParamType->isReferenceType()
                                ? rootVariable(Args[I], nullptr, Mgr)
                                : addressedVariable(Args[I], Mgr);
      // A reference of this function handed on: what the callee leaves in
      // it is what this function's referee holds afterwards.
      if (!Root && ParamType->isReferenceType())
        Root = referenceVariableOf(Args[I]);
      if (!Root && ParamType->isPointerType()) {
        const Expr *Stripped = Args[I]->IgnoreParenImpCasts();
        const auto *Decay =
            dyn_cast<ImplicitCastExpr>(Args[I]->IgnoreParens());
        if (Decay && Decay->getCastKind() != CK_ArrayToPointerDecay)
          Decay = nullptr;
        // An array of `*this` (`merge(val_arr_, idx_arr_)`): part of the
        // field may now hold what the callee stored.
        if (auto Field = Decay ? fieldSlotOf(Decay->getSubExpr(), nullptr,
                                             nullptr)
                               : std::nullopt) {
          Live->mutableAt(*Field).join(V);
          continue;
        }
        if (Decay)
          Root = rootVariable(Decay->getSubExpr(), nullptr, Mgr);
        else if (valueOf(Stripped).mayPointToLocal())
          for (unsigned Slot = 0; Slot < Vars.size(); ++Slot)
            if (Escaped.test(Slot))
              escapedJoin(Slot, V);
      }
      if (auto Slot = Root ? slotOf(Root) : std::nullopt) {
        if (Escaped.test(*Slot))
          escapedJoin(*Slot, V);
        else
          Live->mutableAt(*Slot).join(V);
      }
    }
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Object && Method && !ObjectWrittenByFields &&
        callMayWriteObject(Mgr, Method))
      if (const VarDecl *Root = rootVariable(Object, nullptr, Mgr))
        if (auto Slot = slotOf(Root)) {
          if (Escaped.test(*Slot))
            escapedJoin(*Slot, AnyStore);
          else
            Live->mutableAt(*Slot).join(AnyStore);
        }
  };

  // A one-line helper around a modelled call (a shuffle whose width and
  // mask are defaulted parameters): the call it makes, with this call's
  // arguments (ForwardingWrappers.h).
  std::optional<ResultModel> Model =
      Callee ? knownResultModel(Call, RowsWarpAligned) : std::nullopt;
  std::optional<ForwardedCall> Forwarded =
      Callee && !Model ? forwardedResultModel(Call, RowsWarpAligned)
                       : std::nullopt;
  if (Forwarded)
    Model = Forwarded->Model;
  if (Model) {
    llvm::ArrayRef<const Expr *> ModelArgs =
        Forwarded ? llvm::ArrayRef<const Expr *>(Forwarded->Args)
                  : llvm::ArrayRef<const Expr *>(Args);
    auto Arg = [&](int Index) -> const Expr * {
      return Index >= 0 && static_cast<unsigned>(Index) < ModelArgs.size()
                 ? ModelArgs[Index]
                 : nullptr;
    };
    switch (Model->Rule) {
    case ResultRule::Fixed: {
      Uniformity Fixed = Uniformity::at(Model->FixedLevel,
                                        {Model->Origin, Call});
      if (auto Lanes = rankLaneLinearity(Call, RowsWarpAligned)) {
        Fixed.setLaneLinear(Lanes->first, Lanes->second,
                            Lanes->first.isTile() ? Lanes->second : 63);
        // A tile of at most a warp: its rank is the lane mod the tile
        // size, the same at the same lane of every warp.
        if (Lanes->first <= Level::warp())
          Fixed.setLaneLevel(Level::grid());
      } else if (unsigned Align =
                     groupSizeAlignLog2(Call, RowsWarpAligned)) {
        Fixed.setKnownAlignLog2(Align);
      }
      return Fixed;
    }
    case ResultRule::WarpCollective: {
      ValueOrigin Origin{Model->Origin, Call};
      const Expr *Mask = Arg(Model->MaskArg);
      std::optional<llvm::APSInt> MaskValue =
          Mask ? constantInt(Mask, Ctx) : std::nullopt;
      bool WholeWarp = Model->MaskArg < 0 ||
                       (MaskValue && MaskValue->getZExtValue() == 0xffffffffU);
      const Expr *Operand = Arg(Model->ValueArg);
      if (!WholeWarp || !Operand)
        return Uniformity::at(Level::warp(), Origin);
      return Uniformity::fullWarpCollective(valueOf(Operand), Origin);
    }
    case ResultRule::Atomic:
      return Uniformity::varying({OriginKind::AtomicResult, Call});
    case ResultRule::GroupHandle:
      return Uniformity();
    case ResultRule::FirstArgument:
      return Arg(0) ? valueOf(Arg(0)) : Uniformity();
    case ResultRule::ShuffleIndexed:
    case ResultRule::ShuffleRelative: {
      Level Within = Model->ShuffleLevel;
      if (const Expr *Width = Arg(Model->WidthArg)) {
        std::optional<llvm::APSInt> W = constantInt(Width, Ctx);
        std::optional<Level> Tile =
            W ? Level::tile(static_cast<unsigned>(W->getZExtValue()))
              : std::nullopt;
        Within = Tile ? std::min(Within, *Tile) : Level::thread();
      }
      Uniformity Value =
          Arg(Model->ValueArg) ? valueOf(Arg(Model->ValueArg))
                               : Uniformity();
      ValueOrigin Origin{OriginKind::Intrinsic, Call};
      // The source lane (indexed) or the lane delta (relative).
      Uniformity Source;
      if (Arg(Model->SourceArg))
        Source = valueOf(Arg(Model->SourceArg));
      // Threads at the same lane of different warps read the same lane of
      // their own warp (the segment and the lane a lane reads depend only
      // on its lane index and on the source or delta): the result agrees
      // across warps lane by lane as far as the value and the source both
      // do. A broadcast of lane 31 of `sizes[base + lane]`, with base
      // block-uniform, is the same in every warp of the block (cutlass's
      // grouped-GEMM scheduler: every warp scans the same problem sizes).
      Level AcrossWarps = std::min(Value.laneLevel(), Source.laneLevel());
      bool Broadcast = Model->Rule == ResultRule::ShuffleIndexed &&
                       Source.level() >= Within;
      bool WiderThanWarp = Value.level() < Within
                               ? AcrossWarps > Level::warp()
                               : Value.symbols() != 0;
      if (Broadcast && Within >= Level::warp() && WiderThanWarp &&
          !(Value.symbols() &
            (static_cast<uint64_t>(1) << Uniformity::ThisSymbol))) {
        // One lane's value per warp, the same lane in every warp: as wide
        // as the value is lane by lane and as the source lane. Its inputs
        // narrow it at a call site, as for a whole-warp reduction, only to
        // what the argument shares lane by lane (a helper broadcasting its
        // parameter from lane 31).
        Uniformity U = Uniformity::fullWarpCollective(Value, Origin);
        U.join(Uniformity::at(Source.level(), Origin));
        return U.addSymbols(Source.symbols());
      }
      // A broadcast (one source lane for the segment) is uniform over the
      // segment whatever value a caller passes: a value that is an input
      // of this function must not make it as divergent as the caller's
      // argument (a warp-cooperative routine broadcasting the key of the
      // lane a ballot picked). Only a value known here to be wider keeps
      // its own level.
      if (Broadcast && Value.symbols() != 0)
        return Uniformity::at(Within, Origin).addSymbols(Source.symbols());
      if (Value.level() >= Within)
        return Value.clearLaneLinear().setKnownAlignLog2(0);
      if (Broadcast)
        return Uniformity::at(Within, Origin)
            .addSymbols(Value.symbols() | Source.symbols())
            .setLaneLevel(AcrossWarps);
      return Uniformity::varying(Origin)
          .addSymbols(Value.symbols() | Source.symbols())
          .setLaneLevel(AcrossWarps);
    }
    }
  }

  const CallSummary *Summary =
      Callee && Mgr && !Callee->isDependentContext() ? Mgr->summary(Callee)
                                                     : nullptr;
  if (!Summary) {
    Uniformity U = JoinOperands();
    // Asked the other way (AnalysisOptions::UnanalyzedCalleesStoreNothing):
    // a callee that does not compile stores nothing.
    const FunctionDecl *Definition = nullptr;
    if (Opts.UnanalyzedCalleesStoreNothing && Callee &&
        Callee->hasBody(Definition) && Definition &&
        !Definition->isDependentContext() && !compiles(*Definition))
      return U;
    ApplyStores(U);
    return U;
  }
  if (Summary->Conservative) {
    Uniformity U = Uniformity::varying({OriginKind::Unknown, Call});
    ApplyStores(U);
    return U;
  }

  const CXXRecordDecl *Closure = nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
    if (Method->getParent() && Method->getParent()->isLambda())
      Closure = Method->getParent();
  // A member function that kept the fields of its `*this` apart: its field
  // symbols are the fields of this call's object (flattenedFields).
  llvm::SmallVector<const FieldDecl *, 8> CalleeFields;
  if (Object && !Closure && Summary->ThisFieldsKept)
    if (const CXXRecordDecl *Class = fieldWiseClass(Callee);
        !Class || !flattenedFields(Class, MaxThisFields, CalleeFields) ||
        CalleeFields.size() != Summary->ThisFieldExit.size())
      CalleeFields.clear();
  auto SymbolValue = [&](unsigned Symbol) -> Uniformity {
    if (Symbol == Uniformity::ThisSymbol)
      return Object ? argumentValue(Object) : Uniformity();
    if (Symbol < Uniformity::FirstCaptureSymbol)
      return Symbol < Args.size() ? argumentValue(Args[Symbol])
                                  : Uniformity();
    unsigned CaptureIndex = Symbol - Uniformity::FirstCaptureSymbol;
    if (!Closure) {
      // A field of the callee's `*this`: that field of this call's object,
      // where it has a slot here; else the object as a whole.
      unsigned Field = Symbol - FirstThisFieldSymbol;
      if (Field >= CalleeFields.size())
        return Object ? argumentValue(Object) : Uniformity();
      if (auto Slot = objectFieldSlot(Object, CalleeFields[Field]))
        return (*Live)[*Slot];
      return argumentValue(Object);
    }
    unsigned Index = 0;
    for (const LambdaCapture &Capture : Closure->captures()) {
      if (Index++ != CaptureIndex)
        continue;
      if (Capture.capturesVariable())
        if (const auto *Var =
                dyn_cast_or_null<VarDecl>(Capture.getCapturedVar()))
          return readVariable(Var, Call);
    }
    return Uniformity();
  };

  // Remember what the inputs were bound to, for the barrier queries.
  uint64_t Needed = Summary->ReturnValue.symbols() |
                    Summary->ReturnValue.collectiveSymbols() |
                    Summary->IndirectStores.symbols() |
                    Summary->IndirectStores.collectiveSymbols();
  for (const std::optional<Uniformity> &Exit : Summary->ReferenceParamExit)
    if (Exit)
      Needed |= Exit->symbols() | Exit->collectiveSymbols();
  for (const BarrierSite &Site : Summary->Barriers)
    Needed |= Site.Control.symbols();
  // Every parameter the call passes: the checks ask how a callee's branch
  // or warp intrinsic diverges as this call calls it, and a parameter read
  // only by a condition (`if (tid < n) __syncwarp();`) is none of the
  // above, yet decides that.
  static_assert(Uniformity::FirstCaptureSymbol < 64,
                "parameter symbols fit the 64-bit symbol set");
  const auto PassedParams = std::min<unsigned>(
      {static_cast<unsigned>(Args.size()), Callee->getNumParams(),
       Uniformity::FirstCaptureSymbol});
  Needed |= (static_cast<uint64_t>(1) << PassedParams) - 1;
  // (Evaluating an argument may add bindings of other calls, so the entry
  // of this one is looked up only when the values are known.)
  llvm::SmallVector<std::pair<unsigned, Uniformity>, 4> Bound;
  for (unsigned Symbol = 0; Symbol < 64; ++Symbol)
    if (Needed & (static_cast<uint64_t>(1) << Symbol))
      Bound.push_back({Symbol, SymbolValue(Symbol)});
  if (!Bound.empty()) {
    auto &Binding = Bindings[Call];
    for (const auto &[Symbol, Value] : Bound) {
      auto *Existing = llvm::find_if(
          Binding, [&, S = Symbol](const auto &E) { return E.first == S; });
      if (Existing == Binding.end())
        Binding.push_back({Symbol, Value});
      else
        Existing->second.join(Value);
    }
  }

  Uniformity U = Summary->ReturnValue.resolve(SymbolValue);
  // A rounding helper (`roundDown(n, 32)`) keeps a power of two its
  // summary cannot state: evaluate it with this call's arguments
  // (divergence/ReturnAlignment.h).
  if (Callee->getReturnType()->isIntegerType() && !Object) {
    llvm::SmallVector<unsigned, 4> ArgAlign;
    llvm::SmallVector<std::optional<uint64_t>, 4> ArgValue;
    for (const Expr *Arg : Args) {
      unsigned A = argumentValue(Arg).knownAlignLog2();
      std::optional<uint64_t> Value;
      if (std::optional<llvm::APSInt> C = constantInt(Arg, Ctx)) {
        A = std::max(A, alignOfConstant(*C));
        if (!C->isNegative())
          Value = C->getLimitedValue();
      }
      ArgAlign.push_back(A);
      ArgValue.push_back(Value);
    }
    unsigned Returned = returnAlignLog2(Callee, ArgAlign, ArgValue, Ctx);
    if (Returned > U.knownAlignLog2())
      U.setKnownAlignLog2(Returned);
  }
  // Narrowed inside the callee (laneId(), an atomic in a helper): say so,
  // rather than pointing into the callee's body.
  if (U.level() < Level::grid() &&
      Summary->ReturnValue.level() == U.level())
    U.setOrigin({OriginKind::CallResult, Call});
  // What the callee leaves in each field of the object: into the field's
  // slot here when it has one (the object's fields are then updated, not
  // joined with every store the callee makes); the fields without a slot
  // take the join, as the whole object did before.
  Uniformity StoresToObject = Summary->IndirectStores.resolve(SymbolValue);
  if (!CalleeFields.empty()) {
    llvm::SmallVector<std::pair<unsigned, Uniformity>, 8> FieldUpdates;
    Uniformity Unplaced;
    bool AllPlaced = true;
    for (unsigned I = 0; I < CalleeFields.size(); ++I) {
      const std::optional<Uniformity> &Exit = Summary->ThisFieldExit[I];
      if (!Exit)
        continue;
      Uniformity V = Exit->resolve(SymbolValue);
      V.clearLaneLinear().setPointsToLocal(false);
      if (auto Slot = objectFieldSlot(Object, CalleeFields[I])) {
        FieldUpdates.push_back({*Slot, V});
      } else {
        AllPlaced = false;
        Unplaced.join(V);
      }
    }
    for (const auto &[Slot, V] : FieldUpdates)
      Live->mutableAt(Slot) = V;
    ObjectWrittenByFields = AllPlaced;
    StoresToObject.join(Unplaced);
  }
  ApplyStores(StoresToObject,
              [&](unsigned Index) -> std::optional<Uniformity> {
                if (Index >= Summary->ReferenceParamExit.size() ||
                    !Summary->ReferenceParamExit[Index])
                  return std::nullopt;
                return Summary->ReferenceParamExit[Index]->resolve(SymbolValue);
              });
  return U.setPointsToLocal(false);
}

} // namespace clang::tidy::cuda::analysis
