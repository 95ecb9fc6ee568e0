//===--- SharedAccessesCollect.cpp - the accesses and the block shape -------===//
//
// The collect phase of the shared-memory access analysis
// (SharedAccessesImpl.h): the reads and writes of the kernel's __shared__
// variables and of the pointers that stand for them, the block shape the
// threads are evaluated for, and the barrier intervals.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/SharedAccessesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace sharedaccess;

void SharedAccessAnalysis::Impl::collect() {
  const Stmt *Body = FD->getBody();
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  const Stmt *CallerBody =
      Opts.Call && Opts.Caller ? Opts.Caller->getBody() : nullptr;
  if (CallerBody)
    Parents->addStmt(const_cast<Stmt *>(CallerBody));
  struct Refs : RecursiveASTVisitor<Refs> {
    ParentMap &Parents;
    Impl &Facts;
    llvm::DenseSet<const VarDecl *> &NotOnlyRead;
    llvm::DenseMap<const VarDecl *, const Stmt *> &ScopeOf;
    std::vector<const DeclRefExpr *> Found;
    std::vector<const DeclRefExpr *> Pointers;
    std::vector<const VarDecl *> PointerLocals;
    Refs(ParentMap &Parents, Impl &Facts)
        : Parents(Parents), Facts(Facts), NotOnlyRead(Facts.NotOnlyRead),
          ScopeOf(Facts.ScopeOf) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (isSharedVar(Var))
        Found.push_back(Ref);
      else if (Var && Var->getType()->isPointerType())
        Pointers.push_back(Ref);
      if (Var && !isPlainRead(Ref, Parents)) {
        NotOnlyRead.insert(Var);
        Facts.NotOnlyReadRefs[Var].push_back(Ref);
      }
      return true;
    }
    bool VisitDeclStmt(DeclStmt *Declaration) {
      const Stmt *Scope = Parents.getParent(Declaration);
      for (const clang::Decl *D : Declaration->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D)) {
          ScopeOf.try_emplace(Var, Scope);
          if (Var->getType()->isPointerType() && Var->hasLocalStorage() &&
              Var->getInit())
            PointerLocals.push_back(Var);
        }
      return true;
    }
    // A lambda's body can change what it captures by reference.
    bool VisitLambdaExpr(LambdaExpr *Lambda) {
      addCapturedVariables(Lambda, NotOnlyRead);
      return true;
    }
  } Scan(*Parents, *this);
  Scan.TraverseStmt(const_cast<Stmt *>(Body));
  std::vector<const DeclRefExpr *> Found = std::move(Scan.Found);
  std::vector<const DeclRefExpr *> Pointers = std::move(Scan.Pointers);
  // The caller's body: what its locals are, not its accesses.
  if (CallerBody)
    Scan.TraverseStmt(const_cast<Stmt *>(CallerBody));
  // The pointers that stand for an array.
  if (Opts.Call)
    for (const ParmVarDecl *Param : FD->parameters()) {
      unsigned Index = Param->getFunctionScopeIndex();
      if (!Param->getType()->isPointerType() ||
          Index >= Opts.Call->getNumArgs() || NotOnlyRead.contains(Param))
        continue;
      if (const VarDecl *Array =
              resolveArray(Opts.Call->getArg(Index), nullptr))
        Alias[Param] = Array;
    }
  for (const VarDecl *Local : Scan.PointerLocals) {
    if (NotOnlyRead.contains(Local))
      continue;
    const DeclRefExpr *Through = nullptr;
    if (const VarDecl *Array = resolveArray(Local->getInit(), &Through)) {
      Alias[Local] = Array;
      if (Through)
        AliasInits.insert(Through);
    }
  }
  for (const DeclRefExpr *Ref : Found)
    if (!AliasInits.contains(Ref))
      classify(Ref, cast<VarDecl>(Ref->getDecl()));
  for (const DeclRefExpr *Ref : Pointers)
    if (auto It = Alias.find(cast<VarDecl>(Ref->getDecl()));
        It != Alias.end() && !AliasInits.contains(Ref))
      classifyPointer(Ref, It->second);
  if (!Untracked.empty())
    llvm::erase_if(Accesses, [&](const SharedAccess &A) {
      return Untracked.contains(A.Var);
    });
}

void SharedAccessAnalysis::Impl::classify(const DeclRefExpr *Ref,
                                          const VarDecl *Var) {
  SharedAccess A;
  A.Var = Var;
  A.Ref = Ref;
  // Up through the subscripts to the whole access.
  const Expr *Whole = Ref;
  std::vector<const Expr *> Indices;
  while (true) {
    const Stmt *Up = Parents->getParentIgnoreParens(Whole);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up);
        Cast && Cast->getCastKind() == CK_ArrayToPointerDecay) {
      const Stmt *Above = Parents->getParentIgnoreParens(Cast);
      const auto *Subscript = dyn_cast_or_null<ArraySubscriptExpr>(Above);
      if (Subscript && Subscript->getBase()->IgnoreParens() == Cast) {
        Indices.push_back(Subscript->getIdx());
        Whole = Subscript;
        continue;
      }
      // The array decays to a pointer that goes somewhere else.
      Untracked.insert(Var);
      return;
    }
    break;
  }
  // A scalar, or an array read whole, needs nothing more; an array used
  // other than by subscripts (or subscripted through fewer dimensions than
  // it has) escapes.
  unsigned Dims = 0;
  QualType Element = Var->getType();
  for (const ArrayType *Array = Ctx.getAsArrayType(Element); Array;
       Array = Ctx.getAsArrayType(Element)) {
    Element = Array->getElementType();
    Dims += 1;
  }
  if (Indices.size() != Dims) {
    Untracked.insert(Var);
    return;
  }
  if (!Var->getType()->isArrayType() && !Var->getType()->isScalarType()) {
    Untracked.insert(Var); // structs: members are not tracked
    return;
  }
  A.Where = Whole;
  A.Indices = Indices;
  classifyUse(A, Whole);
}

const VarDecl *SharedAccessAnalysis::Impl::resolveArray(
    const Expr *E, const DeclRefExpr **Through, unsigned Depth) {
  if (!E || Depth > 4)
    return nullptr;
  E = E->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(E);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf) {
    // &s[0]
    const auto *Sub =
        dyn_cast<ArraySubscriptExpr>(AddrOf->getSubExpr()->IgnoreParens());
    std::optional<int64_t> Zero =
        Sub ? Eval.constant(Sub->getIdx()->IgnoreParenImpCasts()) : std::nullopt;
    if (!Zero || *Zero != 0)
      return nullptr;
    Ref = dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
  }
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var)
    return nullptr;
  if (isSharedVar(Var)) {
    const auto *Array = Ctx.getAsConstantArrayType(Var->getType());
    if (!Array && !Ctx.getAsIncompleteArrayType(Var->getType()))
      return nullptr;
    QualType Element = Ctx.getAsArrayType(Var->getType())->getElementType();
    if (Element->isArrayType() || !Element->isScalarType())
      return nullptr;
    if (Through)
      *Through = Ref;
    return Var;
  }
  // A bound parameter, or a local of the caller (or of this function) that
  // holds one.
  if (auto It = Alias.find(Var); It != Alias.end()) {
    if (Through)
      *Through = Ref;
    return It->second;
  }
  if (Var->getType()->isPointerType() && Var->hasLocalStorage() &&
      !isa<ParmVarDecl>(Var) && Var->getInit() && !NotOnlyRead.contains(Var)) {
    const VarDecl *Array = resolveArray(Var->getInit(), nullptr, Depth + 1);
    if (Array && Through)
      *Through = Ref;
    return Array;
  }
  return nullptr;
}

void SharedAccessAnalysis::Impl::classifyPointer(const DeclRefExpr *Ref,
                                                 const VarDecl *Var) {
  // p[i]: the pointer's value read, then subscripted.
  const auto *Load =
      dyn_cast_or_null<ImplicitCastExpr>(Parents->getParentIgnoreParens(Ref));
  const auto *Subscript =
      Load && Load->getCastKind() == CK_LValueToRValue
          ? dyn_cast_or_null<ArraySubscriptExpr>(
                Parents->getParentIgnoreParens(Load))
          : nullptr;
  if (!Subscript || Subscript->getBase()->IgnoreParens() != Load) {
    Untracked.insert(Var); // *p, p + k, p passed on: not followed
    return;
  }
  SharedAccess A;
  A.Var = Var;
  A.Ref = Ref;
  A.Where = Subscript;
  A.Indices = {Subscript->getIdx()};
  A.ThroughPointer = true;
  classifyUse(A, Subscript);
}

void SharedAccessAnalysis::Impl::classifyUse(SharedAccess &A,
                                             const Expr *Whole) {
  const VarDecl *Var = A.Var;
  const Stmt *Up = Parents->getParentIgnoreParens(Whole);
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up);
      Cast && Cast->getCastKind() == CK_LValueToRValue) {
    A.K = SharedAccess::Read;
  } else if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(Up);
             Binary && Binary->getLHS()->IgnoreParens() == Whole &&
             Binary->isAssignmentOp()) {
    A.K = Binary->getOpcode() == BO_Assign ? SharedAccess::Write
                                           : SharedAccess::ReadWrite;
    if (Binary->getOpcode() == BO_Assign)
      A.Stored = Binary->getRHS();
  } else if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Up);
             Unary && Unary->isIncrementDecrementOp()) {
    A.K = SharedAccess::ReadWrite;
  } else if (const auto *AddrOf = dyn_cast_or_null<UnaryOperator>(Up);
             AddrOf && AddrOf->getOpcode() == UO_AddrOf) {
    const Stmt *Arg =
        Parents->getParentIgnoreParenImpCasts(const_cast<UnaryOperator *>(AddrOf));
    const auto *Call = dyn_cast_or_null<CallExpr>(Arg);
    const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getIdentifier() ||
        !hasAtomicPrefix(Callee->getName()) || Call->getNumArgs() == 0 ||
        Call->getArg(0)->IgnoreParenImpCasts() != AddrOf) {
      Untracked.insert(Var);
      return;
    }
    A.K = SharedAccess::Atomic;
  } else {
    Untracked.insert(Var);
    return;
  }
  Accesses.push_back(A);
}

void SharedAccessAnalysis::Impl::chooseShape() {
  bool UsesY = false;
  bool UsesZ = false;
  struct Reads : RecursiveASTVisitor<Reads> {
    bool &Y;
    bool &Z;
    Reads(bool &Y, bool &Z) : Y(Y), Z(Z) {}
    bool VisitExpr(Expr *E) {
      if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E)) {
        if (Read->Var == BuiltinIndexRead::ThreadIdx ||
            Read->Var == BuiltinIndexRead::BlockDim) {
          Y = Y || Read->Component == 'y';
          Z = Z || Read->Component == 'z';
        }
      }
      return true;
    }
  } Scan(UsesY, UsesZ);
  Scan.TraverseStmt(FD->getBody());
  const FunctionDecl *Kernel = Opts.Caller ? Opts.Caller : FD;
  if (Kernel != FD)
    Scan.TraverseStmt(Kernel->getBody());
  Shape = {UsesY ? 16u : 256u, UsesY ? 16u : 1u, UsesZ ? 2u : 1u};
  if (UsesZ)
    Shape[0] = Shape[1] = 8;
  Known = {};
  for (unsigned Dim = 0; Dim < 3; ++Dim) {
    BlockExtentFact Fact = Manager.blockExtent(Kernel, Dim);
    if (Fact.Exact && *Fact.Exact > 0 && *Fact.Exact <= MaxBlockThreads) {
      Shape[Dim] = static_cast<unsigned>(*Fact.Exact);
      Known[Dim] = true;
    }
  }
  // A guessed extent is at most the length of an array dimension that
  // threadIdx of that extent subscripts directly (`tile[threadIdx.x]` of a
  // float[4] array: at most 4 threads in x, or the access is out of bounds).
  for (const SharedAccess &A : Accesses) {
    QualType Type = A.Var->getType();
    for (const Expr *Index : A.Indices) {
      const auto *Array =
          dyn_cast_or_null<ConstantArrayType>(Ctx.getAsArrayType(Type));
      if (!Array)
        break;
      Type = Array->getElementType();
      const Expr *Plain = Index->IgnoreParenImpCasts();
      std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(Plain);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Plain); !Read && Ref)
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
            Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
            Var->getInit() && !isMutated(Var))
          Read = asBuiltinIndexRead(Var->getInit()->IgnoreParenImpCasts());
      if (!Read || Read->Var != BuiltinIndexRead::ThreadIdx || !Read->Component)
        continue;
      unsigned Dim = Read->Component == 'y' ? 1 : Read->Component == 'z' ? 2 : 0;
      uint64_t Length = Array->getSize().getZExtValue();
      if (!Known[Dim] && Length > 0 && Length < Shape[Dim])
        Shape[Dim] = static_cast<unsigned>(Length);
    }
  }
  // Down to MaxThreads by halving the largest guessed extent; the launches'
  // extents stay as they are (a 32 x k block halved to 16 x k would no longer
  // be the block the kernel's index arithmetic is written for).
  while (Shape[0] * Shape[1] * Shape[2] > MaxThreads) {
    unsigned *Largest = nullptr;
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      if (!Known[Dim] && Shape[Dim] > 1 && (!Largest || Shape[Dim] > *Largest))
        Largest = &Shape[Dim];
    if (!Largest)
      break;
    *Largest /= 2;
  }
  // (A block is at most 1024 threads; more from the launches is not a block.)
  if (Shape[0] * Shape[1] * Shape[2] > MaxBlockThreads)
    Shape = {0, 0, 0};
}

void SharedAccessAnalysis::Impl::buildIntervals() {
  D = Manager.divergence(FD);
  if (!D || !D->isAnalyzed() || !D->cfg())
    return;
  if (Opts.Caller)
    CallerD = Manager.divergence(Opts.Caller);
  Intervals = std::make_unique<BarrierIntervals>(
      *D->cfg(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        if (!Call)
          return false;
        if (Opts.BarrierScope <= Scope::Warp && WarpSyncs.isWarpSync(Call))
          return true;
        if (std::optional<BarrierCall> Barrier = asBarrierCall(Call))
          return Barrier->BarrierScope >= Scope::Block;
        // A function that runs a block barrier on some path counts as one:
        // that errs towards no finding.
        if (const FunctionDecl *Callee = Call->getDirectCallee())
          if (const CallSummary *Summary = Manager.summary(Callee))
            return llvm::any_of(Summary->Barriers, [](const BarrierSite &S) {
              return S.BarrierScope >= Scope::Block;
            });
        return false;
      });
  std::vector<const Stmt *> Points;
  Points.reserve(Accesses.size());
  for (const SharedAccess &A : Accesses)
    Points.push_back(A.Ref);
  Intervals->relate(Points, [&](const CFGBlock *Block) {
    const Stmt *Cond = Block->getTerminatorCondition();
    const auto *E = dyn_cast_or_null<Expr>(Cond);
    return !E || !uniformAt(*D, E, Opts.BarrierScope);
  });
}

} // namespace clang::tidy::cuda::analysis
