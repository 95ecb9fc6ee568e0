//===--- WarpLaneSets.cpp - which lanes of a warp reach each call ---------===//

#include "checks/analysis/WarpLaneSets.h"

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/CooperativeGroups.h"
#include "checks/analysis/CudaBuiltins.h"
#include "checks/analysis/DivergenceAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <vector>

namespace clang::tidy::cuda::analysis {

WarpLanes WarpLanes::all() {
  WarpLanes L;
  L.Bits.fill(~static_cast<LaneBits>(0));
  return L;
}

bool WarpLanes::empty() const {
  return llvm::all_of(Bits, [](LaneBits B) { return B == 0; });
}

WarpLanes WarpLanes::operator|(const WarpLanes &O) const {
  WarpLanes R;
  for (unsigned W = 0; W < WarpsPerRow; ++W)
    R.Bits[W] = Bits[W] | O.Bits[W];
  return R;
}

WarpLanes WarpLanes::operator&(const WarpLanes &O) const {
  WarpLanes R;
  for (unsigned W = 0; W < WarpsPerRow; ++W)
    R.Bits[W] = Bits[W] & O.Bits[W];
  return R;
}

WarpLanes WarpLanes::without(const WarpLanes &O) const {
  WarpLanes R;
  for (unsigned W = 0; W < WarpsPerRow; ++W)
    R.Bits[W] = Bits[W] & ~O.Bits[W];
  return R;
}

llvm::StringRef maskedWarpIntrinsicName(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD) ||
      FD->getNumParams() == 0 ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      !FD->getParamDecl(0)->getType()->isIntegerType())
    return {};
  llvm::StringRef Name = FD->getName();
  bool Known =
      llvm::StringSwitch<bool>(Name)
          .Cases({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                  "__shfl_xor_sync"},
                 true)
          .Cases({"__ballot_sync", "__any_sync", "__all_sync", "__uni_sync"},
                 true)
          .Cases({"__match_any_sync", "__match_all_sync", "__syncwarp"}, true)
          .Cases({"__reduce_add_sync", "__reduce_min_sync",
                  "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
                  "__reduce_xor_sync"},
                 true)
          .Default(false);
  return Known ? Name : llvm::StringRef();
}

namespace {

bool isActiveMaskCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts()
                                                  : nullptr);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->getIdentifier() &&
         Callee->getName() == "__activemask" && Call->getNumArgs() == 0;
}

/// A local of \p FD given one value at its declaration and never changed.
const VarDecl *immutableLocal(const Expr *E, const FunctionDecl *FD,
                              ExprMutationAnalyzer &Mutations) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl() ||
      Var->getType()->isReferenceType() || !Var->getInit() ||
      Var->getParentFunctionOrMethod() != FD || Mutations.isMutated(Var))
    return nullptr;
  return Var;
}

} // namespace

bool isActiveMaskArgument(const Expr *Mask, const FunctionDecl *FD,
                          ASTContext &Ctx) {
  if (!Mask)
    return false;
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Mask))
    Mask = Default->getExpr();
  if (isActiveMaskCall(Mask))
    return true;
  if (!FD || !FD->getBody())
    return false;
  // The mutation analysis walks the body: ask it only about a local whose
  // initializer is __activemask().
  const auto *Ref = dyn_cast<DeclRefExpr>(Mask->IgnoreParenCasts());
  const auto *Local = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Local || !isActiveMaskCall(Local->getInit()))
    return false;
  ExprMutationAnalyzer Mutations(*FD->getBody(), Ctx);
  return immutableLocal(Mask->IgnoreParenCasts(), FD, Mutations) != nullptr;
}

std::string describeLanes(LaneBits Lanes) {
  std::vector<std::pair<unsigned, unsigned>> Ranges;
  for (unsigned L = 0; L < 32; ++L) {
    if (!(Lanes >> L & 1))
      continue;
    if (!Ranges.empty() && Ranges.back().second + 1 == L)
      Ranges.back().second = L;
    else
      Ranges.emplace_back(L, L);
  }
  if (Ranges.empty())
    return "no lane";
  if (Lanes == 0xAAAAAAAAu)
    return "the odd lanes";
  if (Lanes == 0x55555555u)
    return "the even lanes";
  bool One = Ranges.size() == 1 && Ranges[0].first == Ranges[0].second;
  std::string Out = One ? "lane " : "lanes ";
  auto Range = [](std::pair<unsigned, unsigned> R) {
    return R.first == R.second
               ? std::to_string(R.first)
               : std::to_string(R.first) + "\u2013" + std::to_string(R.second);
  };
  if (Ranges.size() > 4) {
    unsigned Count = 0;
    for (unsigned L = 0; L < 32; ++L)
      Count += Lanes >> L & 1;
    return std::to_string(Count) + " lanes (" + Range(Ranges[0]) + ", " +
           Range(Ranges[1]) + ", " + Range(Ranges[2]) + ", \u2026, " +
           Range(Ranges.back()) + ")";
  }
  for (size_t I = 0; I < Ranges.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Ranges.size() ? " and " : ", ";
    Out += Range(Ranges[I]);
  }
  return Out;
}

namespace {

/// An integer expression of threadIdx.x, compiled for evaluation at every
/// thread of a row.
struct Node {
  enum Kind : uint8_t { Const, Tid, Unary, Binary, Cond, Cast, ToBool, Ballot };
  Kind K = Const;
  unsigned Op = 0;
  int A = -1, B = -1, C = -1;
  int64_t Value = 0;
  /// The result type.
  unsigned Width = 32;
  bool Signed = true;
  /// Ballot: the lanes that reach the ballot (exactly).
  const WarpLanes *Voters = nullptr;
};

int64_t normalize(int64_t V, unsigned Width, bool Signed) {
  if (Width >= 64)
    return V;
  uint64_t Mask = (static_cast<uint64_t>(1) << Width) - 1;
  uint64_t U = static_cast<uint64_t>(V) & Mask;
  if (Signed && (U >> (Width - 1) & 1))
    U |= ~Mask;
  return static_cast<int64_t>(U);
}

struct Program {
  std::vector<Node> Nodes;
  int Root = -1;

  std::optional<int64_t> eval(int N, unsigned Tid, unsigned Depth = 0) const;
};

std::optional<int64_t> Program::eval(int N, unsigned Tid,
                                     unsigned Depth) const {
  if (N < 0 || Depth > 64)
    return std::nullopt;
  const Node &X = Nodes[N];
  switch (X.K) {
  case Node::Const:
    return X.Value;
  case Node::Tid:
    return normalize(Tid, X.Width, X.Signed);
  case Node::ToBool: {
    auto V = eval(X.A, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    return *V != 0 ? 1 : 0;
  }
  case Node::Cast: {
    auto V = eval(X.A, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    return normalize(*V, X.Width, X.Signed);
  }
  case Node::Unary: {
    auto V = eval(X.A, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    switch (static_cast<UnaryOperatorKind>(X.Op)) {
    case UO_Minus:
      return normalize(static_cast<int64_t>(0 - static_cast<uint64_t>(*V)),
                       X.Width, X.Signed);
    case UO_Not:
      return normalize(~*V, X.Width, X.Signed);
    case UO_LNot:
      return *V == 0 ? 1 : 0;
    case UO_Plus:
      return V;
    default:
      return std::nullopt;
    }
  }
  case Node::Cond: {
    auto C = eval(X.A, Tid, Depth + 1);
    if (!C)
      return std::nullopt;
    return eval(*C ? X.B : X.C, Tid, Depth + 1);
  }
  case Node::Ballot: {
    unsigned Warp = Tid / 32;
    auto Mask = eval(X.A, Tid, Depth + 1);
    if (!Mask || !X.Voters)
      return std::nullopt;
    LaneBits Voting = X.Voters->Bits[Warp] & static_cast<LaneBits>(*Mask);
    LaneBits Result = 0;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(Voting >> L & 1))
        continue;
      auto P = eval(X.B, Warp * 32 + L, Depth + 1);
      if (!P)
        return std::nullopt;
      if (*P)
        Result |= static_cast<LaneBits>(1) << L;
    }
    return normalize(Result, X.Width, X.Signed);
  }
  case Node::Binary:
    break;
  }
  auto Op = static_cast<BinaryOperatorKind>(X.Op);
  auto L = eval(X.A, Tid, Depth + 1);
  if (!L)
    return std::nullopt;
  if (Op == BO_LAnd && !*L)
    return 0;
  if (Op == BO_LOr && *L)
    return 1;
  auto R = eval(X.B, Tid, Depth + 1);
  if (!R)
    return std::nullopt;
  const Node &LN = Nodes[X.A];
  bool OperandSigned = LN.Signed;
  auto UL = static_cast<uint64_t>(*L);
  auto UR = static_cast<uint64_t>(*R);
  switch (Op) {
  case BO_LAnd:
  case BO_LOr:
    return *R != 0 ? 1 : 0;
  case BO_Mul:
    return normalize(static_cast<int64_t>(UL * UR), X.Width, X.Signed);
  case BO_Add:
    return normalize(static_cast<int64_t>(UL + UR), X.Width, X.Signed);
  case BO_Sub:
    return normalize(static_cast<int64_t>(UL - UR), X.Width, X.Signed);
  case BO_Div:
  case BO_Rem: {
    if (*R == 0)
      return std::nullopt;
    if (OperandSigned) {
      if (*R == -1 && *L == INT64_MIN)
        return std::nullopt;
      return normalize(Op == BO_Div ? *L / *R : *L % *R, X.Width, X.Signed);
    }
    uint64_t Mask = LN.Width >= 64 ? ~static_cast<uint64_t>(0)
                                   : (static_cast<uint64_t>(1) << LN.Width) - 1;
    UL &= Mask;
    UR &= Mask;
    return normalize(static_cast<int64_t>(Op == BO_Div ? UL / UR : UL % UR),
                     X.Width, X.Signed);
  }
  case BO_Shl:
  case BO_Shr: {
    if (*R < 0 || static_cast<uint64_t>(*R) >= LN.Width)
      return std::nullopt;
    if (Op == BO_Shl)
      return normalize(static_cast<int64_t>(UL << *R), X.Width, X.Signed);
    if (OperandSigned)
      return normalize(*L >> *R, X.Width, X.Signed);
    uint64_t Mask = LN.Width >= 64 ? ~static_cast<uint64_t>(0)
                                   : (static_cast<uint64_t>(1) << LN.Width) - 1;
    return normalize(static_cast<int64_t>((UL & Mask) >> *R), X.Width,
                     X.Signed);
  }
  case BO_And:
    return normalize(*L & *R, X.Width, X.Signed);
  case BO_Or:
    return normalize(*L | *R, X.Width, X.Signed);
  case BO_Xor:
    return normalize(*L ^ *R, X.Width, X.Signed);
  case BO_Comma:
    return R;
  case BO_EQ:
    return *L == *R;
  case BO_NE:
    return *L != *R;
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE: {
    int Cmp;
    if (OperandSigned) {
      Cmp = *L < *R ? -1 : *L > *R ? 1 : 0;
    } else {
      uint64_t Mask = LN.Width >= 64 ? ~static_cast<uint64_t>(0)
                                     : (static_cast<uint64_t>(1) << LN.Width) - 1;
      uint64_t A = UL & Mask;
      uint64_t B = UR & Mask;
      Cmp = A < B ? -1 : A > B ? 1 : 0;
    }
    switch (Op) {
    case BO_LT:
      return Cmp < 0;
    case BO_GT:
      return Cmp > 0;
    case BO_LE:
      return Cmp <= 0;
    default:
      return Cmp >= 0;
    }
  }
  default:
    return std::nullopt;
  }
}

/// The lanes a state's warps arrive with.
struct State {
  WarpLanes Lanes = WarpLanes::all();
  WarpLanes Exited;
  bool Exact = true;
  const Expr *Guard = nullptr;
  bool GuardHolds = true;

  /// No lane goes on from here (after a return, break, continue).
  State stopped() const {
    State S = *this;
    S.Lanes = WarpLanes();
    return S;
  }
};

/// How a condition split the lanes.
enum class Split {
  Decoded, ///< Evaluated at every thread: the arms partition the lanes.
  Uniform, ///< The same across each warp: a warp takes one arm whole.
  Unknown, ///< Anything else: each arm gets an unknown part of the lanes.
};

/// Lanes of two paths that meet again.
State joinPaths(const State &A, const State &B, Split How,
                const State &Before, bool ArmsEscaped) {
  State R = A;
  R.Exited = A.Exited | B.Exited;
  if (How == Split::Unknown && !ArmsEscaped) {
    // Every lane that went into either arm comes out: the warp is whole
    // again, as it was before the branch.
    State Whole = Before;
    Whole.Exited = R.Exited;
    return Whole;
  }
  R.Lanes = A.Lanes | B.Lanes;
  if (How == Split::Decoded)
    R.Exact = A.Exact && B.Exact;
  else if (A.Lanes.empty())
    R.Exact = B.Exact;
  else if (B.Lanes.empty())
    R.Exact = A.Exact;
  else
    R.Exact = A.Exact && B.Exact && A.Lanes == B.Lanes;
  if (How == Split::Unknown)
    R.Exact = false;
  if (R.Lanes == Before.Lanes) {
    R.Guard = Before.Guard;
    R.GuardHolds = Before.GuardHolds;
  } else if (!A.Guard || A.Lanes.empty()) {
    R.Guard = B.Guard;
    R.GuardHolds = B.GuardHolds;
  }
  return R;
}

/// A call after which the thread does not go on: declared noreturn, or one
/// of the device-side stops clang's CUDA wrappers declare without the
/// attribute (`assert` calls __assert_fail).
bool doesNotReturn(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  return Callee->getIdentifier() &&
         llvm::StringSwitch<bool>(Callee->getName())
             .Cases({"__assert_fail", "__assertfail", "__trap", "abort"}, true)
             .Default(false);
}

bool containsGoto(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  return llvm::any_of(S->children(),
                      [](const Stmt *Child) { return containsGoto(Child); });
}

} // namespace

struct WarpLaneSets::Impl {
  Impl(const FunctionDecl *FD, ASTContext &Ctx, AnalysisManager &Manager)
      : FD(FD), Ctx(Ctx), Manager(Manager),
        D(Manager.divergence(FD)), IsKernel(FD->hasAttr<CUDAGlobalAttr>()) {
    collectNotOnlyRead(FD->getBody(), nullptr);
    BlockExtentFact X = Manager.blockExtent(FD, 0);
    if (X.Exact && *X.Exact % 32 != 0) {
      BlockExtentFact Y = Manager.blockExtent(FD, 1);
      BlockExtentFact Z = Manager.blockExtent(FD, 2);
      // Rows narrower than a warp, or not whole warps, in a block with
      // several rows: threadIdx.x is not the lane.
      ThreadIdxIsRowIndex = Y.Exact == 1u && Z.Exact == 1u;
    }
  }

  const FunctionDecl *FD;
  ASTContext &Ctx;
  AnalysisManager &Manager;
  const FunctionDivergence *D;
  bool IsKernel;
  bool ThreadIdxIsRowIndex = true;

  llvm::DenseMap<const CallExpr *, LaneReach> Reach;
  std::vector<const CallExpr *> Order;

  struct Frame {
    bool IsLoop = true;
    State Entry;
    bool AnyBroke = false, AnyContinued = false;
    State Broke, Continued;
    WarpLanes Returned;
  };
  std::vector<Frame> Frames;
  /// Exits taken so far: the index of the frame a break or continue goes
  /// to, or -1 for a return (or a call that does not return).
  std::vector<int> Exits;

  /// Per condition: the threads at which it holds, and the threads at which
  /// it is undefined; nullopt when it is not decoded.
  llvm::DenseMap<const Expr *, std::optional<std::pair<WarpLanes, WarpLanes>>>
      ConditionCache;

  /// Variables some reference to which is more than a plain read (an
  /// assignment, ++, its address, a reference bound to it, sizeof): found in
  /// one pass over the body, lambdas included. ExprMutationAnalyzer would
  /// walk the whole body once per variable asked about: quadratic in a long
  /// kernel with a counter per loop.
  llvm::DenseSet<const VarDecl *> NotOnlyRead;

  void collectNotOnlyRead(const Stmt *S, const Stmt *Parent) {
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

  /// A local of the function given one value at its declaration.
  const VarDecl *cachedImmutableLocal(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || isa<ParmVarDecl>(Var) || !Var->isLocalVarDecl() ||
        Var->getType()->isReferenceType() || !Var->getInit() ||
        Var->getParentFunctionOrMethod() != FD || NotOnlyRead.contains(Var))
      return nullptr;
    return Var;
  }

  // --- compiling ------------------------------------------------------------

  int add(Program &P, Node N, QualType T) const {
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

  int compile(Program &P, const Expr *E, unsigned Depth) {
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

  /// thread_rank() of the block (the thread's linear index: warps are made
  /// of 32 consecutive ones) or of a tile of N (the index modulo N), and a
  /// tile's meta_group_rank() (the index over N).
  int compileGroupRank(Program &P, const CXXMethodDecl *Method,
                       const Expr *Object, QualType T) const {
    if (Object)
      Object = Object->IgnoreParenImpCasts();
    if (!Method || !Method->getIdentifier() || !Object)
      return -1;
    llvm::StringRef Name = Method->getName();
    if (Name != "thread_rank" && Name != "meta_group_rank")
      return -1;
    std::optional<GroupKind> Kind = groupKindOfType(Object->getType());
    if (!Kind)
      return -1;
    Node Rank;
    Rank.K = Node::Tid;
    int Tid = add(P, Rank, Ctx.UnsignedIntTy);
    if (*Kind == GroupKind::ThreadBlock && Name == "thread_rank") {
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
    N.Op = Name == "thread_rank" ? BO_Rem : BO_Div;
    N.A = Tid;
    N.B = S;
    int Value = add(P, N, Ctx.UnsignedIntTy);
    Node Out;
    Out.K = Node::Cast;
    Out.A = Value;
    return add(P, Out, T);
  }

  /// `__ballot_sync(mask, pred)` called where the lanes are known exactly:
  /// the lanes of the mask at which pred holds.
  int compileBallot(Program &P, const CallExpr *Call, QualType T,
                    unsigned Depth) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (maskedWarpIntrinsicName(Callee) != "__ballot_sync" ||
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

  // --- conditions ------------------------------------------------------------

  const std::optional<std::pair<WarpLanes, WarpLanes>> &
  decode(const Expr *Cond) {
    auto Found = ConditionCache.find(Cond);
    if (Found != ConditionCache.end())
      return Found->second;
    std::optional<std::pair<WarpLanes, WarpLanes>> Result;
    Program P;
    P.Root = compile(P, Cond, 0);
    if (P.Root >= 0) {
      WarpLanes Holds;
      WarpLanes Undefined;
      for (unsigned Tid = 0; Tid < ThreadsPerRow; ++Tid) {
        std::optional<int64_t> V = P.eval(P.Root, Tid);
        LaneBits Bit = static_cast<LaneBits>(1) << (Tid % 32);
        if (!V)
          Undefined.Bits[Tid / 32] |= Bit;
        else if (*V)
          Holds.Bits[Tid / 32] |= Bit;
      }
      Result = std::make_pair(Holds, Undefined);
    }
    return ConditionCache[Cond] = Result;
  }

  bool isWarpUniform(const Expr *Cond) const {
    return D && D->isAnalyzed() &&
           D->uniformityOf(Cond).isUniformAt(Level::warp());
  }

  /// The lanes of \p In for which \p Cond is \p Holds.
  State restrict(const State &In, const Expr *Cond, bool Holds, Split &How) {
    State Out = In;
    if (!Cond) {
      How = Split::Uniform;
      return Out;
    }
    const auto &Decoded = decode(Cond);
    if (Decoded) {
      How = Split::Decoded;
      WarpLanes Keep = Holds ? Decoded->first
                             : WarpLanes::all().without(Decoded->first);
      Keep = Keep | Decoded->second;
      if (!(In.Lanes & Decoded->second).empty())
        Out.Exact = false;
      Out.Lanes = In.Lanes & Keep;
      if (Out.Lanes != In.Lanes) {
        Out.Guard = Cond;
        Out.GuardHolds = Holds;
      }
      return Out;
    }
    if (isWarpUniform(Cond)) {
      How = Split::Uniform;
      return Out;
    }
    How = Split::Unknown;
    Out.Exact = false;
    return Out;
  }

  // --- the walk --------------------------------------------------------------

  bool escapedSince(size_t FirstExit, size_t FrameDepth) const {
    for (size_t I = FirstExit; I < Exits.size(); ++I)
      if (Exits[I] < static_cast<int>(FrameDepth))
        return true;
    return false;
  }

  void record(const CallExpr *Call, const State &S) {
    LaneReach R;
    R.Lanes = S.Lanes;
    R.Exited = S.Exited;
    R.Exact = S.Exact;
    R.Guard = S.Guard;
    R.GuardHolds = S.GuardHolds;
    auto [It, New] = Reach.try_emplace(Call, R);
    if (!New) {
      It->second.Lanes = It->second.Lanes | R.Lanes;
      It->second.Exact = false;
      return;
    }
    Order.push_back(Call);
  }

  State stopHere(const State &In) {
    State Out = In.stopped();
    if (IsKernel)
      Out.Exited = Out.Exited | In.Lanes;
    for (Frame &F : Frames)
      F.Returned = F.Returned | In.Lanes;
    Exits.push_back(-1);
    return Out;
  }

  /// Two arms split on \p Cond, each walked, then joined.
  State branch(const Expr *Cond, const Stmt *Then, const Stmt *Else,
               const State &In) {
    Split How;
    size_t FirstExit = Exits.size();
    State ThenIn = restrict(In, Cond, true, How);
    State ElseIn = restrict(In, Cond, false, How);
    State ThenOut = walk(Then, ThenIn);
    State ElseOut = Else ? walk(Else, ElseIn) : ElseIn;
    return joinPaths(ThenOut, ElseOut, How, In,
                     escapedSince(FirstExit, Frames.size()));
  }

  State walkExpr(const Expr *E, State In) {
    if (!E)
      return In;
    if (isa<LambdaExpr>(E) || isa<BlockExpr>(E))
      return In;
    if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
      State S = walkExpr(Cond->getCond(), In);
      return branch(Cond->getCond(), Cond->getTrueExpr(),
                    Cond->getFalseExpr(), S);
    }
    if (const auto *Bin = dyn_cast<BinaryOperator>(E);
        Bin && Bin->isLogicalOp()) {
      State S = walkExpr(Bin->getLHS(), In);
      Split How;
      size_t FirstExit = Exits.size();
      bool And = Bin->getOpcode() == BO_LAnd;
      State RhsIn = restrict(S, Bin->getLHS(), And, How);
      State Short = restrict(S, Bin->getLHS(), !And, How);
      State RhsOut = walkExpr(Bin->getRHS(), RhsIn);
      return joinPaths(RhsOut, Short, How, S,
                       escapedSince(FirstExit, Frames.size()));
    }
    if (const auto *Binary = dyn_cast<BinaryConditionalOperator>(E)) {
      State S = walkExpr(Binary->getCommon(), In);
      State Maybe = S;
      Maybe.Exact = false;
      size_t FirstExit = Exits.size();
      State Out = walkExpr(Binary->getFalseExpr(), Maybe);
      return joinPaths(S, Out, Split::Unknown, S,
                       escapedSince(FirstExit, Frames.size()));
    }
    State S = In;
    for (const Stmt *Child : E->children())
      S = walk(Child, S);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      record(Call, S);
      if (doesNotReturn(Call->getDirectCallee()))
        return stopHere(S);
    }
    return S;
  }

  State walkLoop(const Expr *Cond, const Stmt *Body, const Expr *Inc,
                 bool CondFirst, const State &In) {
    size_t FirstRecord = Order.size();
    size_t FirstExit = Exits.size();
    State Enter = In;
    Split How = Split::Uniform;
    if (CondFirst && Cond) {
      Enter = walkExpr(Cond, Enter);
      Enter = restrict(Enter, Cond, true, How);
    }
    Frames.emplace_back();
    Frames.back().IsLoop = true;
    Frames.back().Entry = Enter;
    State BodyOut = walk(Body, Enter);
    Frame F = Frames.back();
    Frames.pop_back();
    State Around = BodyOut;
    if (F.AnyContinued)
      Around = joinPaths(BodyOut, F.Continued, Split::Uniform, Enter, true);
    Around = walkExpr(Inc, Around);
    if (!CondFirst && Cond) {
      Around = walkExpr(Cond, Around);
      Around = restrict(Around, Cond, true, How);
    }
    // The lanes that did not come around: a call none of them reached in
    // the first iteration sees the same lanes in every later one (its lanes
    // are those of the loop's entry less what the body's decoded conditions
    // and exits take, each the same every time).
    WarpLanes Left = Enter.Lanes.without(Around.Lanes);
    bool SameEveryIteration = How != Split::Unknown && Around.Exact;
    for (size_t I = FirstRecord; I < Order.size(); ++I) {
      LaneReach &R = Reach[Order[I]];
      if (!SameEveryIteration || !(R.Lanes & Left).empty())
        R.Exact = false;
    }
    State Out = In;
    Out.Exited = In.Exited | BodyOut.Exited | F.Broke.Exited |
                 F.Continued.Exited;
    bool Returned = false;
    for (size_t I = FirstExit; I < Exits.size(); ++I)
      Returned |= Exits[I] < 0;
    if (Returned) {
      Out.Lanes = In.Lanes.without(F.Returned);
      Out.Exact = false;
      for (Frame &Outer : Frames)
        Outer.Returned = Outer.Returned | F.Returned;
    }
    return Out;
  }

  State walkSwitch(const SwitchStmt *Switch, State In) {
    In = walk(Switch->getInit(), In);
    In = walk(Switch->getConditionVariableDeclStmt(), In);
    In = walkExpr(Switch->getCond(), In);
    size_t FirstExit = Exits.size();
    Frames.emplace_back();
    Frame &F = Frames.back();
    F.IsLoop = false;
    F.Entry = In;
    if (!isWarpUniform(Switch->getCond()))
      F.Entry.Exact = false;
    size_t Depth = Frames.size();
    walk(Switch->getBody(), In.stopped());
    Frames.pop_back();
    State Out = In;
    if (escapedSince(FirstExit, Depth - 1))
      Out.Exact = false;
    return Out;
  }

  State walk(const Stmt *S, State In) {
    if (!S)
      return In;
    if (const auto *E = dyn_cast<Expr>(S))
      return walkExpr(E, In);
    switch (S->getStmtClass()) {
    case Stmt::CompoundStmtClass: {
      for (const Stmt *Child : cast<CompoundStmt>(S)->body())
        In = walk(Child, In);
      return In;
    }
    case Stmt::IfStmtClass: {
      const auto *If = cast<IfStmt>(S);
      In = walk(If->getInit(), In);
      In = walk(If->getConditionVariableDeclStmt(), In);
      if (If->isConsteval())
        return In;
      In = walkExpr(If->getCond(), In);
      return branch(If->getCond(), If->getThen(), If->getElse(), In);
    }
    case Stmt::ForStmtClass: {
      const auto *For = cast<ForStmt>(S);
      In = walk(For->getInit(), In);
      In = walk(For->getConditionVariableDeclStmt(), In);
      return walkLoop(For->getCond(), For->getBody(), For->getInc(), true, In);
    }
    case Stmt::WhileStmtClass: {
      const auto *While = cast<WhileStmt>(S);
      In = walk(While->getConditionVariableDeclStmt(), In);
      return walkLoop(While->getCond(), While->getBody(), nullptr, true, In);
    }
    case Stmt::DoStmtClass: {
      const auto *Do = cast<DoStmt>(S);
      return walkLoop(Do->getCond(), Do->getBody(), nullptr, false, In);
    }
    case Stmt::CXXForRangeStmtClass: {
      const auto *Range = cast<CXXForRangeStmt>(S);
      In = walk(Range->getInit(), In);
      In = walk(Range->getRangeStmt(), In);
      In = walk(Range->getBeginStmt(), In);
      In = walk(Range->getEndStmt(), In);
      State Body = walk(Range->getLoopVarStmt(), In);
      (void)Body;
      return walkLoop(Range->getCond(), Range->getBody(), Range->getInc(),
                      true, In);
    }
    case Stmt::SwitchStmtClass:
      return walkSwitch(cast<SwitchStmt>(S), In);
    case Stmt::CaseStmtClass:
    case Stmt::DefaultStmtClass: {
      for (auto It = Frames.rbegin(); It != Frames.rend(); ++It)
        if (!It->IsLoop) {
          In = joinPaths(In, It->Entry, Split::Uniform, It->Entry, true);
          break;
        }
      return walk(cast<SwitchCase>(S)->getSubStmt(), In);
    }
    case Stmt::ReturnStmtClass: {
      In = walkExpr(cast<ReturnStmt>(S)->getRetValue(), In);
      return stopHere(In);
    }
    case Stmt::BreakStmtClass:
    case Stmt::ContinueStmtClass: {
      bool Continue = isa<ContinueStmt>(S);
      for (int I = static_cast<int>(Frames.size()) - 1; I >= 0; --I) {
        Frame &F = Frames[I];
        if (Continue && !F.IsLoop)
          continue;
        bool &Any = Continue ? F.AnyContinued : F.AnyBroke;
        State &Acc = Continue ? F.Continued : F.Broke;
        Acc = Any ? joinPaths(Acc, In, Split::Uniform, F.Entry, true) : In;
        Any = true;
        Exits.push_back(I);
        break;
      }
      return In.stopped();
    }
    case Stmt::CXXTryStmtClass: {
      In.Exact = false;
      break;
    }
    default:
      break;
    }
    for (const Stmt *Child : S->children())
      In = walk(Child, In);
    return In;
  }

  void run() {
    State Entry;
    if (containsGoto(FD->getBody()))
      Entry.Exact = false;
    walk(FD->getBody(), Entry);
  }
};

WarpLaneSets::WarpLaneSets(const FunctionDecl *FD, ASTContext &Ctx,
                           AnalysisManager &Manager)
    : P(std::make_unique<Impl>(FD, Ctx, Manager)) {
  P->run();
}

WarpLaneSets::~WarpLaneSets() = default;

std::optional<LaneReach> WarpLaneSets::reachOf(const CallExpr *Call) const {
  auto Found = P->Reach.find(Call);
  if (Found == P->Reach.end())
    return std::nullopt;
  return Found->second;
}

std::optional<std::array<uint32_t, ThreadsPerRow>>
WarpLaneSets::valuesAt(const Expr *E) const {
  Program Prog;
  Prog.Root = P->compile(Prog, E, 0);
  if (Prog.Root < 0)
    return std::nullopt;
  std::array<uint32_t, ThreadsPerRow> Values{};
  for (unsigned Tid = 0; Tid < ThreadsPerRow; ++Tid) {
    std::optional<int64_t> V = Prog.eval(Prog.Root, Tid);
    if (!V)
      return std::nullopt;
    Values[Tid] = static_cast<uint32_t>(*V);
  }
  return Values;
}

} // namespace clang::tidy::cuda::analysis
