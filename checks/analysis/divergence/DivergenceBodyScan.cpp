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

/// What \p E converts, when it is an implicit cast that keeps the object
/// (a qualification change, to a base class); nullptr otherwise.
static const Expr *throughObjectCast(const Expr *E) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
  if (!Cast || (Cast->getCastKind() != CK_NoOp &&
                Cast->getCastKind() != CK_DerivedToBase &&
                Cast->getCastKind() != CK_UncheckedDerivedToBase))
    return nullptr;
  return Cast->getSubExpr();
}

/// What \p LValue is a part of: through fields reached with `.`, elements
/// of arrays (collecting the subscripts into \p Indices) and casts that
/// keep the object, down to the expression that names the storage (a
/// variable, `this->f`, `*p`). \p Part says whether a step was taken.
/// nullptr for an element reached through a pointer.
static const Expr *storageOf(const Expr *LValue,
                             llvm::SmallVectorImpl<const Expr *> *Indices,
                             bool *Part) {
  const Expr *E = LValue;
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Member = dyn_cast<MemberExpr>(E);
        Member && !Member->isArrow() &&
        isa<FieldDecl>(Member->getMemberDecl())) {
      if (Part)
        *Part = true;
      E = Member->getBase();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      if (Indices)
        Indices->push_back(Subscript->getIdx());
      if (Part)
        *Part = true;
      E = indexedArray(Subscript);
      continue;
    }
    if (const Expr *Sub = throughObjectCast(E)) {
      E = Sub;
      continue;
    }
    return E;
  }
  return nullptr;
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
    if (const Expr *Sub = throughObjectCast(E)) {
      E = Sub;
      continue;
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
  while (const Expr *Sub = throughObjectCast(E))
    E = Sub->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->hasLocalStorage() && Var->getType()->isReferenceType() &&
          !isMemoryReference(Var))
        return Var;
  return nullptr;
}

const VarDecl *referencePartRoot(const Expr *LValue,
                                 llvm::SmallVectorImpl<const Expr *> *Indices) {
  bool Part = false;
  llvm::SmallVector<const Expr *, 2> Subscripts;
  const Expr *Storage =
      LValue ? storageOf(LValue, &Subscripts, &Part) : nullptr;
  if (!Part || !Storage)
    return nullptr;
  const VarDecl *Ref = referenceVariableOf(Storage);
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

bool flattenedFields(const CXXRecordDecl *Record, unsigned Limit,
                     llvm::SmallVectorImpl<const FieldDecl *> &Fields) {
  auto Fail = [&] {
    Fields.clear();
    return false;
  };
  if (!Record || !Record->hasDefinition())
    return Fail();
  Record = Record->getDefinition();
  if (Record->isUnion() || Record->isLambda() ||
      Record->isDependentContext() || Record->getNumVBases() != 0)
    return Fail();
  for (const CXXBaseSpecifier &Base : Record->bases()) {
    const CXXRecordDecl *BaseRecord = Base.getType()->getAsCXXRecordDecl();
    if (Base.isVirtual() || !flattenedFields(BaseRecord, Limit, Fields))
      return Fail();
  }
  for (const FieldDecl *Field : Record->fields()) {
    if (Fields.size() >= Limit)
      return Fail();
    Fields.push_back(Field);
  }
  return true;
}

const CXXRecordDecl *fieldWiseClass(const FunctionDecl *FD) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!Method || Method->isStatic() || Method->isDependentContext())
    return nullptr;
  const CXXRecordDecl *Class = Method->getParent();
  return Class && !Class->isLambda() ? Class : nullptr;
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
  /// `this`, or a field of `*this`, is used other than to read or assign a
  /// field or to call a member function that says what it does to the
  /// fields: the fields of `*this` are not kept apart.
  bool ThisEscapes = false;
  /// Local references bound to exactly one field of `*this`.
  llvm::SmallVector<std::pair<const VarDecl *, const FieldDecl *>, 2>
      ThisAliases;
  /// Local references bound to a part of one (`T &old = val_arr_[k - 1];`):
  /// a store through one changes part of the field.
  llvm::SmallVector<std::pair<const VarDecl *, const FieldDecl *>, 2>
      ThisPartAliases;
  /// Arrays of `*this` decaying to a pointer argument of a function the
  /// analysis sees (`merge(val_arr_, idx_arr_)`): the callee's stores
  /// change part of the field (applied at the call).
  llvm::SmallPtrSet<const ImplicitCastExpr *, 4> ArgumentDecays;
  llvm::SmallVector<const CXXThisExpr *, 16> AllThis;
  llvm::SmallPtrSet<const CXXThisExpr *, 16> ThisAsBase;

  /// Every `this` reached a field or a member function.
  bool thisOnlyAsBase() const {
    return !ThisEscapes && llvm::all_of(AllThis, [&](const CXXThisExpr *T) {
             return ThisAsBase.contains(T);
           });
  }

  bool VisitCXXThisExpr(CXXThisExpr *This) {
    AllThis.push_back(This);
    return true;
  }

  bool VisitMemberExpr(MemberExpr *Member) {
    if (const auto *This = asThis(Member->getBase()))
      ThisAsBase.insert(This);
    return true;
  }

  bool shouldVisitImplicitCode() const { return true; }

  // A lambda body is a function of its own; only its captures belong here.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesThis())
        ThisEscapes = true;
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
      // `int &start = this->problem_idx;`: the field under another name.
      if (const FieldDecl *Field = exactThisField(Var->getInit()))
        ThisAliases.push_back({Var, Field});
      else if (const FieldDecl *Part = thisFieldPart(Var->getInit()))
        ThisPartAliases.push_back({Var, Part});
      else if (isWritableIndirection(Var->getType()))
        escapeThisPart(Var->getInit());
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
    if (Unary->getOpcode() == UO_AddrOf) {
      escape(rootVariable(Unary->getSubExpr(), nullptr, Facts));
      escapeThisPart(Unary->getSubExpr());
    }
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
        !InPlaceDecays.contains(Cast)) {
      escape(rootVariable(Cast->getSubExpr(), nullptr, Facts));
      if (!ArgumentDecays.contains(Cast))
        escapeThisPart(Cast->getSubExpr());
    }
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
    // An array of `*this` handed to a pointer parameter of a callee the
    // analysis sees: its stores are applied to the field at the call.
    if (Callee && !isa<CXXOperatorCallExpr>(Call))
      for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
           ++I)
        if (const auto *Decay =
                dyn_cast<ImplicitCastExpr>(Call->getArg(I)->IgnoreParens());
            Decay && Decay->getCastKind() == CK_ArrayToPointerDecay &&
            Callee->getParamDecl(I)->getType()->isPointerType() &&
            thisFieldPart(Decay->getSubExpr()))
          ArgumentDecays.insert(Decay);
    unsigned FirstArg = 0;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
      if (Method && !Method->isStatic()) {
        // The object of a member operator is argument 0. Assignment
        // operators are modelled as assignments, not escapes.
        FirstArg = 1;
        if (!Op->isAssignmentOp() && Op->getOperator() != OO_Call &&
            callMayWriteObject(Facts, Method)) {
          escape(rootVariable(Call->getArg(0), nullptr, Facts));
          escapeThisPart(Call->getArg(0));
        }
      }
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *Method = Member->getMethodDecl();
      const Expr *Object = Member->getImplicitObjectArgument();
      if (Method && callMayWriteObject(Facts, Method)) {
        // A member function whose summary says what it leaves in each
        // field: its call on `*this` or on a local object updates those
        // fields where the dataflow sees it.
        bool FieldWise = keepsFieldsApart(Method);
        if (asThis(Object)) {
          if (!FieldWise)
            ThisEscapes = true;
        } else if (!FieldWise || !isa<DeclRefExpr>(Object->IgnoreParenImpCasts())) {
          escape(rootVariable(Object, nullptr, Facts));
          escapeThisPart(Object);
        }
      }
    }
    for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I) {
      unsigned ParamIndex = I - FirstArg;
      if (!Callee || ParamIndex >= Callee->getNumParams())
        continue;
      if (isWritableIndirection(Callee->getParamDecl(ParamIndex)->getType()) &&
          Callee->getParamDecl(ParamIndex)->getType()->isReferenceType() &&
          callMayWriteReferenceParameter(Facts, Callee, ParamIndex)) {
        escape(rootVariable(Call->getArg(I), nullptr, Facts));
        escapeThisPart(Call->getArg(I));
      }
    }
    // Arguments of a callee the analysis cannot see, and variadic ones.
    for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I)
      if (!Callee || I - FirstArg >= Callee->getNumParams())
        if (isWritableIndirection(Call->getArg(I)->getType()))
          escapeThisPart(Call->getArg(I));
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; Ctor && I < Construct->getNumArgs() &&
                         I < Ctor->getNumParams();
         ++I)
      if (Ctor->getParamDecl(I)->getType()->isReferenceType() &&
          isWritableIndirection(Ctor->getParamDecl(I)->getType())) {
        escape(rootVariable(Construct->getArg(I), nullptr, Facts));
        escapeThisPart(Construct->getArg(I));
      }
    return true;
  }

  /// \p E (through parentheses and implicit casts) is `this`.
  static const CXXThisExpr *asThis(const Expr *E) {
    return E ? dyn_cast<CXXThisExpr>(E->IgnoreParenImpCasts()) : nullptr;
  }

  /// \p LValue is one whole field of `*this` (`this->f`, `f`).
  static const FieldDecl *exactThisField(const Expr *LValue) {
    const Expr *E = LValue->IgnoreParens();
    while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() != CK_NoOp)
        return nullptr;
      E = Cast->getSubExpr()->IgnoreParens();
    }
    const FieldDecl *Field = fieldOfThis(E);
    return Field && !Field->getType()->isReferenceType() ? Field : nullptr;
  }

  /// `this->f` (through parentheses and implicit casts on `this`): `f`.
  static const FieldDecl *fieldOfThis(const Expr *E) {
    const auto *Member = dyn_cast_or_null<MemberExpr>(E);
    if (!Member || !Member->isArrow() || !asThis(Member->getBase()))
      return nullptr;
    return dyn_cast<FieldDecl>(Member->getMemberDecl());
  }

  /// The field of `*this` that \p LValue is a part of (`f[i]`, `f.g`,
  /// `f`), not through a pointer or a reference field; nullptr otherwise.
  static const FieldDecl *thisFieldPart(const Expr *LValue) {
    const FieldDecl *Field =
        fieldOfThis(storageOf(LValue, nullptr, nullptr));
    return Field && !Field->getType()->isReferenceType() ? Field : nullptr;
  }

  /// \p LValue is part of a field of `*this` (`this->f`, `f[i]`, `f.g`),
  /// of `*this` itself, or names a reference bound to one: letting it out
  /// lets the fields out.
  void escapeThisPart(const Expr *LValue) {
    const Expr *Storage = storageOf(LValue, nullptr, nullptr);
    if (!Storage)
      return;
    if (fieldOfThis(Storage))
      ThisEscapes = true;
    if (const auto *Unary = dyn_cast<UnaryOperator>(Storage);
        Unary && Unary->getOpcode() == UO_Deref && asThis(Unary->getSubExpr()))
      ThisEscapes = true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Storage)) {
      auto Names = [&](const auto &A) { return A.first == Ref->getDecl(); };
      if (llvm::any_of(ThisAliases, Names) ||
          llvm::any_of(ThisPartAliases, Names))
        ThisEscapes = true;
    }
  }

  /// \p Method's summary says what it leaves in each field of its object.
  bool keepsFieldsApart(const CXXMethodDecl *Method) const {
    if (!Facts || !fieldWiseClass(Method))
      return false;
    const CallSummary *Summary = Facts->summary(Method);
    return Summary && !Summary->Conservative && Summary->ThisFieldsKept;
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
  // A constructor's initializers run before its body (initializeMembers).
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit())
        Scanner.TraverseStmt(const_cast<Expr *>(Init->getInit()));
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
  // The fields of `*this`, each a slot, when `this` only reaches them.
  if (const CXXRecordDecl *Class = fieldWiseClass(FD);
      Class && Scanner.thisOnlyAsBase() &&
      flattenedFields(Class, MaxThisFields, ThisFields)) {
    ThisFieldsKept = true;
    for (const FieldDecl *Field : ThisFields) {
      FieldSlot[{nullptr, Field}] = NumSlots;
      ThisFieldSlots.push_back(NumSlots++);
    }
    for (const auto &[Var, Field] : Scanner.ThisAliases)
      if (auto It = FieldSlot.find({nullptr, Field}); It != FieldSlot.end())
        ThisFieldAlias[Var] = It->second;
    for (const auto &[Var, Field] : Scanner.ThisPartAliases)
      if (auto It = FieldSlot.find({nullptr, Field}); It != FieldSlot.end())
        ThisFieldPartAlias[Var] = It->second;
  }
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
  // A class with bases: theirs first (flattenedFields), so that a member
  // function of a base reaches them by the same declarations.
  llvm::SmallVector<const FieldDecl *, 8> Fields;
  if (!flattenedFields(Var->getType()->getAsCXXRecordDecl(), MaxTrackedFields,
                       Fields) ||
      Fields.empty())
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
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field)
        return std::nullopt;
      if (Member->isArrow()) {
        // `this->f...`: a field of `*this`, when its fields have slots. A
        // reference field is a pointer to memory: what it reaches is read
        // through it, not held here.
        if (!isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()) ||
            Field->getType()->isReferenceType())
          return std::nullopt;
        auto It = FieldSlot.find({nullptr, Field});
        if (It == FieldSlot.end())
          return std::nullopt;
        if (Indices)
          Indices->append(Subscripts.begin(), Subscripts.end());
        if (Exact)
          *Exact = !Innermost && Subscripts.empty();
        return It->second;
      }
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
    if (const Expr *Sub = throughObjectCast(E)) {
      E = Sub;
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<unsigned>
FunctionDivergence::Impl::objectFieldSlot(const Expr *Object,
                                          const FieldDecl *Field) const {
  if (!Object || !Field)
    return std::nullopt;
  const Expr *E = Object->IgnoreParenImpCasts();
  const VarDecl *Var = nullptr;
  if (!isa<CXXThisExpr>(E)) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || Var->getType()->isPointerType() ||
        Var->getType()->isReferenceType())
      return std::nullopt;
    if (auto Slot = slotOf(Var); !Slot || Escaped.test(*Slot))
      return std::nullopt;
  }
  auto It = FieldSlot.find({Var, Field});
  if (It == FieldSlot.end())
    return std::nullopt;
  return It->second;
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
    if (const auto *Ref = dyn_cast<DeclRefExpr>(LValue->IgnoreParens()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        for (const auto *Aliases : {&ThisFieldAlias, &ThisFieldPartAlias})
          if (auto Alias = Aliases->find(Var); Alias != Aliases->end()) {
            Defs.push_back(Alias->second);
            return;
          }
    // A member function called on `*this` writes its fields.
    if (isa<CXXThisExpr>(LValue->IgnoreParenImpCasts())) {
      Defs.append(ThisFieldSlots.begin(), ThisFieldSlots.end());
      return;
    }
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
      if (const auto *Decay = dyn_cast<ImplicitCastExpr>(Arg->IgnoreParens());
          Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
        if (auto Field = fieldSlotOf(Decay->getSubExpr(), nullptr, nullptr))
          Defs.push_back(*Field);
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
    if (!IsKernel && Index < ParameterValues.size())
      if (const std::optional<Uniformity> &Bound = ParameterValues[Index])
        Input = *Bound;
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
  // Each field of `*this` is what the caller's object holds in it.
  for (unsigned I = 0; I < ThisFieldSlots.size(); ++I)
    S.mutableAt(ThisFieldSlots[I]) =
        Uniformity::symbol(FirstThisFieldSymbol + I);
  return S;
}

} // namespace clang::tidy::cuda::analysis
