//===--- WarpLaneSets.cpp - which lanes of a warp reach each call ---------===//

#include "checks/analysis/lanes/WarpLaneSets.h"

#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/lanes/WarpMasks.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/bit.h"
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

std::pair<uint32_t, bool>
warpMask(const std::array<uint32_t, ThreadsPerRow> &Masks, unsigned W,
         LaneBits Callers) {
  uint32_t First = Masks[W * 32 + llvm::countr_zero(Callers)];
  bool One = true;
  for (unsigned L = 0; L < 32; ++L)
    if (Callers >> L & 1)
      One &= Masks[W * 32 + L] == First;
  return {First, One};
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
  enum Kind : uint8_t {
    Const,
    Tid,
    Unary,
    Binary,
    Cond,
    Cast,
    ToBool,
    Ballot,
    /// A value not followed: a multiple of 2^Value, nothing more known.
    Opaque
  };
  Kind K = Const;
  unsigned Op = 0;
  int A = -1, B = -1, C = -1;
  int64_t Value = 0;
  /// The result type.
  unsigned Width = 32;
  bool Signed = true;
  /// Ballot: the lanes that reach the ballot (exactly).
  const WarpLanes *Voters = nullptr;
  /// Opaque: the value is not negative.
  bool NonNeg = false;
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

/// A binary operator on exact operands, in the result's type; nullopt when
/// undefined (division by zero, an out-of-range shift).
std::optional<int64_t> evalExact(BinaryOperatorKind Op, int64_t LV,
                                 int64_t RV, const Node &LN,
                                 bool OperandSigned, unsigned Width,
                                 bool Signed) {
  auto UL = static_cast<uint64_t>(LV);
  auto UR = static_cast<uint64_t>(RV);
  switch (Op) {
  case BO_LAnd:
  case BO_LOr:
    return RV != 0 ? 1 : 0;
  case BO_Mul:
    return normalize(static_cast<int64_t>(UL * UR), Width, Signed);
  case BO_Add:
    return normalize(static_cast<int64_t>(UL + UR), Width, Signed);
  case BO_Sub:
    return normalize(static_cast<int64_t>(UL - UR), Width, Signed);
  case BO_Div:
  case BO_Rem: {
    if (RV == 0)
      return std::nullopt;
    if (OperandSigned) {
      if (RV == -1 && LV == INT64_MIN)
        return std::nullopt;
      return normalize(Op == BO_Div ? LV / RV : LV % RV, Width, Signed);
    }
    uint64_t Mask = LN.Width >= 64 ? ~static_cast<uint64_t>(0)
                                   : (static_cast<uint64_t>(1) << LN.Width) - 1;
    UL &= Mask;
    UR &= Mask;
    return normalize(static_cast<int64_t>(Op == BO_Div ? UL / UR : UL % UR),
                     Width, Signed);
  }
  case BO_Shl:
  case BO_Shr: {
    if (RV < 0 || static_cast<uint64_t>(RV) >= LN.Width)
      return std::nullopt;
    if (Op == BO_Shl)
      return normalize(static_cast<int64_t>(UL << RV), Width, Signed);
    if (OperandSigned)
      return normalize(LV >> RV, Width, Signed);
    uint64_t Mask = LN.Width >= 64 ? ~static_cast<uint64_t>(0)
                                   : (static_cast<uint64_t>(1) << LN.Width) - 1;
    return normalize(static_cast<int64_t>((UL & Mask) >> RV), Width,
                     Signed);
  }
  case BO_And:
    return normalize(LV & RV, Width, Signed);
  case BO_Or:
    return normalize(LV | RV, Width, Signed);
  case BO_Xor:
    return normalize(LV ^ RV, Width, Signed);
  case BO_Comma:
    return RV;
  case BO_EQ:
    return LV == RV;
  case BO_NE:
    return LV != RV;
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE: {
    int Cmp;
    if (OperandSigned) {
      Cmp = LV < RV ? -1 : LV > RV ? 1 : 0;
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

/// A value at one thread: exact, or known only modulo 2^Known (its low
/// Known bits). `blockIdx.x * blockDim.x + threadIdx.x` is threadIdx.x
/// modulo the alignment of blockDim.x: its `% 32` and `& 31` are exact
/// when blockDim.x is a known multiple of 32, whatever the block.
struct Val {
  int64_t V = 0;
  unsigned Known = 64;
  /// Not negative (thread and block indices, and what sums, products and
  /// masks of them give: indices are taken not to overflow).
  bool NonNeg = false;

  bool exact() const { return Known >= 64; }
  static Val exactly(int64_t V) { return Val{V, 64, V >= 0}; }
  static Val unknown() { return Val{0, 0, false}; }
};

/// Trailing zero bits of \p X as far as they are known.
unsigned knownTrailingZeros(const Val &X) {
  unsigned Zeros = X.V == 0 ? 64 : llvm::countr_zero(static_cast<uint64_t>(X.V));
  return std::min(Zeros, X.Known);
}

struct Program {
  std::vector<Node> Nodes;
  int Root = -1;

  /// The exact value of node \p N at thread \p Tid; nullopt when it is
  /// undefined there or not known exactly.
  std::optional<int64_t> eval(int N, unsigned Tid) const {
    std::optional<Val> V = evalPart(N, Tid, 0);
    if (!V || !V->exact())
      return std::nullopt;
    return V->V;
  }
  /// As eval, telling an undefined value (nullopt) from one known only in
  /// part (a Val that is not exact).
  std::optional<Val> evalPart(int N, unsigned Tid, unsigned Depth) const;
};

/// \p X converted to a result of \p Width bits: exact once its known bits
/// cover the width.
Val normalized(Val X, unsigned Width, bool Signed) {
  X.V = normalize(X.V, Width, Signed);
  if (X.Known >= Width)
    X.Known = 64;
  if (X.exact())
    X.NonNeg = X.V >= 0;
  return X;
}

std::optional<Val> Program::evalPart(int N, unsigned Tid,
                                     unsigned Depth) const {
  if (N < 0 || Depth > 64)
    return std::nullopt;
  const Node &X = Nodes[N];
  switch (X.K) {
  case Node::Const:
    return Val::exactly(X.Value);
  case Node::Tid:
    return Val::exactly(normalize(Tid, X.Width, X.Signed));
  case Node::Opaque:
    // A multiple of 2^Value (an index's alignment), unknown otherwise.
    return Val{0, static_cast<unsigned>(X.Value), X.NonNeg};
  case Node::ToBool: {
    auto V = evalPart(X.A, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    if (V->exact())
      return Val::exactly(V->V != 0 ? 1 : 0);
    uint64_t Low = V->Known >= 64 ? ~static_cast<uint64_t>(0)
                                  : (static_cast<uint64_t>(1) << V->Known) - 1;
    if (static_cast<uint64_t>(V->V) & Low)
      return Val::exactly(1);
    return Val::unknown();
  }
  case Node::Cast: {
    auto V = evalPart(X.A, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    return normalized(*V, X.Width, X.Signed);
  }
  case Node::Unary: {
    auto V = evalPart(X.A, Tid, Depth + 1);
    if (!V)
      return std::nullopt;
    auto Op = static_cast<UnaryOperatorKind>(X.Op);
    if (!V->exact() && Op != UO_Plus) {
      if (Op == UO_LNot)
        return Val::unknown();
      // -x and ~x keep the low bits' dependence on the known ones.
      Val R = *V;
      R.V = Op == UO_Minus ? static_cast<int64_t>(0 - static_cast<uint64_t>(R.V))
                           : ~R.V;
      R.NonNeg = false;
      return normalized(R, X.Width, X.Signed);
    }
    switch (Op) {
    case UO_Minus:
      return Val::exactly(normalize(
          static_cast<int64_t>(0 - static_cast<uint64_t>(V->V)), X.Width,
          X.Signed));
    case UO_Not:
      return Val::exactly(normalize(~V->V, X.Width, X.Signed));
    case UO_LNot:
      return Val::exactly(V->V == 0 ? 1 : 0);
    case UO_Plus:
      return V;
    default:
      return std::nullopt;
    }
  }
  case Node::Cond: {
    auto C = evalPart(X.A, Tid, Depth + 1);
    if (!C)
      return std::nullopt;
    if (!C->exact())
      return Val::unknown();
    return evalPart(C->V ? X.B : X.C, Tid, Depth + 1);
  }
  case Node::Ballot: {
    unsigned Warp = Tid / 32;
    auto Mask = evalPart(X.A, Tid, Depth + 1);
    if (!Mask || !X.Voters)
      return std::nullopt;
    // A vote of what is not known exactly (a loaded value) is not known.
    if (!Mask->exact())
      return Val::unknown();
    LaneBits Voting = X.Voters->Bits[Warp] & static_cast<LaneBits>(Mask->V);
    LaneBits Result = 0;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(Voting >> L & 1))
        continue;
      auto P = evalPart(X.B, Warp * 32 + L, Depth + 1);
      if (!P)
        return std::nullopt;
      if (!P->exact())
        return Val::unknown();
      if (P->V)
        Result |= static_cast<LaneBits>(1) << L;
    }
    return Val::exactly(normalize(Result, X.Width, X.Signed));
  }
  case Node::Binary:
    break;
  }
  auto Op = static_cast<BinaryOperatorKind>(X.Op);
  auto LP = evalPart(X.A, Tid, Depth + 1);
  if (!LP)
    return std::nullopt;
  if (LP->exact() && Op == BO_LAnd && !LP->V)
    return Val::exactly(0);
  if (LP->exact() && Op == BO_LOr && LP->V)
    return Val::exactly(1);
  auto RP = evalPart(X.B, Tid, Depth + 1);
  if (!RP)
    return std::nullopt;
  const Node &LN = Nodes[X.A];
  bool OperandSigned = LN.Signed;
  if (!LP->exact() || !RP->exact()) {
    // Known in part: what the low bits still decide.
    const Val &L = *LP;
    const Val &R = *RP;
    Val Out = Val::unknown();
    switch (Op) {
    case BO_LAnd:
      if (R.exact() && !R.V)
        return Val::exactly(0);
      return Val::unknown();
    case BO_LOr:
      if (R.exact() && R.V)
        return Val::exactly(1);
      return Val::unknown();
    case BO_Add:
    case BO_Sub:
      Out.V = Op == BO_Add ? static_cast<int64_t>(static_cast<uint64_t>(L.V) +
                                                  static_cast<uint64_t>(R.V))
                           : static_cast<int64_t>(static_cast<uint64_t>(L.V) -
                                                  static_cast<uint64_t>(R.V));
      Out.Known = std::min(L.Known, R.Known);
      Out.NonNeg = Op == BO_Add && L.NonNeg && R.NonNeg;
      break;
    case BO_Mul: {
      // (a + 2^ka x)(b + 2^kb y) = ab + a 2^kb y + b 2^ka x + 2^(ka+kb) xy.
      Out.V = static_cast<int64_t>(static_cast<uint64_t>(L.V) *
                                   static_cast<uint64_t>(R.V));
      auto Known = std::min<uint64_t>(
          {static_cast<uint64_t>(L.Known) + knownTrailingZeros(R),
           static_cast<uint64_t>(R.Known) + knownTrailingZeros(L),
           static_cast<uint64_t>(L.Known) + R.Known});
      Out.Known = static_cast<unsigned>(std::min<uint64_t>(Known, 64));
      Out.NonNeg = L.NonNeg && R.NonNeg;
      break;
    }
    case BO_Shl:
      if (!R.exact() || R.V < 0 || static_cast<uint64_t>(R.V) >= LN.Width)
        return Val::unknown();
      Out.V = static_cast<int64_t>(static_cast<uint64_t>(L.V) << R.V);
      Out.Known = static_cast<unsigned>(
          std::min<uint64_t>(static_cast<uint64_t>(L.Known) + R.V, 64));
      Out.NonNeg = L.NonNeg;
      break;
    case BO_Shr:
      if (!R.exact() || R.V < 0 || static_cast<uint64_t>(R.V) >= LN.Width)
        return Val::unknown();
      Out.V = L.V >> R.V;
      Out.Known = L.Known > R.V ? L.Known - static_cast<unsigned>(R.V) : 0;
      Out.NonNeg = L.NonNeg;
      break;
    case BO_Rem: {
      // x mod 2^j is x's low j bits, for x not negative.
      if (!R.exact() || R.V <= 0 ||
          !llvm::isPowerOf2_64(static_cast<uint64_t>(R.V)) ||
          (OperandSigned && !L.NonNeg) || !RP->exact())
        return Val::unknown();
      unsigned J = llvm::Log2_64(static_cast<uint64_t>(R.V));
      if (L.Known < J)
        return Val::unknown();
      return Val::exactly(normalize(L.V & (R.V - 1), X.Width, X.Signed));
    }
    case BO_And: {
      // A mask below 2^Known of the other side picks known bits only.
      for (const auto &[Exact, Part] : {std::pair(&R, &L), std::pair(&L, &R)})
        if (Exact->exact() && Exact->V >= 0 &&
            (Part->Known >= 63 ||
             static_cast<uint64_t>(Exact->V) < (static_cast<uint64_t>(1)
                                                 << Part->Known)))
          return Val::exactly(normalize(L.V & R.V, X.Width, X.Signed));
      Out.V = L.V & R.V;
      Out.Known = std::min(L.Known, R.Known);
      Out.NonNeg = L.NonNeg || R.NonNeg;
      break;
    }
    case BO_Or:
    case BO_Xor:
      Out.V = Op == BO_Or ? (L.V | R.V) : (L.V ^ R.V);
      Out.Known = std::min(L.Known, R.Known);
      Out.NonNeg = L.NonNeg && R.NonNeg;
      break;
    case BO_Comma:
      return R;
    default:
      return Val::unknown();
    }
    return normalized(Out, X.Width, X.Signed);
  }
  std::optional<int64_t> Exact =
      evalExact(Op, LP->V, RP->V, LN, OperandSigned, X.Width, X.Signed);
  if (!Exact)
    return std::nullopt;
  return Val::exactly(*Exact);
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
  Impl(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager)
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
    for (unsigned Dim = 0; Dim < 3; ++Dim) {
      BlockExtentFact Extent = Manager.blockExtent(FD, Dim);
      uint64_t Factor = Extent.Exact ? *Extent.Exact : Extent.Factor;
      BlockDimAlignLog2[Dim] =
          Factor ? llvm::countr_zero(Factor) : 0;
    }
    if (Manager.rowsAreWarpAligned(FD))
      BlockDimAlignLog2[0] = std::max(BlockDimAlignLog2[0], 5u);
  }

  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  const FunctionDivergence *D;
  bool IsKernel;
  /// Call-site context: the call that makes FD's walk, and the walk of the
  /// function that makes it (which evaluates the call's arguments).
  const CallExpr *Site = nullptr;
  Impl *CallerP = nullptr;
  bool ThreadIdxIsRowIndex = true;
  /// log2 of the power of two blockDim.x, .y and .z are known multiples of
  /// (the TU's launches, checks and the AssumeBlockDimXMultipleOf32 option).
  std::array<unsigned, 3> BlockDimAlignLog2{};

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

  /// In call-site context, what the call binds to the parameter \p E reads
  /// (a parameter FD never writes, not a reference).
  const Expr *boundParameter(const Expr *E) const {
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

  /// In call-site context, whether the inputs \p Symbols (FD's parameters)
  /// are bound to values uniform across the warp, through every call of
  /// the chain; outside it they read as uniform, as in the divergence
  /// analysis.
  bool symbolsUniform(uint64_t Symbols) const {
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

  /// A node for \p E: its value, or, for an integer expression not
  /// followed, an opaque node that keeps what its alignment says
  /// (blockDim.x as the launches show it, blockIdx.x as nothing).
  int compile(Program &P, const Expr *E, unsigned Depth) {
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

  int compileValue(Program &P, const Expr *E, unsigned Depth) {
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
      bool Decided = true;
      for (unsigned Tid = 0; Tid < ThreadsPerRow && Decided; ++Tid) {
        std::optional<Val> V = P.evalPart(P.Root, Tid, 0);
        LaneBits Bit = static_cast<LaneBits>(1) << (Tid % 32);
        // Known only in part (it depends on the block, or on data): not
        // decoded at all.
        Decided = !V || V->exact();
        if (!V)
          Undefined.Bits[Tid / 32] |= Bit;
        else if (V->V)
          Holds.Bits[Tid / 32] |= Bit;
      }
      if (Decided)
        Result = std::make_pair(Holds, Undefined);
    }
    return ConditionCache[Cond] = Result;
  }

  bool isWarpUniform(const Expr *Cond) const {
    if (!D || !D->isAnalyzed() || !Cond)
      return false;
    // The CFG splits && and || into their operands: the operator itself
    // has no value of its own in the analysis (it would read as uniform).
    const Expr *Bare = Cond->IgnoreParenImpCasts();
    if (const auto *Logical = dyn_cast<BinaryOperator>(Bare);
        Logical && Logical->isLogicalOp())
      return isWarpUniform(Logical->getLHS()) &&
             isWarpUniform(Logical->getRHS());
    if (const auto *Not = dyn_cast<UnaryOperator>(Bare);
        Not && Not->getOpcode() == UO_LNot)
      return isWarpUniform(Not->getSubExpr());
    Uniformity U = D->uniformityOf(Cond);
    return U.isUniformAt(Level::warp()) && symbolsUniform(U.symbols());
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
    if (Site && CallerP) {
      // The lanes the caller brings (none when it never gets to the call).
      auto Found = CallerP->Reach.find(Site);
      Entry.Lanes = WarpLanes();
      if (Found != CallerP->Reach.end()) {
        Entry.Lanes = Found->second.Lanes;
        Entry.Exited = Found->second.Exited;
        Entry.Exact = Found->second.Exact;
        Entry.Guard = Found->second.Guard;
        Entry.GuardHolds = Found->second.GuardHolds;
      }
    }
    if (containsGoto(FD->getBody()))
      Entry.Exact = false;
    walk(FD->getBody(), Entry);
  }
};

WarpLaneSets::WarpLaneSets(const FunctionDecl *FD, ASTContext &Ctx,
                           FactQueries &Manager)
    : P(std::make_unique<Impl>(FD, Ctx, Manager)) {
  P->run();
}

WarpLaneSets::WarpLaneSets(const FunctionDecl *FD, ASTContext &Ctx,
                           FactQueries &Manager, const CallExpr *Call,
                           const WarpLaneSets &Caller)
    : P(std::make_unique<Impl>(FD, Ctx, Manager)) {
  P->Site = Call;
  P->CallerP = Caller.P.get();
  P->ThreadIdxIsRowIndex = P->CallerP->ThreadIdxIsRowIndex;
  P->BlockDimAlignLog2 = P->CallerP->BlockDimAlignLog2;
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

namespace {

enum class ShuffleMode { Idx, Up, Down, Xor };

/// The lane \p Lane reads in a shuffle of \p Mode with source operand
/// \p B (srcLane, delta or lane mask) and width \p Width (a power of two),
/// as PTX's shfl.sync computes it; nullopt when it keeps its own value.
std::optional<unsigned> shuffleSource(ShuffleMode Mode, unsigned Lane,
                                      uint32_t B, unsigned Width) {
  unsigned Start = Lane & ~(Width - 1);
  unsigned End = Start + Width - 1;
  int J = 0;
  switch (Mode) {
  case ShuffleMode::Idx:
    return Start | (B & (Width - 1));
  case ShuffleMode::Up:
    J = static_cast<int>(Lane) - static_cast<int>(B & 31);
    if (J < static_cast<int>(Start))
      return std::nullopt;
    break;
  case ShuffleMode::Down:
    J = static_cast<int>(Lane + (B & 31));
    if (J > static_cast<int>(End))
      return std::nullopt;
    break;
  case ShuffleMode::Xor:
    // A lane may read an earlier segment, not a later one.
    J = static_cast<int>(Lane ^ (B & 31));
    if (J > static_cast<int>(End))
      return std::nullopt;
    break;
  }
  return static_cast<unsigned>(J);
}

} // namespace

std::optional<ShuffleReadProblem>
WarpLaneSets::shuffleReadProblem(const CallExpr *Call) const {
  llvm::StringRef Name = maskedWarpIntrinsicName(Call->getDirectCallee());
  if (!Name.starts_with("__shfl") || Call->getNumArgs() < 3)
    return std::nullopt;
  ShuffleMode Mode = Name == "__shfl_up_sync"     ? ShuffleMode::Up
                     : Name == "__shfl_down_sync" ? ShuffleMode::Down
                     : Name == "__shfl_xor_sync"  ? ShuffleMode::Xor
                                                  : ShuffleMode::Idx;
  std::optional<LaneReach> Reach = reachOf(Call);
  auto Masks = valuesAt(Call->getArg(0));
  if (!Reach || !Masks)
    return std::nullopt;
  unsigned Width = 32;
  if (Call->getNumArgs() >= 4 && !isa<CXXDefaultArgExpr>(Call->getArg(3))) {
    auto Widths = valuesAt(Call->getArg(3));
    if (!Widths)
      return std::nullopt;
    uint32_t W = (*Widths)[0];
    if (!llvm::all_of(*Widths, [&](uint32_t V) { return V == W; }) || W < 1 ||
        W > 32 || (W & (W - 1)) != 0)
      return std::nullopt;
    Width = W;
  }
  // With a width of 32 an up, down or xor shuffle in a sub-warp reduction
  // reads lanes past the mask's end into lanes whose results are dropped:
  // the idiom, not a finding. Broadcasts and narrower segments are checked.
  if (Width == 32 && Mode != ShuffleMode::Idx)
    return std::nullopt;
  auto Sources = valuesAt(Call->getArg(2));
  for (unsigned W = 0; W < WarpsPerRow; ++W) {
    LaneBits Callers = Reach->Lanes.Bits[W];
    if (!Callers)
      continue;
    ShuffleReadProblem Problem;
    Problem.Width = Width;
    Problem.Warp = W;
    auto [Mask, OneMask] = warpMask(*Masks, W, Callers);
    Problem.Mask = Mask;
    if (Sources) {
      // Callers must be known to call: a lane that only may arrive is not
      // said to read.
      if (!Reach->Exact)
        continue;
      for (unsigned L = 0; L < 32; ++L) {
        // A caller its mask leaves out is the caller rule's finding (or
        // its exemption), not this one's.
        if (!(Callers >> L & 1) || !((*Masks)[W * 32 + L] >> L & 1))
          continue;
        std::optional<unsigned> From =
            shuffleSource(Mode, L, (*Sources)[W * 32 + L], Width);
        if (From && *From != L && !((*Masks)[W * 32 + L] >> *From & 1)) {
          Problem.Readers |= static_cast<LaneBits>(1) << L;
          Problem.Unnamed |= static_cast<LaneBits>(1) << *From;
        }
      }
      if (Problem.Readers && OneMask)
        return Problem;
      continue;
    }
    if (Mode == ShuffleMode::Idx || !OneMask)
      continue;
    LaneBits SegmentLanes = (static_cast<LaneBits>(1) << Width) - 1;
    for (unsigned Start = 0; Start < 32; Start += Width) {
      LaneBits Segment = SegmentLanes << Start;
      LaneBits Named = Problem.Mask & Segment;
      if ((Callers & Named) && Named != Segment) {
        Problem.Segment = Segment;
        Problem.NamedInSegment = Named;
        return Problem;
      }
    }
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::analysis
