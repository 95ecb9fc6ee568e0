//===--- Uniformity.cpp - how widely a value is shared by GPU threads -----===//

#include "checks/analysis/core/Uniformity.h"

#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cassert>

namespace clang::tidy::cuda::analysis {

llvm::StringRef scopeName(Scope S) {
  switch (S) {
  case Scope::Thread:
    return "thread";
  case Scope::Warp:
    return "warp";
  case Scope::Block:
    return "block";
  case Scope::Cluster:
    return "cluster";
  case Scope::Grid:
    return "grid";
  }
  return "grid";
}

Level Level::tileLog2(unsigned Log2) {
  assert(Log2 <= MaxTileLog2 && "tiles are at most 1024 threads");
  return Level(static_cast<uint8_t>(std::min<unsigned>(Log2, MaxTileLog2)));
}

std::optional<Level> Level::tile(unsigned Size) {
  if (Size == 0 || !llvm::isPowerOf2_32(Size) || Size > (1u << MaxTileLog2))
    return std::nullopt;
  return tileLog2(llvm::Log2_32(Size));
}

Level Level::of(Scope S) {
  switch (S) {
  case Scope::Thread:
    return thread();
  case Scope::Warp:
    return warp();
  case Scope::Block:
    return block();
  case Scope::Cluster:
    return cluster();
  case Scope::Grid:
    return grid();
  }
  return grid();
}

Scope Level::scope() const {
  if (Value >= GridValue)
    return Scope::Grid;
  if (Value == ClusterValue)
    return Scope::Cluster;
  if (Value == BlockValue)
    return Scope::Block;
  // Tiles of 64..1024 threads contain whole warps but not a whole block.
  if (Value >= warp().Value)
    return Scope::Warp;
  return Scope::Thread;
}

Uniformity Uniformity::at(Level L, ValueOrigin Origin) {
  Uniformity U;
  U.L = L;
  if (L < Level::grid())
    U.Origin = Origin;
  return U;
}

Uniformity Uniformity::symbol(unsigned Index) {
  assert(Index < 64 && "symbols are bits of a 64-bit mask");
  Uniformity U;
  U.Symbols = static_cast<uint64_t>(1) << Index;
  return U;
}

bool Uniformity::isUniformWithinTile(unsigned Size) const {
  if (std::optional<Level> Tile = Level::tile(Size))
    return L >= *Tile;
  // Not a tile size: only block-wide uniformity is certain to cover it.
  return L >= Level::block();
}

Uniformity &Uniformity::setLaneLinear(Level OffsetLvl,
                                      unsigned OffsetAlignLog2,
                                      unsigned SpanLog2) {
  return setScaledLaneLinear(OffsetLvl, OffsetAlignLog2, 0, SpanLog2);
}

Uniformity &Uniformity::setScaledLaneLinear(Level OffsetLvl,
                                            unsigned OffsetAlignLog2,
                                            unsigned ScaleLog2,
                                            unsigned SpanLog2) {
  LaneLinear = true;
  OffsetLevel = OffsetLvl;
  OffsetAlign = static_cast<uint8_t>(std::min(OffsetAlignLog2, 63u));
  LaneScale = static_cast<uint8_t>(std::min(ScaleLog2, 63u));
  LaneSpan = static_cast<uint8_t>(std::min(SpanLog2, 63u));
  LaneShift = 0;
  return *this;
}

Uniformity &Uniformity::setLaneQuotient(Level OffsetLvl,
                                        unsigned OffsetAlignLog2,
                                        unsigned ShiftLog2,
                                        unsigned SpanLog2) {
  setScaledLaneLinear(OffsetLvl, OffsetAlignLog2, 0, SpanLog2);
  LaneShift = static_cast<uint8_t>(std::min(ShiftLog2, 63u));
  return *this;
}

Uniformity &Uniformity::clearLaneLinear() {
  LaneShift = 0;
  LaneLinear = false;
  OffsetLevel = Level::grid();
  OffsetAlign = 0;
  LaneScale = 0;
  LaneSpan = 63;
  return *this;
}

Uniformity &Uniformity::setKnownAlignLog2(unsigned Log2) {
  KnownAlign = static_cast<uint8_t>(std::min(Log2, 63u));
  return *this;
}

Uniformity Uniformity::fullWarpCollective(const Uniformity &Operand,
                                          ValueOrigin Origin) {
  // `this` as a whole is no input a call site narrows lane by lane: the
  // result is then only what every vote is, warp-wide.
  if (Operand.Symbols & (static_cast<uint64_t>(1) << ThisSymbol))
    return at(Level::warp(), Origin);
  Uniformity U = at(Operand.laneLevel(), Origin);
  U.CollectiveSymbols = Operand.Symbols | Operand.CollectiveSymbols;
  return U;
}

Uniformity &Uniformity::join(const Uniformity &Other) {
  Level Lanes = std::min(laneLevel(), Other.laneLevel());
  CollectiveSymbols |= Other.CollectiveSymbols;
  if (Other.L < L) {
    L = Other.L;
    Origin = Other.Origin;
  } else if (Origin.Kind == OriginKind::None && Other.L == L) {
    Origin = Other.Origin;
  }
  Symbols |= Other.Symbols;
  if (LaneLinear && Other.LaneLinear && LaneScale == Other.LaneScale &&
      LaneSpan == Other.LaneSpan && LaneShift == Other.LaneShift) {
    OffsetLevel = std::min(OffsetLevel, Other.OffsetLevel);
    OffsetAlign = std::min(OffsetAlign, Other.OffsetAlign);
  } else {
    clearLaneLinear();
  }
  KnownAlign = std::min(KnownAlign, Other.KnownAlign);
  PointsToLocal = PointsToLocal || Other.PointsToLocal;
  LaneLvl = Lanes;
  return *this;
}

Uniformity &Uniformity::narrowByPathChoice(const Uniformity &Choice) {
  Level Lanes = std::min(laneLevel(), Choice.laneLevel());
  CollectiveSymbols |= Choice.CollectiveSymbols;
  Symbols |= Choice.Symbols;
  if (Choice.L < L) {
    L = Choice.L;
    Origin = Choice.Origin;
  }
  if (LaneLinear) {
    // A lane term plus an offset picked per group of the choice's level:
    // still lane-linear when whole warps pick together.
    if (Choice.L < Level::warp())
      clearLaneLinear();
    else
      OffsetLevel = std::min(OffsetLevel, Choice.L);
  }
  LaneLvl = Lanes;
  return *this;
}

bool Uniformity::sameAs(const Uniformity &Other) const {
  return L == Other.L && Symbols == Other.Symbols &&
         LaneLinear == Other.LaneLinear &&
         PointsToLocal == Other.PointsToLocal &&
         OffsetLevel == Other.OffsetLevel &&
         OffsetAlign == Other.OffsetAlign && KnownAlign == Other.KnownAlign &&
         LaneScale == Other.LaneScale && LaneSpan == Other.LaneSpan &&
         LaneShift == Other.LaneShift &&
         CollectiveSymbols == Other.CollectiveSymbols &&
         laneLevel() == Other.laneLevel();
}

Uniformity Uniformity::resolve(
    llvm::function_ref<Uniformity(unsigned)> SymbolValue) const {
  Uniformity Result = *this;
  Result.Symbols = 0;
  Result.CollectiveSymbols = 0;
  Level Lanes = laneLevel();
  // Inputs seen only through whole-warp reductions narrow the value to what
  // the argument shares lane by lane across warps (Uniformity.h, laneLevel).
  for (unsigned I = 0; I < 64; ++I) {
    if (!(CollectiveSymbols & (static_cast<uint64_t>(1) << I)))
      continue;
    Uniformity Bound = SymbolValue(I);
    Level Across = Bound.laneLevel();
    if (Bound.Symbols & (static_cast<uint64_t>(1) << ThisSymbol))
      Across = std::min(Across, Level::warp());
    if (Across < Result.L) {
      Result.L = Across;
      Result.Origin = Bound.Origin;
    }
    Result.CollectiveSymbols |= (Bound.Symbols | Bound.CollectiveSymbols) &
                                ~(static_cast<uint64_t>(1) << ThisSymbol);
    Lanes = std::min(Lanes, Across);
  }
  bool AnyNarrowing = false;
  for (unsigned I = 0; I < 64; ++I) {
    if (!(Symbols & (static_cast<uint64_t>(1) << I)))
      continue;
    Uniformity Bound = SymbolValue(I);
    // Only what the argument says about sharing carries over; the arithmetic
    // facts of this value were derived assuming the input was uniform.
    if (Bound.L < Result.L) {
      Result.L = Bound.L;
      Result.Origin = Bound.Origin;
    }
    // A lane-linear value stays so while every input it was derived with is
    // still uniform within a warp: the inputs can only sit in its offset.
    if (Bound.L < Level::warp())
      AnyNarrowing = true;
    else
      Result.OffsetLevel = std::min(Result.OffsetLevel, Bound.L);
    Result.Symbols |= Bound.Symbols;
    Result.CollectiveSymbols |= Bound.CollectiveSymbols;
    Result.PointsToLocal = Result.PointsToLocal || Bound.PointsToLocal;
    Lanes = std::min(Lanes, Bound.laneLevel());
  }
  Result.LaneLvl = Lanes;
  if (AnyNarrowing)
    Result.clearLaneLinear();
  return Result;
}

} // namespace clang::tidy::cuda::analysis
