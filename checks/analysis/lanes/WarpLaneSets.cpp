//===--- WarpLaneSets.cpp - which lanes of a warp reach each call ---------===//
//
// The public face of the lane-set analysis; its phases are
// WarpLaneSetsCollect.cpp, WarpLaneSetsEvaluate.cpp and WarpLaneSetsWalk.cpp
// (WarpLaneSetsImpl.h).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/lanes/WarpLaneSets.h"
#include "checks/analysis/lanes/WarpLaneSetsImpl.h"

#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/bit.h"

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

namespace {

bool isActiveMaskCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts()
                                                  : nullptr);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return isActiveMaskFunction(Callee) && Call->getNumArgs() == 0;
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

using namespace lanesets;

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

/// The lane \p Lane reads in a shuffle of \p Mode with source operand
/// \p B (srcLane, delta or lane mask) and width \p Width (a power of two),
/// as PTX's shfl.sync computes it; nullopt when it keeps its own value.
std::optional<unsigned> shuffleSource(ShuffleKind Mode, unsigned Lane,
                                      uint32_t B, unsigned Width) {
  unsigned Start = Lane & ~(Width - 1);
  unsigned End = Start + Width - 1;
  int J = 0;
  switch (Mode) {
  case ShuffleKind::Idx:
    return Start | (B & (Width - 1));
  case ShuffleKind::Up:
    J = static_cast<int>(Lane) - static_cast<int>(B & 31);
    if (J < static_cast<int>(Start))
      return std::nullopt;
    break;
  case ShuffleKind::Down:
    J = static_cast<int>(Lane + (B & 31));
    if (J > static_cast<int>(End))
      return std::nullopt;
    break;
  case ShuffleKind::Xor:
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
  std::optional<ShuffleKind> Kind =
      maskedShuffleKind(maskedWarpIntrinsicName(Call->getDirectCallee()));
  if (!Kind || Call->getNumArgs() < 3)
    return std::nullopt;
  ShuffleKind Mode = *Kind;
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
  if (Width == 32 && Mode != ShuffleKind::Idx)
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
    if (Mode == ShuffleKind::Idx || !OneMask)
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
