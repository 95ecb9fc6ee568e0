//===--- GlobalAccessesCollect.cpp - accesses through pointers --------------===//
//
// The collect phase of the global-memory access analysis
// (GlobalAccessesImpl.h): the reads and writes through the kernel's pointer
// parameters, each with its offset, the loops around it and the guards
// that decide whether a thread reaches it; the barrier intervals.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/GlobalAccessesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace globalaccess;

// --- collection ---------------------------------------------------------------

bool GlobalAccessAnalysis::Impl::resolve(const Expr *E, Offset &Out,
                                         unsigned Depth) {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_NoOp:
    case CK_ArrayToPointerDecay:
    case CK_LValueToRValue:
      return resolve(Cast->getSubExpr(), Out, Depth + 1);
    default:
      return false;
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return false;
    if (isSharedVar(Var)) {
      if (!Var->getType()->isArrayType())
        return false;
      Out.Base = Var;
      Out.Shared = true;
      return true;
    }
    if (!Var->getType()->isPointerType() || Mutated.contains(Var))
      return false;
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
      if (Opts.Call && Param->getDeclContext() == FD) {
        unsigned Index = Param->getFunctionScopeIndex();
        if (Index >= Opts.Call->getNumArgs())
          return false;
        return resolve(Opts.Call->getArg(Index), Out, Depth + 1);
      }
      if (Param->getDeclContext() != kernel())
        return false;
      Out.Base = Param;
      Out.Shared = false;
      return true;
    }
    if (Var->hasLocalStorage() && Var->getInit())
      return resolve(Var->getInit(), Out, Depth + 1);
    return false;
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    if (Unary->getOpcode() != UO_AddrOf)
      return false;
    const auto *Sub =
        dyn_cast<ArraySubscriptExpr>(Unary->getSubExpr()->IgnoreParens());
    if (!Sub)
      return false;
    return resolve(Sub, Out, Depth + 1);
  }
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    QualType T = Sub->getType();
    if (T->isIncompleteType() || T->isDependentType())
      return false;
    if (!resolve(Sub->getBase(), Out, Depth + 1))
      return false;
    int64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
    Out.Terms.emplace_back(Sub->getIdx(), Size);
    Out.ElementSize = Size;
    return true;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() != BO_Add && Binary->getOpcode() != BO_Sub)
      return false;
    const Expr *Ptr = Binary->getLHS();
    const Expr *Int = Binary->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Int);
    if (!Ptr->getType()->isPointerType() ||
        !Int->getType()->isIntegralOrEnumerationType() ||
        (Binary->getOpcode() == BO_Sub && Ptr != Binary->getLHS()))
      return false;
    QualType Pointee = Ptr->getType()->getPointeeType();
    if (Pointee->isIncompleteType() || Pointee->isDependentType())
      return false;
    if (!resolve(Ptr, Out, Depth + 1))
      return false;
    int64_t Size = Ctx.getTypeSizeInChars(Pointee).getQuantity();
    Out.Terms.emplace_back(Int, Binary->getOpcode() == BO_Sub ? -Size : Size);
    return true;
  }
  return false;
}

std::optional<MemoryAccess::Kind>
GlobalAccessAnalysis::Impl::kindOf(const Expr *Where) const {
  const Stmt *Up = Parents->getParentIgnoreParens(Where);
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Up))
    return Cast->getCastKind() == CK_LValueToRValue
               ? std::optional<MemoryAccess::Kind>(MemoryAccess::Read)
               : std::nullopt;
  if (const auto *Binary = dyn_cast_or_null<BinaryOperator>(Up)) {
    if (Binary->getLHS()->IgnoreParens() != Where)
      return std::nullopt;
    if (Binary->getOpcode() == BO_Assign)
      return MemoryAccess::Write;
    if (Binary->isCompoundAssignmentOp())
      return MemoryAccess::ReadWrite;
    return std::nullopt;
  }
  if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Up))
    if (Unary->isIncrementDecrementOp())
      return MemoryAccess::ReadWrite;
  return std::nullopt;
}

const VarDecl *GlobalAccessAnalysis::Impl::counterOf(const ForStmt *For) {
  if (auto It = Counters.find(For); It != Counters.end())
    return It->second;
  const VarDecl *Found = loopVariable(For, /*AllowAssignedInit=*/false);
  if (Found && !Found->getType()->isIntegerType())
    Found = nullptr;
  if (Found) {
    // Changed only by the step.
    struct Writes : RecursiveASTVisitor<Writes> {
      const VarDecl *Var;
      ParentMap &PM;
      bool Written = false;
      Writes(const VarDecl *Var, ParentMap &PM) : Var(Var), PM(PM) {}
      bool VisitDeclRefExpr(DeclRefExpr *Ref) {
        if (Ref->getDecl() != Var)
          return true;
        if (!isPlainRead(Ref, PM))
          Written = true;
        return true;
      }
    } Scan(Found, *Parents);
    Scan.TraverseStmt(const_cast<Stmt *>(For->getBody()));
    Scan.TraverseStmt(const_cast<Expr *>(For->getCond()));
    if (Scan.Written)
      Found = nullptr;
  }
  Counters[For] = Found;
  return Found;
}

void GlobalAccessAnalysis::Impl::contextIn(const Stmt *From, const Stmt *Top,
                                           ParentMap &PM, Info &I) {
  const Stmt *Child = From;
  std::vector<const ForStmt *> Loops;
  for (unsigned Depth = 0; Child && Child != Top && Depth < 256; ++Depth) {
    const Stmt *Up = PM.getParent(Child);
    if (!Up)
      break;
    if (std::optional<std::pair<const Expr *, bool>> Guard =
            branchCondition(Up, Child)) {
      I.Guards.push_back(*Guard);
    } else if (const auto *While = dyn_cast<WhileStmt>(Up)) {
      if (Child == While->getBody())
        I.Guards.emplace_back(While->getCond(), true);
    } else if (const auto *For = dyn_cast<ForStmt>(Up)) {
      if (Child == For->getBody()) {
        if (&PM == Parents.get() && counterOf(For))
          Loops.push_back(For);
        else if (For->getCond())
          I.Guards.emplace_back(For->getCond(), true);
      }
    } else if (const auto *Block = dyn_cast<CompoundStmt>(Up)) {
      // `if (c) return;` (or break / continue) before it: it needs !c.
      for (const Stmt *S : Block->body()) {
        if (S == Child)
          break;
        const auto *Exit = dyn_cast<IfStmt>(S);
        if (!Exit || Exit->getElse())
          continue;
        const Stmt *Then = Exit->getThen();
        if (const auto *Inner = dyn_cast<CompoundStmt>(Then);
            Inner && Inner->size() == 1)
          Then = Inner->body_front();
        if (isa<ReturnStmt, BreakStmt, ContinueStmt>(Then))
          I.Guards.emplace_back(Exit->getCond(), false);
      }
    }
    Child = Up;
  }
  std::reverse(Loops.begin(), Loops.end());
  I.Loops.insert(I.Loops.begin(), Loops.begin(), Loops.end());
}

void GlobalAccessAnalysis::Impl::contextOf(const Expr *Where, Info &I) {
  contextIn(Where, FD->getBody(), *Parents, I);
  if (Opts.Call && CallerParents)
    contextIn(Opts.Call, Opts.Caller->getBody(), *CallerParents, I);
}

void GlobalAccessAnalysis::Impl::addAccess(MemoryAccess::Kind K,
                                           const Expr *Where, Offset Off,
                                           std::optional<Tile> T) {
  MemoryAccess A;
  A.K = K;
  A.Base = Off.Base;
  A.Shared = Off.Shared;
  A.Where = Where;
  Info I;
  I.Off = std::move(Off);
  I.T = T;
  contextOf(Where, I);
  Accesses.push_back(A);
  Infos.push_back(std::move(I));
}

void GlobalAccessAnalysis::Impl::collect() {
  struct Scan : RecursiveASTVisitor<Scan> {
    std::vector<const Expr *> Found;
    std::vector<const CallExpr *> Calls;
    bool TwoDimensional = false;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
      Found.push_back(E);
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *E) {
      if (E->getOpcode() == UO_Deref)
        Found.push_back(E);
      return true;
    }
    bool VisitCallExpr(CallExpr *E) {
      Calls.push_back(E);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
        if (Read->Var == BuiltinIndexRead::ThreadIdx && Read->Component &&
            Read->Component != 'x')
          TwoDimensional = true;
      return true;
    }
    bool VisitPseudoObjectExpr(PseudoObjectExpr *E) {
      if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
        if (Read->Var == BuiltinIndexRead::ThreadIdx && Read->Component &&
            Read->Component != 'x')
          TwoDimensional = true;
      return true;
    }
  } S;
  S.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  if (S.TwoDimensional)
    return;
  for (const Expr *E : S.Found) {
    if (E->getType()->isArrayType() || E->isTypeDependent())
      continue;
    std::optional<MemoryAccess::Kind> K = kindOf(E);
    if (!K)
      continue;
    Offset Off;
    bool Ok = false;
    if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      Ok = resolve(Sub, Off);
    } else if (const auto *Deref = dyn_cast<UnaryOperator>(E)) {
      Ok = resolve(Deref->getSubExpr(), Off);
      QualType T = Deref->getType();
      if (Ok && !T->isIncompleteType() && !T->isDependentType())
        Off.ElementSize = Ctx.getTypeSizeInChars(T).getQuantity();
    }
    if (!Ok || !Off.Base)
      continue;
    // __shared__ memory: only the reads of wmma tiles are this file's.
    if (Off.Shared && *K != MemoryAccess::Read)
      continue;
    addAccess(*K, E, std::move(Off));
  }
  for (const CallExpr *Call : S.Calls) {
    if (!isWmmaStoreMatrixSync(Call->getDirectCallee()) ||
        Call->getNumArgs() < 3)
      continue;
    Offset Off;
    if (!resolve(Call->getArg(0), Off) || !Off.Base)
      continue;
    QualType PtrType = Call->getArg(0)->IgnoreParenImpCasts()->getType();
    if (!PtrType->isPointerType())
      PtrType = Call->getArg(0)->getType();
    if (!PtrType->isPointerType())
      continue;
    QualType Elem = PtrType->getPointeeType();
    if (Elem->isIncompleteType() || Elem->isDependentType())
      continue;
    Off.ElementSize = Ctx.getTypeSizeInChars(Elem).getQuantity();
    const auto *Frag = Call->getArg(1)->getType()->getAsCXXRecordDecl();
    const auto *Spec =
        dyn_cast_or_null<ClassTemplateSpecializationDecl>(Frag);
    if (!Spec || Spec->getTemplateArgs().size() < 3)
      continue;
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args[1].getKind() != TemplateArgument::Integral ||
        Args[2].getKind() != TemplateArgument::Integral)
      continue;
    Tile T;
    T.M = Args[1].getAsIntegral().getZExtValue();
    T.N = Args[2].getAsIntegral().getZExtValue();
    T.Ldm = Call->getArg(2);
    if (Call->getNumArgs() >= 4)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(
              Call->getArg(3)->IgnoreParenImpCasts()))
        if (std::optional<WmmaLayout> Layout = wmmaLayoutOf(Ref->getDecl()))
          T.RowMajor = *Layout == WmmaLayout::RowMajor;
    if (T.M == 0 || T.N == 0 || T.M > 64 || T.N > 64)
      continue;
    addAccess(MemoryAccess::TileStore, Call, std::move(Off), T);
  }
  // Source order.
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<unsigned> Order(Accesses.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    SourceLocation LA = Accesses[A].Where->getBeginLoc();
    SourceLocation LB = Accesses[B].Where->getBeginLoc();
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A < B;
  });
  std::vector<MemoryAccess> SortedA;
  std::vector<Info> SortedI;
  for (unsigned I : Order) {
    SortedA.push_back(Accesses[I]);
    SortedI.push_back(std::move(Infos[I]));
  }
  Accesses = std::move(SortedA);
  Infos = std::move(SortedI);
}

void GlobalAccessAnalysis::Impl::buildIntervals() {
  Intervals = std::make_unique<BarrierIntervals>(
      *D->cfg(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        return Call && WarpSyncs.isWarpSync(Call);
      });
  for (const CFGBlock *Block : *D->cfg()) {
    if (!Block)
      continue;
    unsigned Index = 0;
    for (const CFGElement &E : *Block) {
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        ElementAt.try_emplace(S->getStmt(), Block, Index);
      ++Index;
    }
  }
}

bool GlobalAccessAnalysis::Impl::reaches(const Stmt *From, const Stmt *To) {
  auto F = ElementAt.find(From);
  if (F == ElementAt.end() || !ElementAt.contains(To))
    return false;
  llvm::DenseSet<const CFGBlock *> Entered;
  std::vector<std::pair<const CFGBlock *, unsigned>> Work{
      {F->second.first, F->second.second + 1}};
  while (!Work.empty()) {
    auto [Block, Start] = Work.back();
    Work.pop_back();
    bool Stopped = false;
    for (unsigned I = Start; I < Block->size(); ++I) {
      std::optional<CFGStmt> S = (*Block)[I].getAs<CFGStmt>();
      if (!S)
        continue;
      if (S->getStmt() == To)
        return true;
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt());
          Call && WarpSyncs.isWarpSync(Call)) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    for (const CFGBlock::AdjacentBlock &Next : Block->succs())
      if (const CFGBlock *B = Next.getReachableBlock())
        if (Entered.insert(B).second)
          Work.emplace_back(B, 0);
  }
  return false;
}

} // namespace clang::tidy::cuda::analysis
