//===--- ObjectWrites.cpp - does a member function change its own object? -===//

#include "checks/analysis/divergence/ObjectWrites.h"
#include "llvm/ADT/STLExtras.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::cuda::analysis {

namespace {

const Expr *skipNoOps(const Expr *E) {
  while (true) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
    if (!Cast)
      return E;
    switch (Cast->getCastKind()) {
    case CK_NoOp:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_LValueToRValue:
      E = Cast->getSubExpr();
      continue;
    default:
      return E;
    }
  }
}

/// A type through which a callee may write what it is given: a reference
/// or pointer to non-const, at any level of pointers.
bool writableIndirection(QualType T) {
  if (const auto *Ref = T->getAs<ReferenceType>())
    return !Ref->getPointeeType().isConstQualified();
  if (const auto *Ptr = T->getAs<PointerType>())
    return !Ptr->getPointeeType().isConstQualified() ||
           Ptr->getPointeeType()->isPointerType();
  return false;
}

/// \p Var, a local pointer, is read only to be converted at once to a
/// pointer to const (bound to a `const T *` parameter, variable or field):
/// it is never assigned, incremented, dereferenced, subscripted, offset or
/// has its address taken in \p Body, so nothing is stored through it.
bool readOnlyAsPointerToConst(const VarDecl *Var, const Stmt *Body) {
  if (!Body)
    return false;
  class Reads : public RecursiveASTVisitor<Reads> {
  public:
    Reads(const VarDecl *Var, ParentMap &Parents)
        : Var(Var), Parents(Parents) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() != Var)
        return true;
      const auto *Load =
          dyn_cast_or_null<ImplicitCastExpr>(Parents.getParentIgnoreParens(Ref));
      const auto *Conversion =
          Load && Load->getCastKind() == CK_LValueToRValue
              ? dyn_cast_or_null<ImplicitCastExpr>(
                    Parents.getParentIgnoreParens(Load))
              : nullptr;
      ReadOnly = Conversion && Conversion->getCastKind() == CK_NoOp &&
                 Conversion->getType()->isPointerType() &&
                 Conversion->getType()->getPointeeType().isConstQualified();
      return ReadOnly;
    }
    const VarDecl *Var;
    ParentMap &Parents;
    bool ReadOnly = true;
  };
  ParentMap Parents(const_cast<Stmt *>(Body));
  Reads R(Var, Parents);
  R.TraverseStmt(const_cast<Stmt *>(Body));
  return R.ReadOnly;
}

/// What a scan asks about: the object `this` points to (Param null), or
/// the variable the caller bound to the reference parameter Param.
struct StorageRoot {
  const ParmVarDecl *Param = nullptr;
  /// What member functions do to their objects: an accessor's result is
  /// storage of the object it is called on.
  ObjectEffectQuery Effect;

  /// \p E is a pointer to the whole root: `this`. (A reference parameter
  /// has no such expression but `&param`, which pointsInto() sees.)
  bool isPointerToRoot(const Expr *E) const {
    return !Param && isa<CXXThisExpr>(E->IgnoreParenImpCasts());
  }

  /// \p E designates storage of the root: for `this`, `this->f`, `f`,
  /// `arr[i]` of an array field, `a.b` of a field held by value, `*this`;
  /// for a reference parameter `p`, `p` itself, `p.f`, `p.a[i]`, `p[i]` of
  /// a reference to an array. Not what a pointer or reference field (or a
  /// reference to a pointer) points to.
  bool isStorage(const Expr *E) const {
    E = skipNoOps(E);
    if (Param)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
        return Ref->getDecl() == Param;
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      // A reference field designates other storage; a static member or a
      // method is not the object's.
      if (!Field || Field->getType()->isReferenceType())
        return false;
      const Expr *Base = Member->getBase();
      if (Member->isArrow())
        return isPointerToRoot(Base);
      return isStorage(Base);
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = Subscript->getBase()->IgnoreParens();
      if (const auto *Decay = dyn_cast<ImplicitCastExpr>(Base);
          Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
        return isStorage(Decay->getSubExpr());
      return false; // through a pointer: what it points to
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E))
      if (Unary->getOpcode() == UO_Deref)
        return isPointerToRoot(Unary->getSubExpr());
    // What an accessor returns (`at(0)`, `field[i]` of a std::array-like
    // field): storage of the object it is called on.
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const Expr *Object = storageAccessorObject(Call, Effect))
        return Object->getType()->isPointerType() ? isPointerToRoot(Object)
                                                  : isStorage(Object);
    return false;
  }

  /// \p E, passed or returned as a pointer, points to storage of the root:
  /// `this`, `&field`, `&param`, an array decayed to a pointer.
  bool pointsInto(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_ArrayToPointerDecay)
        return isStorage(Cast->getSubExpr());
      return pointsInto(Cast->getSubExpr());
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return pointsInto(Cast->getSubExpr());
    if (isPointerToRoot(E))
      return true;
    if (const auto *Unary = dyn_cast<UnaryOperator>(E))
      if (Unary->getOpcode() == UO_AddrOf)
        return isStorage(Unary->getSubExpr());
    if (const auto *Binary = dyn_cast<BinaryOperator>(E))
      if (Binary->isAdditiveOp())
        return pointsInto(Binary->getLHS()) || pointsInto(Binary->getRHS());
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
      return pointsInto(Cond->getTrueExpr()) || pointsInto(Cond->getFalseExpr());
    return false;
  }

  /// What may reach the root through \p Arg bound to a parameter of type
  /// \p ParamType (or, for a variadic or unknown callee, of the argument's
  /// type).
  bool handsOver(const Expr *Arg, QualType ParamType) const {
    if (!writableIndirection(ParamType))
      return false;
    return ParamType->isReferenceType()
               ? isStorage(Arg) || isPointerToRoot(Arg)
               : pointsInto(Arg);
  }
};

class Scan : public RecursiveASTVisitor<Scan> {
public:
  Scan(const FunctionDecl *Function, StorageRoot Root,
       ObjectEffectQuery Callee, ParameterWriteQuery ParamCallee)
      : Function(Function), Root(Root), Callee(Callee),
        ParamCallee(ParamCallee) {}

  bool Writes = false;
  /// A non-const reference into the object is returned (and nothing else
  /// is done to it): the function is an accessor.
  bool ReturnsStorage = false;

  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp() && Root.isStorage(Op->getLHS()))
      Writes = true;
    return !Writes;
  }

  bool VisitUnaryOperator(UnaryOperator *Op) {
    if (Op->isIncrementDecrementOp() && Root.isStorage(Op->getSubExpr()))
      Writes = true;
    // The address of the root's storage may be written through later.
    if (Op->getOpcode() == UO_AddrOf && Root.isStorage(Op->getSubExpr()))
      Writes = true;
    return !Writes;
  }

  bool VisitMemberExpr(MemberExpr *Member) {
    noteBase(Member->getBase());
    return true;
  }

  bool VisitCXXThisExpr(CXXThisExpr *This) {
    AllThis.push_back(This);
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Target = Call->getDirectCallee();
    unsigned FirstArg = 0;
    const Expr *Object = nullptr;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      Object = Member->getImplicitObjectArgument();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Target);
          M && !M->isStatic() && Op->getNumArgs() > 0) {
        Object = Op->getArg(0);
        FirstArg = 1;
      }
    }
    if (Object) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(Target);
      // `p->f()` is called on what the pointer points to: on the object
      // only when the pointer points into it, whatever field holds it.
      const bool OnThisStorage =
          Object->getType()->isPointerType()
              ? Root.pointsInto(Object)
              : Root.isStorage(Object) || Root.isPointerToRoot(Object);
      // An accessor changes nothing by itself: what is done with its
      // result is judged where that is done (isStorage sees through it).
      if (OnThisStorage) {
        noteBase(Object);
        if (!M || (!M->isConst() && !M->isStatic() &&
                   Callee(M) == ObjectEffect::MayWrite))
          Writes = true;
      }
    }
    for (unsigned I = FirstArg; I < Call->getNumArgs() && !Writes; ++I) {
      unsigned P = I - FirstArg;
      QualType Param = Target && P < Target->getNumParams()
                           ? Target->getParamDecl(P)->getType()
                           : Call->getArg(I)->getType();
      if (!Root.handsOver(Call->getArg(I), Param))
        continue;
      // The parameter's storage bound to a reference parameter of a
      // function the analysis can see: that function's own fact.
      if (Root.Param && Target && P < Target->getNumParams() &&
          Param->isReferenceType() && Root.isStorage(Call->getArg(I))) {
        if (ParamCallee(Target, P))
          Writes = true;
        continue;
      }
      Writes = true;
    }
    return !Writes;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; I < Construct->getNumArgs() && !Writes; ++I) {
      QualType Param = Ctor && I < Ctor->getNumParams()
                           ? Ctor->getParamDecl(I)->getType()
                           : Construct->getArg(I)->getType();
      if (!Root.handsOver(Construct->getArg(I), Param))
        continue;
      // A view made of the object (`SubTensor(*this, ...)`) whose
      // constructor only binds it to a reference or pointer field: the
      // construction writes nothing. What the view's own member functions
      // later store through that field is not followed (a view that writes
      // back into the object it was made from is rare; see the header).
      if (Ctor && I < Ctor->getNumParams() &&
          constructorOnlyBinds(Ctor, Ctor->getParamDecl(I))) {
        noteBase(Construct->getArg(I));
        continue;
      }
      Writes = true;
    }
    return !Writes;
  }

  bool VisitVarDecl(VarDecl *Var) {
    // A local reference or pointer bound to the object's storage: what is
    // later stored through it is not followed. A pointer the function only
    // ever reads as a pointer to const (ATen's packed accessor:
    // `index_t *new_sizes = this->sizes_ + 1;` handed to a view's
    // `const index_t *` parameter) writes nothing.
    if (const Expr *Init = Var->getInit())
      if (Root.handsOver(Init, Var->getType()) &&
          !(Var->getType()->isPointerType() &&
            readOnlyAsPointerToConst(Var, Function->getBody())))
        Writes = true;
    return !Writes;
  }

  bool VisitReturnStmt(ReturnStmt *Return) {
    const Expr *Value = Return->getRetValue();
    QualType Type = Function->getReturnType();
    if (!Value || !Root.handsOver(Value, Type))
      return true;
    // A reference into the object handed back to the caller of a member
    // function: the caller's own use of it decides. A pointer (stored,
    // offset, written through later) and a reference parameter handed
    // back are not followed.
    if (!Root.Param && Type->isLValueReferenceType() &&
        Root.isStorage(Value)) {
      ReturnsStorage = true;
      noteBase(Value); // `return *this`: no escape of `this` beyond it
    } else {
      Writes = true;
    }
    return !Writes;
  }

  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    // A capture by reference lets the closure write the root later; what
    // it does there is not followed.
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Root.Param && Capture.capturesVariable() &&
          Capture.getCaptureKind() == LCK_ByRef &&
          Capture.getCapturedVar() == Root.Param)
        Writes = true;
    return !Writes;
  }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    // `for (auto &x : p)` binds its elements to references.
    if (For->getRangeInit() && Root.isStorage(For->getRangeInit()) &&
        For->getLoopVariable() &&
        writableIndirection(For->getLoopVariable()->getType()))
      Writes = true;
    return !Writes;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    for (const Expr *Output : Asm->outputs())
      if (Root.isStorage(Output))
        Writes = true;
    return !Writes;
  }

  /// `this` used other than to reach a field or call a member (stored,
  /// passed on, copied as `*this`): the object may be written elsewhere.
  bool thisEscapes() const {
    return llvm::any_of(AllThis, [&](const CXXThisExpr *This) {
      return !UsedAsBase.contains(This);
    });
  }

private:
  /// `this` (or `*this`) as the base of a member access or the object of
  /// a call: what is done there is judged where it is done.
  void noteBase(const Expr *Base) {
    Base = Base->IgnoreParenImpCasts();
    if (const auto *Deref = dyn_cast<UnaryOperator>(Base);
        Deref && Deref->getOpcode() == UO_Deref)
      Base = Deref->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *This = dyn_cast<CXXThisExpr>(Base))
      UsedAsBase.insert(This);
  }

  /// \p Param of \p Ctor appears only as the initializer of reference or
  /// pointer fields (`tensor_(t)`, `ptr_(&t)`), nowhere in the body.
  static bool constructorOnlyBinds(const CXXConstructorDecl *Ctor,
                                   const ParmVarDecl *Param) {
    const FunctionDecl *Definition = nullptr;
    if (!Ctor->hasBody(Definition))
      return false;
    const auto *Def = cast<CXXConstructorDecl>(Definition);
    const ParmVarDecl *P = Def->getParamDecl(Param->getFunctionScopeIndex());
    class Uses : public RecursiveASTVisitor<Uses> {
    public:
      explicit Uses(const ParmVarDecl *P) : P(P) {}
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        Found |= Ref->getDecl() == P;
        return !Found;
      }
      const ParmVarDecl *P;
      bool Found = false;
    };
    for (const CXXCtorInitializer *Init : Def->inits()) {
      Uses U(P);
      U.TraverseStmt(Init->getInit());
      if (!U.Found)
        continue;
      const FieldDecl *Field = Init->getMember();
      if (!Field || !(Field->getType()->isReferenceType() ||
                      Field->getType()->isPointerType()))
        return false;
      const Expr *Value = Init->getInit()->IgnoreImplicit();
      if (const auto *Addr = dyn_cast<UnaryOperator>(Value);
          Addr && Addr->getOpcode() == UO_AddrOf)
        Value = Addr->getSubExpr()->IgnoreImplicit();
      const auto *Ref = dyn_cast<DeclRefExpr>(Value);
      if (!Ref || Ref->getDecl() != P)
        return false;
    }
    Uses Body(P);
    Body.TraverseStmt(Def->getBody());
    return !Body.Found;
  }

  const FunctionDecl *Function;
  StorageRoot Root;
  ObjectEffectQuery Callee;
  ParameterWriteQuery ParamCallee;
  llvm::SmallVector<const CXXThisExpr *, 16> AllThis;
  llvm::SmallPtrSet<const CXXThisExpr *, 16> UsedAsBase;
};

} // namespace

const Expr *storageAccessorObject(const CallExpr *Call,
                                  ObjectEffectQuery Effect) {
  if (!Effect)
    return nullptr;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!Method || Method->isStatic())
    return nullptr;
  QualType Type = Method->getReturnType();
  if (!Type->isLValueReferenceType() ||
      Type.getNonReferenceType().isConstQualified())
    return nullptr;
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Object = Member->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
           Op && Op->getNumArgs() > 0)
    Object = Op->getArg(0);
  if (!Object || Effect(Method) != ObjectEffect::ReturnsStorage)
    return nullptr;
  return Object;
}

ObjectEffect methodObjectEffect(const CXXMethodDecl *Method,
                                ObjectEffectQuery Callee) {
  if (!Method || Method->isStatic())
    return ObjectEffect::None;
  if (Method->isConst() && !Method->getParent()->hasMutableFields())
    return ObjectEffect::None;
  if (Method->isVirtual() || isa<CXXConstructorDecl>(Method) ||
      isa<CXXDestructorDecl>(Method) ||
      Method->isCopyAssignmentOperator() || Method->isMoveAssignmentOperator())
    return ObjectEffect::MayWrite;
  const FunctionDecl *Definition = nullptr;
  if (!Method->hasBody(Definition) || !Definition->getBody())
    return ObjectEffect::MayWrite;
  const auto *Def = cast<CXXMethodDecl>(Definition);
  Scan S(Def, StorageRoot{nullptr, Callee}, Callee, nullptr);
  S.TraverseStmt(Def->getBody());
  if (S.Writes || S.thisEscapes())
    return ObjectEffect::MayWrite;
  return S.ReturnsStorage ? ObjectEffect::ReturnsStorage : ObjectEffect::None;
}

bool functionMayWriteReferenceParameter(const FunctionDecl *Function,
                                        unsigned Index,
                                        ObjectEffectQuery MethodCallee,
                                        ParameterWriteQuery ParamCallee) {
  if (!Function || Index >= Function->getNumParams())
    return true;
  QualType Type = Function->getParamDecl(Index)->getType();
  if (!Type->isReferenceType())
    return true; // not asked: only a reference names the caller's variable
  if (Type.getNonReferenceType().isConstQualified())
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      Method && Method->isVirtual())
    return true;
  const FunctionDecl *Definition = nullptr;
  if (!Function->hasBody(Definition) || !Definition->getBody() ||
      Index >= Definition->getNumParams())
    return true;
  // A constructor's initializers bind and copy its parameters outside the
  // body: not followed.
  if (isa<CXXConstructorDecl>(Definition))
    return true;
  Scan S(Definition,
         StorageRoot{Definition->getParamDecl(Index), MethodCallee},
         MethodCallee, ParamCallee);
  S.TraverseStmt(Definition->getBody());
  return S.Writes;
}

} // namespace clang::tidy::cuda::analysis
