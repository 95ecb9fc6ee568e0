//===--- WarpLaneSetsEvaluate.cpp - a condition at each thread ------------===//
//
// The evaluate phase of the lane-set analysis (WarpLaneSetsImpl.h): a
// compiled program evaluated at each of the 1024 threads of a row (exactly,
// or modulo the power of two a value's alignment keeps), and a condition
// decoded into the lanes of each warp it lets in, or found uniform across
// the warp.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/lanes/WarpLaneSetsImpl.h"

#include "llvm/ADT/bit.h"

namespace clang::tidy::cuda::analysis {

using namespace lanesets;

namespace {

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

/// Trailing zero bits of \p X as far as they are known.
unsigned knownTrailingZeros(const Val &X) {
  unsigned Zeros = X.V == 0 ? 64 : llvm::countr_zero(static_cast<uint64_t>(X.V));
  return std::min(Zeros, X.Known);
}

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

} // namespace

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

// --- conditions -------------------------------------------------------------

const std::optional<std::pair<WarpLanes, WarpLanes>> &
WarpLaneSets::Impl::decode(const Expr *Cond) {
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

bool WarpLaneSets::Impl::isWarpUniform(const Expr *Cond) const {
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

State WarpLaneSets::Impl::restrict(const State &In, const Expr *Cond,
                                   bool Holds, Split &How) {
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

} // namespace clang::tidy::cuda::analysis
