//===--- DivergenceBodyScan.cpp - the solver's setup ----------------------===//
//
// Before the fixed point: which locals the function has, which of them
// escape (address taken, bound to a reference, captured by reference,
// changed by a call), the calls, the CFG and its blocks, and where each
// variable is defined.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/divergence/DivergenceSolver.h"
#include "checks/analysis/divergence/ObjectWrites.h"

namespace clang::tidy::cuda::analysis {

using namespace divergence;

namespace divergence {

/// The array `a[i]` indexes in place (the operand of its array-to-pointer
/// decay), or nullptr when it indexes a pointer.
static const Expr *indexedArray(const ArraySubscriptExpr *Subscript) {
  const auto *Decay =
      dyn_cast<ImplicitCastExpr>(Subscript->getBase()->IgnoreParens());
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return nullptr;
  return Decay->getSubExpr();
}

/// The local variable an lvalue is part of (`s.f`, `a[i][j]` -> `s`, `a`),
/// collecting the subscripts on the way, or nullptr when the lvalue is
/// reached through a pointer or is not a local.
const VarDecl *rootVariable(const Expr *E,
                            llvm::SmallVectorImpl<const Expr *> *Indices,
                            FactQueries *Facts) {
  while (E) {
    E = E->IgnoreParens();
    // What an accessor returns is part of the object it is called on, its
    // arguments choosing which part (`c.m()`, `v[i]` of a std::array-like
    // operator[]).
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const Expr *Object =
          Facts ? storageAccessorObject(Call,
                                        [Facts](const CXXMethodDecl *M) {
                                          return Facts->objectEffect(M);
                                        })
                : nullptr;
      if (!Object || Object->getType()->isPointerType())
        return nullptr;
      if (Indices)
        for (const Expr *Arg : Call->arguments())
          if (Arg != Object)
            Indices->push_back(Arg);
      E = Object;
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType())
        return Var;
      return nullptr;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
        return nullptr;
      E = Member->getBase();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Array = indexedArray(Subscript);
      if (!Array)
        return nullptr;
      if (Indices)
        Indices->push_back(Subscript->getIdx());
      E = Array;
      continue;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_NoOp ||
          Cast->getCastKind() == CK_DerivedToBase ||
          Cast->getCastKind() == CK_UncheckedDerivedToBase) {
        E = Cast->getSubExpr();
        continue;
      }
    }
    return nullptr;
  }
  return nullptr;
}

/// The local whose address a pointer expression takes (`&x`, `&a[i]`, an
/// array decaying to a pointer), or nullptr.
bool isMemoryReference(const VarDecl *Var) {
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !Var->getType()->isLValueReferenceType() || !Var->getInit())
    return false;
  const Expr *Init = Var->getInit()->IgnoreParenImpCasts();
  if (!Init->isGLValue() || rootVariable(Init, nullptr, nullptr))
    return false;
  // Through a pointer: an element, a dereference, a field of either.
  while (true) {
    if (const auto *Member = dyn_cast<MemberExpr>(Init)) {
      if (Member->isArrow())
        return true;
      Init = Member->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Init)) {
      const Expr *Base = Subscript->getBase()->IgnoreParens();
      const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
        return true; // indexing a pointer
      Init = Decay->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(Init))
    return Unary->getOpcode() == UO_Deref;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Init))
    if (const auto *Named = dyn_cast<VarDecl>(Ref->getDecl()))
      return !Named->hasLocalStorage() && !Named->getType()->isReferenceType();
  // A call returning a reference may return one into a local object.
  return false;
}

const VarDecl *addressedVariable(const Expr *E, FactQueries *Facts) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_AddrOf)
      return rootVariable(Unary->getSubExpr(), nullptr, Facts);
  return nullptr;
}

bool callMayWriteObject(FactQueries *Facts, const CXXMethodDecl *Method) {
  if (!Method || Method->isStatic())
    return false;
  if (Facts)
    return Facts->mayWriteObject(Method);
  return !Method->isConst();
}

const VarDecl *referenceVariableOf(const Expr *E) {
  E = E->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() != CK_NoOp &&
        Cast->getCastKind() != CK_DerivedToBase &&
        Cast->getCastKind() != CK_UncheckedDerivedToBase)
      break;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->hasLocalStorage() && Var->getType()->isReferenceType() &&
          !isMemoryReference(Var))
        return Var;
  return nullptr;
}

const VarDecl *referencePartRoot(const Expr *LValue,
                                 llvm::SmallVectorImpl<const Expr *> *Indices) {
  const Expr *E = LValue ? LValue->IgnoreParens() : nullptr;
  bool Part = false;
  llvm::SmallVector<const Expr *, 2> Subscripts;
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
        return nullptr;
      Part = true;
      E = Member->getBase();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Array = indexedArray(Subscript);
      if (!Array)
        return nullptr;
      Subscripts.push_back(Subscript->getIdx());
      Part = true;
      E = Array;
      continue;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && (Cast->getCastKind() == CK_NoOp ||
                 Cast->getCastKind() == CK_DerivedToBase ||
                 Cast->getCastKind() == CK_UncheckedDerivedToBase)) {
      E = Cast->getSubExpr();
      continue;
    }
    break;
  }
  if (!Part || !E)
    return nullptr;
  const VarDecl *Ref = referenceVariableOf(E);
  if (Ref && Indices)
    Indices->append(Subscripts.begin(), Subscripts.end());
  return Ref;
}

bool callMayWriteReferenceParameter(FactQueries *Facts,
                                    const FunctionDecl *Callee,
                                    unsigned Index) {
  if (!Callee || Index >= Callee->getNumParams())
    return true;
  if (!isWritableIndirection(Callee->getParamDecl(Index)->getType()))
    return false;
  if (Facts)
    return Facts->mayWriteReferenceParameter(Callee, Index);
  return true;
}

bool isWritableIndirection(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  if (T->isPointerType())
    return !T->getPointeeType().isConstQualified();
  return false;
}

} // namespace divergence

namespace {

/// Collects what the dataflow needs to know before it starts: the locals,
/// which of them escape (their address is taken, they are bound to a
/// reference, captured by reference, or modified by a call), and the calls.
class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
public:
  /// \p Facts answers whether a member function changes its object
  /// (null: every non-const one may).
  explicit BodyScanner(FactQueries *Facts) : Facts(Facts) {}

  llvm::SmallVector<const VarDecl *, 16> Locals;
  llvm::SmallPtrSet<const VarDecl *, 8> EscapedVars;
  std::vector<const CallExpr *> Calls;

  bool shouldVisitImplicitCode() const { return true; }

  // A lambda body is a function of its own; only its captures belong here.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() &&
          Capture.getCaptureKind() == LCK_ByRef)
        if (const auto *Var =
                dyn_cast_or_null<VarDecl>(Capture.getCapturedVar()))
          EscapedVars.insert(Var);
    for (Expr *Init : Lambda->capture_inits())
      if (Init)
        TraverseStmt(Init);
    return true;
  }
  bool TraverseBlockExpr(BlockExpr *) { return true; }

  bool VisitVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var))
      return true;
    if (Var->hasLocalStorage())
      Locals.push_back(Var);
    if (Var->getType()->isReferenceType() && Var->getInit()) {
      const VarDecl *Root = rootVariable(Var->getInit(), nullptr, Facts);
      // `const int64_t &i00 = i0;` with i0 const (ggml's quantize names
      // indices this way): a read-only alias of a value that never changes,
      // so reading i00 reads i0's one value.
      bool ReadOnlyAliasOfConstant =
          Root && Root->getType().isConstQualified() &&
          Var->getType()->getPointeeType().isConstQualified();
      if (!ReadOnlyAliasOfConstant)
        escape(Root);
    }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->getOpcode() == UO_AddrOf)
      escape(rootVariable(Unary->getSubExpr(), nullptr, Facts));
    return true;
  }

  // `a[i]` reads the array in place; only other decays let its address out.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Subscript) {
    if (const auto *Decay =
            dyn_cast<ImplicitCastExpr>(Subscript->getBase()->IgnoreParens()))
      InPlaceDecays.insert(Decay);
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
        !InPlaceDecays.contains(Cast))
      escape(rootVariable(Cast->getSubExpr(), nullptr, Facts));
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    // A `<<<...>>>` launch from device code (dynamic parallelism) starts a
    // grid of its own; the launching threads do not run the kernel's body,
    // so its barriers and masks are not reached through this "call".
    if (isa<CUDAKernelCallExpr>(Call))
      return true;
    Calls.push_back(Call);
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned FirstArg = 0;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
      if (Method && !Method->isStatic()) {
        // The object of a member operator is argument 0. Assignment
        // operators are modelled as assignments, not escapes.
        FirstArg = 1;
        if (!Op->isAssignmentOp() && Op->getOperator() != OO_Call &&
            callMayWriteObject(Facts, Method))
          escape(rootVariable(Call->getArg(0), nullptr, Facts));
      }
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *Method = Member->getMethodDecl();
      if (Method && callMayWriteObject(Facts, Method))
        escape(rootVariable(Member->getImplicitObjectArgument(), nullptr, Facts));
    }
    for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I) {
      unsigned ParamIndex = I - FirstArg;
      if (!Callee || ParamIndex >= Callee->getNumParams())
        continue;
      if (isWritableIndirection(Callee->getParamDecl(ParamIndex)->getType()) &&
          Callee->getParamDecl(ParamIndex)->getType()->isReferenceType() &&
          callMayWriteReferenceParameter(Facts, Callee, ParamIndex))
        escape(rootVariable(Call->getArg(I), nullptr, Facts));
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; Ctor && I < Construct->getNumArgs() &&
                         I < Ctor->getNumParams();
         ++I)
      if (Ctor->getParamDecl(I)->getType()->isReferenceType() &&
          isWritableIndirection(Ctor->getParamDecl(I)->getType()))
        escape(rootVariable(Construct->getArg(I), nullptr, Facts));
    return true;
  }

private:
  void escape(const VarDecl *Var) {
    if (Var)
      EscapedVars.insert(Var);
  }
  FactQueries *Facts;
  llvm::SmallPtrSet<const ImplicitCastExpr *, 16> InPlaceDecays;
};

} // namespace

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

void FunctionDivergence::Impl::scanBody(const Stmt *Body) {
  BodyScanner Scanner(Mgr);
  Scanner.TraverseStmt(const_cast<Stmt *>(Body));
  VarIndex = decltype(VarIndex)(FD->getNumParams() + Scanner.Locals.size());
  for (const ParmVarDecl *Param : FD->parameters()) {
    VarIndex[Param] = Vars.size();
    Vars.push_back(Param);
  }
  for (const VarDecl *Local : Scanner.Locals) {
    // A memory reference is read as the memory it names, like a
    // __shared__ variable: no slot.
    if (Local->hasAttr<CUDASharedAttr>() || VarIndex.contains(Local) ||
        isMemoryReference(Local))
      continue;
    VarIndex[Local] = Vars.size();
    Vars.push_back(Local);
  }
  ReturnSlot = Vars.size();
  NumSlots = ReturnSlot + 1;
  for (const VarDecl *Var : Vars)
    if (!Scanner.EscapedVars.contains(Var))
      trackFields(Var);
  Escaped.resize(NumSlots);
  for (const VarDecl *Var : Scanner.EscapedVars)
    if (auto Slot = slotOf(Var))
      Escaped.set(*Slot);
  EscapedValue.assign(NumSlots, Uniformity());
  Calls = std::move(Scanner.Calls);

  // Inside a lambda, the captured variables are inputs bound at each call.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *Closure = Method->getParent();
    if (Closure && Closure->isLambda()) {
      unsigned Index = 0;
      for (const LambdaCapture &Capture : Closure->captures()) {
        if (Capture.capturesVariable())
          if (const auto *Var =
                  dyn_cast_or_null<VarDecl>(Capture.getCapturedVar()))
            if (Uniformity::FirstCaptureSymbol + Index <
                Uniformity::ThisSymbol)
              CaptureSymbol[Var] = Uniformity::FirstCaptureSymbol + Index;
        ++Index;
      }
    }
  }
}

void FunctionDivergence::Impl::trackFields(const VarDecl *Var) {
  if (Var->getType()->isReferenceType() || Var->hasAttr<CUDASharedAttr>())
    return;
  const auto *Record = Var->getType()->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition() || Record->isUnion() ||
      Record->isLambda() || Record->getNumBases() != 0 ||
      Record->isDependentContext())
    return;
  llvm::SmallVector<const FieldDecl *, 8> Fields(Record->fields());
  if (Fields.empty() || Fields.size() > MaxTrackedFields)
    return;
  auto &Slots = FieldSlotsOf[Var];
  for (const FieldDecl *Field : Fields) {
    FieldSlot[{Var, Field}] = NumSlots;
    Slots.push_back(NumSlots++);
  }
}

std::optional<unsigned> FunctionDivergence::Impl::fieldSlotOf(
    const Expr *LValue, llvm::SmallVectorImpl<const Expr *> *Indices,
    bool *Exact) const {
  if (FieldSlot.empty() || !LValue)
    return std::nullopt;
  // Down to the variable, remembering the member just above it.
  const Expr *E = LValue;
  const MemberExpr *Innermost = nullptr;
  bool Above = false; // a subscript or member above the innermost member
  llvm::SmallVector<const Expr *, 2> Subscripts;
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || !Innermost)
        return std::nullopt;
      const auto *Field = dyn_cast<FieldDecl>(Innermost->getMemberDecl());
      auto It = Field ? FieldSlot.find({Var, Field}) : FieldSlot.end();
      if (It == FieldSlot.end())
        return std::nullopt;
      if (Indices)
        Indices->append(Subscripts.begin(), Subscripts.end());
      if (Exact)
        *Exact = !Above;
      return It->second;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
        return std::nullopt;
      if (Innermost)
        Above = true;
      Innermost = Member;
      E = Member->getBase();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Array = indexedArray(Subscript);
      if (!Array)
        return std::nullopt;
      Subscripts.push_back(Subscript->getIdx());
      Above = true;
      E = Array;
      continue;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
        Cast && Cast->getCastKind() == CK_NoOp) {
      E = Cast->getSubExpr();
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

void FunctionDivergence::Impl::mapBlocks() {
  unsigned N = Cfg->getNumBlockIDs();
  DefsInBlock.assign(N, {});
  Blocks.assign(N, nullptr);
  unsigned Elements = 0;
  for (const CFGBlock *B : *Cfg) {
    Blocks[B->getBlockID()] = B;
    Elements += B->size() + 1;
  }
  StmtBlock = decltype(StmtBlock)(Elements);
  for (const CFGBlock *B : *Cfg) {
    for (const CFGElement &Element : *B) {
      std::optional<CFGStmt> S = Element.getAs<CFGStmt>();
      if (!S)
        continue;
      StmtBlock.try_emplace(S->getStmt(), B);
      collectDefs(S->getStmt(), DefsInBlock[B->getBlockID()]);
    }
    if (const Stmt *Terminator = B->getTerminatorStmt())
      StmtBlock.try_emplace(Terminator, B);
  }
  for (auto &Defs : DefsInBlock) {
    llvm::sort(Defs);
    Defs.erase(std::unique(Defs.begin(), Defs.end()), Defs.end());
  }
}

/// The slots a CFG element (one statement, its operands being elements of
/// their own) may write.
void FunctionDivergence::Impl::collectDefs(
    const Stmt *S, llvm::SmallVectorImpl<unsigned> &Defs) const {
  auto AddFields = [&](const VarDecl *Var) {
    if (auto It = FieldSlotsOf.find(Var); It != FieldSlotsOf.end())
      Defs.append(It->second.begin(), It->second.end());
  };
  auto AddRoot = [&](const Expr *LValue) {
    if (!LValue)
      return;
    if (auto Field = fieldSlotOf(LValue, nullptr, nullptr)) {
      Defs.push_back(*Field);
      return;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(LValue->IgnoreParens()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (auto Slot = slotOf(Var)) {
          Defs.push_back(*Slot);
          AddFields(Var);
          // A store through a reference to a local defines that local too:
          // under a divergent branch it diverges at the join like a store
          // by name.
          if (Var->getType()->isReferenceType() && Var->getInit())
            if (const VarDecl *Aliased = rootVariable(Var->getInit(), nullptr, Mgr))
              if (auto AliasedSlot = slotOf(Aliased))
                Defs.push_back(*AliasedSlot);
          return;
        }
    // A part that is no field of its own (`c.m()` through an accessor):
    // any field may be the one written.
    if (const VarDecl *Root = rootVariable(LValue, nullptr, Mgr))
      if (auto Slot = slotOf(Root)) {
        Defs.push_back(*Slot);
        AddFields(Root);
      }
    if (const VarDecl *Ref = referencePartRoot(LValue, nullptr))
      if (auto Slot = slotOf(Ref))
        Defs.push_back(*Slot);
  };
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const class Decl *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        if (auto Slot = slotOf(Var)) {
          Defs.push_back(*Slot);
          AddFields(Var);
        }
    return;
  }
  if (isa<ReturnStmt>(S)) {
    Defs.push_back(ReturnSlot);
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    for (const Expr *Output : Asm->outputs())
      AddRoot(Output);
    return;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
    if (Binary->isAssignmentOp())
      AddRoot(Binary->getLHS());
    return;
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
    if (Unary->isIncrementDecrementOp())
      AddRoot(Unary->getSubExpr());
    return;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      AddRoot(Op->getArg(0));
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // Locals a call may write: passed by writable reference or pointer, or
    // the object of a non-const member function.
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned FirstArg = 0;
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
        Method && !Method->isStatic() && isa<CXXOperatorCallExpr>(Call))
      FirstArg = 1;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      const Expr *Arg = Call->getArg(I);
      if (const VarDecl *Var = addressedVariable(Arg, Mgr))
        if (auto Slot = slotOf(Var))
          Defs.push_back(*Slot);
      if (const VarDecl *Var = rootVariable(Arg, nullptr, Mgr))
        if (auto Slot = slotOf(Var); Slot && Escaped.test(*Slot))
          Defs.push_back(*Slot);
      // A reference of this function (a parameter) handed on to a callee
      // that may write it: the callee's store is a store through it.
      if (I >= FirstArg)
        if (const VarDecl *Ref = referenceVariableOf(Arg))
          if (callMayWriteReferenceParameter(Mgr, Callee, I - FirstArg))
            if (auto Slot = slotOf(Ref))
              Defs.push_back(*Slot);
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (callMayWriteObject(Mgr, Member->getMethodDecl()))
        AddRoot(Member->getImplicitObjectArgument());
  }
}

FunctionDivergence::Impl::State FunctionDivergence::Impl::initialState() {
  State S(NumSlots);
  unsigned Index = 0;
  for (const ParmVarDecl *Param : FD->parameters()) {
    // A kernel's parameters are the same for the whole launch; a device
    // function's are whatever its callers pass.
    Uniformity Input = IsKernel || Index >= Uniformity::FirstCaptureSymbol
                           ? Uniformity()
                           : Uniformity::symbol(Index);
    // What every launch in the TU passes: `GGML_ASSERT(ne0 % 32 == 0)` before
    // the launch makes `i >= ne0` split no warp (LaunchShape.h).
    if (IsKernel && Mgr)
      Input.setKnownAlignLog2(Mgr->launchArgumentAlignLog2(FD, Index));
    S.mutableAt(VarIndex[Param]) = Input;
    if (auto It = FieldSlotsOf.find(Param); It != FieldSlotsOf.end())
      for (unsigned Field : It->second)
        S.mutableAt(Field) = Input;
    ++Index;
  }
  return S;
}

} // namespace clang::tidy::cuda::analysis
