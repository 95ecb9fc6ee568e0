//===--- WarpLaneSetsCollect.cpp - what a lane condition is made of -------===//
//
// The collect phase of the lane-set analysis (WarpLaneSetsImpl.h): the
// launch facts about the block's rows, the variables only read, the
// parameters a call binds in call-site context, and the integer expressions
// of threadIdx.x compiled into programs to evaluate at each thread.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/lanes/WarpLaneSetsImpl.h"

#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/lanes/WarpMasks.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/bit.h"

namespace clang::tidy::cuda::analysis {

using namespace lanesets;

WarpLaneSets::Impl::Impl(const FunctionDecl *FD, ASTContext &Ctx,
                         FactQueries &Manager)
    : FD(FD), Ctx(Ctx), Manager(Manager), D(Manager.divergence(FD)),
      IsKernel(FD->hasAttr<CUDAGlobalAttr>()) {
  collectNotOnlyRead(FD->getBody(), nullptr);
  BlockExtentFact X = Manager.blockExtent(FD, 0);
  if (X.Exact && *X.Exact % 32 != 0) {
    BlockExtentFact Y = Manager.blockExtent(FD, 1);
    BlockExtentFact Z = Manager.blockExtent(FD, 2);
    // Rows narrower than a warp, or not whole warps, in a block with
    // several rows: threadIdx.x is not the lane.
    ThreadIdxIsRowIndex = Y.Exact == 1u && Z.Exact == 1u;
  }
  for (unsigned Dim = 0; Dim < 3; ++Dim) {
    BlockExtentFact Extent = Manager.blockExtent(FD, Dim);
    uint64_t Factor = Extent.Exact ? *Extent.Exact : Extent.Factor;
    BlockDimAlignLog2[Dim] =
        Factor ? llvm::countr_zero(Factor) : 0;
  }
  if (Manager.rowsAreWarpAligned(FD))
    BlockDimAlignLog2[0] = std::max(BlockDimAlignLog2[0], 5u);
}

void WarpLaneSets::Impl::collectNotOnlyRead(const Stmt *S, const Stmt *Parent) {
  if (!S)
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
      if (!Cast || Cast->getCastKind() != CK_LValueToRValue)
        NotOnlyRead.insert(Var);
    }
  for (const Stmt *Child : S->children())
    collectNotOnlyRead(Child, S);
}

const VarDecl *WarpLaneSets::Impl::cachedImmutableLocal(const Expr *E) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl() ||
      Var->getType()->isReferenceType() || !Var->getInit() ||
      Var->getParentFunctionOrMethod() != FD || NotOnlyRead.contains(Var))
    return nullptr;
  return Var;
}

const Expr *WarpLaneSets::Impl::boundParameter(const Expr *E) const {
  if (!Site || !CallerP)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Param =
      Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != FD ||
      Param->getType()->isReferenceType() || NotOnlyRead.contains(Param))
    return nullptr;
  return boundArgument(Site, Param->getFunctionScopeIndex());
}

bool WarpLaneSets::Impl::symbolsUniform(uint64_t Symbols) const {
  if (!Site || !CallerP || !CallerP->D || !CallerP->D->isAnalyzed())
    return true;
  for (unsigned I = 0; I < 64; ++I) {
    if (!(Symbols >> I & 1))
      continue;
    // The argument as the caller's analysis has it (its bindings keep
    // only the inputs a summary needs). A default is a constant.
    const Expr *Arg = I < 32 ? boundArgument(Site, I) : nullptr;
    if (!Arg)
      return false;
    if (I < Site->getNumArgs() && isa<CXXDefaultArgExpr>(Site->getArg(I)))
      continue;
    Uniformity Bound = CallerP->D->uniformityOf(Arg);
    if (!Bound.isUniformAt(Level::warp()) ||
        !CallerP->symbolsUniform(Bound.symbols()))
      return false;
  }
  return true;
}

int WarpLaneSets::Impl::add(Program &P, Node N, QualType T) const {
  if (T->isBooleanType()) {
    N.Width = 1;
    N.Signed = false;
  } else if (T->isIntegerType()) {
    N.Width = Ctx.getIntWidth(T);
    N.Signed = T->isSignedIntegerOrEnumerationType();
  }
  P.Nodes.push_back(N);
  return static_cast<int>(P.Nodes.size() - 1);
}

int WarpLaneSets::Impl::compile(Program &P, const Expr *E, unsigned Depth) {
  int N = compileValue(P, E, Depth);
  if (N >= 0 || !E)
    return N;
  E = E->IgnoreParens();
  QualType T = E->getType();
  if (!T->isIntegerType() || E->isValueDependent() || E->isTypeDependent())
    return -1;
  Node Opaque;
  Opaque.K = Node::Opaque;
  if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E)) {
    Opaque.NonNeg = true;
    if (Read->Var == BuiltinIndexRead::BlockDim)
      Opaque.Value = BlockDimAlignLog2[Read->Component == 'x'   ? 0
                                       : Read->Component == 'y' ? 1
                                                                : 2];
  }
  return add(P, Opaque, T);
}

int WarpLaneSets::Impl::compileValue(Program &P, const Expr *E,
                                     unsigned Depth) {
  if (!E || Depth > 24)
    return -1;
  E = E->IgnoreParens();
  QualType T = E->getType();
  if (!T->isIntegerType() && !T->isBooleanType())
    return -1;
  if (!E->isValueDependent() && !E->isTypeDependent()) {
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Ctx)) {
      Node N;
      N.K = Node::Const;
      llvm::APSInt V = Result.Val.getInt();
      N.Value = V.isSigned() ? V.getSExtValue()
                             : static_cast<int64_t>(V.getZExtValue());
      return add(P, N, T);
    }
  }
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return compile(P, Full->getSubExpr(), Depth + 1);
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    return compile(P, Temp->getSubExpr(), Depth + 1);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return compile(P, Default->getExpr(), Depth + 1);
  if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E)) {
    if (Read->Var != BuiltinIndexRead::ThreadIdx || Read->Component != 'x' ||
        !ThreadIdxIsRowIndex)
      return -1;
    Node N;
    N.K = Node::Tid;
    return add(P, N, T);
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return compile(P, Cast->getSubExpr(), Depth + 1);
    case CK_IntegralCast:
    case CK_BooleanToSignedIntegral: {
      int A = compile(P, Cast->getSubExpr(), Depth + 1);
      if (A < 0)
        return -1;
      Node N;
      N.K = Node::Cast;
      N.A = A;
      return add(P, N, T);
    }
    case CK_IntegralToBoolean: {
      int A = compile(P, Cast->getSubExpr(), Depth + 1);
      if (A < 0)
        return -1;
      Node N;
      N.K = Node::ToBool;
      N.A = A;
      return add(P, N, T);
    }
    default:
      return -1;
    }
  }
  if (const auto *Un = dyn_cast<UnaryOperator>(E)) {
    switch (Un->getOpcode()) {
    case UO_Minus:
    case UO_Not:
    case UO_LNot:
    case UO_Plus: {
      int A = compile(P, Un->getSubExpr(), Depth + 1);
      if (A < 0)
        return -1;
      Node N;
      N.K = Node::Unary;
      N.Op = Un->getOpcode();
      N.A = A;
      return add(P, N, T);
    }
    default:
      return -1;
    }
  }
  if (const auto *Bin = dyn_cast<BinaryOperator>(E)) {
    if (Bin->isAssignmentOp() || Bin->isCompoundAssignmentOp() ||
        Bin->isPtrMemOp())
      return -1;
    int A = compile(P, Bin->getLHS(), Depth + 1);
    if (A < 0)
      return -1;
    int B = compile(P, Bin->getRHS(), Depth + 1);
    if (B < 0)
      return -1;
    Node N;
    N.K = Node::Binary;
    N.Op = Bin->getOpcode();
    N.A = A;
    N.B = B;
    return add(P, N, T);
  }
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    int A = compile(P, Cond->getCond(), Depth + 1);
    int B = A < 0 ? -1 : compile(P, Cond->getTrueExpr(), Depth + 1);
    int C = B < 0 ? -1 : compile(P, Cond->getFalseExpr(), Depth + 1);
    if (C < 0)
      return -1;
    Node N;
    N.K = Node::Cond;
    N.A = A;
    N.B = B;
    N.C = C;
    return add(P, N, T);
  }
  if (const VarDecl *Var = cachedImmutableLocal(E))
    return compile(P, Var->getInit(), Depth + 1);
  if (const Expr *Bound = boundParameter(E))
    return CallerP->compile(P, Bound, Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // thread_rank() is a static member in CUDA 13 (a plain call through a
    // member expression), an ordinary member elsewhere.
    if (const auto *Member = dyn_cast<MemberExpr>(
            Call->getCallee()->IgnoreParenImpCasts()))
      return Call->getNumArgs() == 0
                 ? compileGroupRank(
                       P, dyn_cast<CXXMethodDecl>(Member->getMemberDecl()),
                       Member->getBase(), T)
                 : -1;
    return compileBallot(P, Call, T, Depth);
  }
  return -1;
}

int WarpLaneSets::Impl::compileGroupRank(Program &P,
                                         const CXXMethodDecl *Method,
                                         const Expr *Object, QualType T) const {
  if (Object)
    Object = Object->IgnoreParenImpCasts();
  if (!Method || !Method->getIdentifier() || !Object)
    return -1;
  llvm::StringRef Name = Method->getName();
  const bool ThreadRank = isThreadRankName(Name);
  if (!ThreadRank && !isMetaGroupRankName(Name))
    return -1;
  std::optional<GroupKind> Kind = groupKindOfType(Object->getType());
  if (!Kind)
    return -1;
  Node Rank;
  Rank.K = Node::Tid;
  int Tid = add(P, Rank, Ctx.UnsignedIntTy);
  if (*Kind == GroupKind::ThreadBlock && ThreadRank) {
    Node N;
    N.K = Node::Cast;
    N.A = Tid;
    return add(P, N, T);
  }
  if (*Kind != GroupKind::Tile)
    return -1;
  std::optional<unsigned> Size = tileSizeOfType(Object->getType());
  if (!Size || *Size == 0 || (*Size & (*Size - 1)))
    return -1;
  Node SizeNode;
  SizeNode.K = Node::Const;
  SizeNode.Value = *Size;
  int S = add(P, SizeNode, Ctx.UnsignedIntTy);
  Node N;
  N.K = Node::Binary;
  N.Op = ThreadRank ? BO_Rem : BO_Div;
  N.A = Tid;
  N.B = S;
  int Value = add(P, N, Ctx.UnsignedIntTy);
  Node Out;
  Out.K = Node::Cast;
  Out.A = Value;
  return add(P, Out, T);
}

int WarpLaneSets::Impl::compileBallot(Program &P, const CallExpr *Call,
                                      QualType T, unsigned Depth) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!isBallotSyncName(maskedWarpIntrinsicName(Callee)) ||
      Call->getNumArgs() != 2)
    return -1;
  auto Found = Reach.find(Call);
  if (Found == Reach.end() || !Found->second.Exact)
    return -1;
  int A = compile(P, Call->getArg(0), Depth + 1);
  int B = A < 0 ? -1 : compile(P, Call->getArg(1), Depth + 1);
  if (B < 0)
    return -1;
  Node N;
  N.K = Node::Ballot;
  N.A = A;
  N.B = B;
  N.Voters = &Found->second.Lanes;
  return add(P, N, T);
}

} // namespace clang::tidy::cuda::analysis
