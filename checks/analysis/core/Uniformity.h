//===--- Uniformity.h - how widely a value is shared by GPU threads -------===//
//
// The lattice of the divergence analysis. A value is *uniform* over a group of
// threads when every thread of that group that computes it gets the same
// result. The analysis records, for each value, the widest group over which it
// is uniform: the whole grid, a cluster, a block, a warp, or only the thread
// itself. Merging two facts keeps the narrower group, so the meet of the
// lattice is "narrower wins" and the analysis only ever narrows.
//
// Between a thread and a block the hierarchy has finer steps than the warp:
// aligned tiles of 2, 4, ... 1024 threads (what cg::tiled_partition<N> makes).
// They are kept as a Level so that tile-scope rules can ask "uniform within a
// tile of 16?" while everything else speaks in the five Scopes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_UNIFORMITY_H
#define CUDA_TIDY_CHECKS_ANALYSIS_UNIFORMITY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cstdint>
#include <optional>

namespace clang {
class Stmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// The groups of the CUDA thread hierarchy, narrowest first. A value "uniform
/// at Block" is the same for every thread of a block; it may still differ
/// between blocks.
enum class Scope : uint8_t { Thread, Warp, Block, Cluster, Grid };

/// "thread", "warp", "block", "cluster", "grid".
llvm::StringRef scopeName(Scope S);

/// A Scope refined with the aligned tiles inside a block. Ordered: a value
/// uniform at a level is uniform at every narrower level.
class Level {
public:
  /// Levels 0..10 are tiles of 2^k consecutive threads of a block
  /// (0 = one thread, 5 = a warp); then block, cluster, grid.
  static constexpr uint8_t MaxTileLog2 = 10;

  constexpr Level() : Value(GridValue) {}
  static constexpr Level thread() { return Level(0); }
  static constexpr Level warp() { return Level(5); }
  static constexpr Level block() { return Level(BlockValue); }
  static constexpr Level cluster() { return Level(ClusterValue); }
  static constexpr Level grid() { return Level(GridValue); }
  /// The level of an aligned tile of 2^Log2 threads, Log2 <= MaxTileLog2.
  static Level tileLog2(unsigned Log2);
  /// The level of a tile of \p Size threads, or nullopt when Size is not a
  /// power of two in 1..1024.
  static std::optional<Level> tile(unsigned Size);
  static Level of(Scope S);

  /// The widest Scope this level covers (a tile of 8 covers only Thread).
  Scope scope() const;
  /// log2 of the tile size for levels up to a block (a block counts as
  /// MaxTileLog2 + 1, which no tile reaches).
  unsigned tileLog2Value() const { return Value; }
  bool isTile() const { return Value <= MaxTileLog2; }

  friend bool operator<(Level A, Level B) { return A.Value < B.Value; }
  friend bool operator<=(Level A, Level B) { return A.Value <= B.Value; }
  friend bool operator>(Level A, Level B) { return A.Value > B.Value; }
  friend bool operator>=(Level A, Level B) { return A.Value >= B.Value; }
  friend bool operator==(Level A, Level B) { return A.Value == B.Value; }
  friend bool operator!=(Level A, Level B) { return A.Value != B.Value; }

private:
  static constexpr uint8_t BlockValue = MaxTileLog2 + 1;
  static constexpr uint8_t ClusterValue = MaxTileLog2 + 2;
  static constexpr uint8_t GridValue = MaxTileLog2 + 3;
  constexpr explicit Level(uint8_t V) : Value(V) {}
  uint8_t Value;
};

/// Why a value is not uniform: the first fact that narrowed it. Only the
/// diagnostics read it; it takes no part in the lattice order.
enum class OriginKind : uint8_t {
  None,               ///< Uniform, or nothing recorded.
  HardwareIndex,      ///< threadIdx, blockIdx, %laneid, thread_rank(), ...
  Intrinsic,          ///< Another intrinsic: __activemask(), clock(), a shuffle.
  AtomicResult,       ///< The old value an atomic read-modify-write returns.
  VolatileLoad,       ///< A volatile read: other threads may write between.
  InlineAsm,          ///< An output of inline assembly.
  SyncDivergence,     ///< Assigned on paths that split at a non-uniform branch.
  TemporalDivergence, ///< Live out of a loop whose exit is not uniform.
  CallResult,         ///< Returned by a call that is not uniform.
  SharedMemory,       ///< Loaded from __shared__ memory: one copy per block.
  EscapedLocal,       ///< A local whose address escaped, stored through.
  Unknown,            ///< A conservative answer (recursion, depth limit).
};

struct ValueOrigin {
  OriginKind Kind = OriginKind::None;
  /// The expression that produced the value (threadIdx.x, the atomic call),
  /// or for sync/temporal divergence the branch condition that split.
  const Stmt *Where = nullptr;
};

/// The abstract value of the analysis: how widely a value is shared, which
/// inputs of the function it depends on, and a few arithmetic facts that let
/// `threadIdx.x / 32` come out warp-uniform.
///
/// Inputs (\ref symbols): inside a __device__ function the parameters and
/// the captures of a lambda are unknown until a call site binds them. They
/// are *symbols*: the value is as narrow as level() and as narrow as each
/// symbol it depends on. Intraprocedural queries assume symbols are uniform;
/// call sites resolve them with the arguments (see resolve()).
class Uniformity {
public:
  /// Symbol numbers: a parameter is its index, a lambda capture is
  /// FirstCaptureSymbol + its capture index, a field of `*this` in a member
  /// function of any other class FirstCaptureSymbol + its index among the
  /// object's fields (divergence/DivergenceSolver.h, flattenedFields), and
  /// `this` as a whole is ThisSymbol.
  static constexpr unsigned ThisSymbol = 63;
  static constexpr unsigned FirstCaptureSymbol = 32;

  /// Uniform across the whole grid, depending on nothing.
  Uniformity() = default;
  static Uniformity uniform() { return Uniformity(); }
  static Uniformity at(Level L, ValueOrigin Origin);
  static Uniformity at(Scope S, ValueOrigin Origin) {
    return at(Level::of(S), Origin);
  }
  static Uniformity varying(ValueOrigin Origin) {
    return at(Level::thread(), Origin);
  }
  /// A function input: uniform until a call site says otherwise.
  static Uniformity symbol(unsigned Index);

  /// The level ignoring symbols (that is, assuming the inputs are uniform).
  Level level() const { return L; }
  Scope scope() const { return L.scope(); }
  bool isUniformAt(Scope S) const { return L >= Level::of(S); }
  bool isUniformAt(Level Other) const { return L >= Other; }
  /// Uniform within every aligned tile of \p Size threads (power of two).
  bool isUniformWithinTile(unsigned Size) const;
  /// Grid-uniform and independent of any input: a constant as far as
  /// divergence goes.
  bool isTop() const {
    return L == Level::grid() && Symbols == 0 && CollectiveSymbols == 0;
  }

  // --- lanes of different warps ---------------------------------------------
  /// The level over which threads at the same lane index (linear thread
  /// index mod 32) agree on the value: at least the warp (one thread per lane
  /// there), and the value's own level when that is the warp or wider. Wider
  /// than the warp for a value narrower than the warp means the value is a
  /// function of the lane and of data shared at that level: `tid % 32`
  /// (grid), `s[tid % 32]` for a __shared__ array s (block). A reduction of
  /// such a value over a whole warp gives every warp the same result, so it is
  /// uniform at that level (ggml's `all_inf = buf_iw[tid % WARP_SIZE];` then
  /// `warp_reduce_all(all_inf)`).
  Level laneLevel() const {
    return L >= Level::warp() ? L : std::max(LaneLvl, Level::warp());
  }
  /// Marks the value as agreeing across warps lane by lane up to \p Lanes.
  Uniformity &setLaneLevel(Level Lanes) {
    LaneLvl = Lanes;
    return *this;
  }
  /// The result of a reduction, vote or ballot over all 32 lanes of each warp
  /// of \p Operand: uniform within the warp, and as wide as the operand's
  /// laneLevel(). Inputs of the operand become collective inputs.
  static Uniformity fullWarpCollective(const Uniformity &Operand,
                                       ValueOrigin Origin);

  uint64_t symbols() const { return Symbols; }
  /// Inputs the value depends on only through a reduction over whole warps
  /// (`__all_sync(0xffffffff, x)` with x a parameter): a call site narrows
  /// the value to the argument's laneLevel(), not to its level().
  uint64_t collectiveSymbols() const { return CollectiveSymbols; }
  bool dependsOnSymbols() const {
    return Symbols != 0 || CollectiveSymbols != 0;
  }
  const ValueOrigin &origin() const { return Origin; }

  // --- arithmetic facts ----------------------------------------------------
  /// The value is `linear thread index within the block + U` with U uniform
  /// at laneOffsetLevel() and a multiple of 2^laneOffsetAlignLog2(). Dividing
  /// it by a tile size that U is aligned to gives a tile-uniform value.
  bool isLaneLinear() const {
    return LaneLinear && LaneScale == 0 && LaneShift == 0;
  }
  /// The value is `2^laneScaleLog2() * linear thread index + U`, U as
  /// above: a lane-linear value times a power of two (`(base + tid) * 4`).
  /// Only sums, power-of-two products and comparisons read the scaled form;
  /// everything else sees isLaneLinear() false for it.
  bool isScaledLaneLinear() const { return LaneLinear && LaneShift == 0; }
  /// The value is `(linear thread index) / 2^laneShiftLog2() + U`, U as
  /// above: a lane-linear value whose offset is a multiple of the divisor,
  /// divided (`(threadIdx.x + blockDim.x * blockIdx.x) / CGSize`). Only
  /// sums with uniform values and the difference of two such quotients (the
  /// thread's term cancels) read it; everything else sees neither form.
  bool isLaneQuotient() const { return LaneLinear && LaneShift > 0; }
  unsigned laneShiftLog2() const { return LaneShift; }
  unsigned laneScaleLog2() const { return LaneScale; }
  Level laneOffsetLevel() const { return OffsetLevel; }
  unsigned laneOffsetAlignLog2() const { return OffsetAlign; }
  /// The lane term is the linear thread index modulo 2^laneSpanLog2(): 63
  /// for the index itself, k for `tid % 2^k` and for threadIdx.x in blocks
  /// exactly 2^k wide (`dim3(4, 8, z)`). With U and a bound both multiples
  /// of 2^k, `(tid mod 2^k) + U < B` is decided by U alone, whatever the
  /// thread: as uniform as U and B (llm.c's `for (r = threadIdx.x; r <
  /// blockDim.z; r += 4)` with blockDim.x == 4 and blockDim.z a multiple of
  /// 4).
  unsigned laneSpanLog2() const { return LaneSpan; }
  /// The value is known to be a multiple of 2^knownAlignLog2().
  unsigned knownAlignLog2() const { return KnownAlign; }
  /// The value points to (or refers to) storage that may be a local of the
  /// function; loads through it read that local.
  bool mayPointToLocal() const { return PointsToLocal; }

  Uniformity &setLaneLinear(Level OffsetLvl, unsigned OffsetAlignLog2,
                            unsigned SpanLog2 = 63);
  /// As setLaneLinear, with the lane index scaled by 2^ScaleLog2.
  Uniformity &setScaledLaneLinear(Level OffsetLvl, unsigned OffsetAlignLog2,
                                  unsigned ScaleLog2, unsigned SpanLog2 = 63);
  /// As setLaneLinear, with the lane index divided by 2^ShiftLog2 (> 0).
  Uniformity &setLaneQuotient(Level OffsetLvl, unsigned OffsetAlignLog2,
                              unsigned ShiftLog2, unsigned SpanLog2 = 63);
  Uniformity &clearLaneLinear();
  Uniformity &setKnownAlignLog2(unsigned Log2);
  Uniformity &setPointsToLocal(bool V) {
    PointsToLocal = V;
    return *this;
  }
  /// Adds dependencies on inputs without narrowing the level.
  Uniformity &addSymbols(uint64_t More) {
    Symbols |= More;
    return *this;
  }
  /// Replaces the origin (used when a value is re-explained, e.g. by a call).
  Uniformity &setOrigin(ValueOrigin O) {
    Origin = O;
    return *this;
  }

  // --- lattice ---------------------------------------------------------------
  /// In place meet: the narrower level, the union of the symbols, the facts
  /// both sides share. The origin of the narrower side is kept.
  Uniformity &join(const Uniformity &Other);
  static Uniformity join(Uniformity A, const Uniformity &B) {
    A.join(B);
    return A;
  }
  /// The value was picked on paths that split at a branch whose condition
  /// is \p Choice (sync and temporal divergence, at the join): its level,
  /// the level of a lane-linear offset and the lane level drop to the
  /// choice's, its symbols join. What holds of the value on every path (its
  /// known alignment, a lane-linear form when the choice is warp-uniform)
  /// is kept: the incoming values were joined already. A plain join with
  /// the choice would erase them (a bound `n / 32 * 32` in the else arm of
  /// `if (a && b)` lost its alignment at the arm's entry).
  Uniformity &narrowByPathChoice(const Uniformity &Choice);
  /// Equal as lattice elements (the origin is not compared).
  bool sameAs(const Uniformity &Other) const;

  /// The value with each symbol replaced by what \p SymbolValue says of it
  /// (the uniformity of the argument at a call site).
  Uniformity
  resolve(llvm::function_ref<Uniformity(unsigned)> SymbolValue) const;
  /// The value with all symbols dropped (inputs taken as uniform).
  Uniformity withoutSymbols() const {
    Uniformity Copy = *this;
    Copy.Symbols = 0;
    Copy.CollectiveSymbols = 0;
    return Copy;
  }

private:
  // Widest first, so that the narrow fields pack (the solver keeps one per
  // variable per block and one per expression).
  uint64_t Symbols = 0;
  ValueOrigin Origin;
  uint64_t CollectiveSymbols = 0;
  Level L = Level::grid();
  Level LaneLvl = Level::thread();
  bool LaneLinear = false;
  bool PointsToLocal = false;
  Level OffsetLevel = Level::grid();
  uint8_t OffsetAlign = 0;
  uint8_t KnownAlign = 0;
  uint8_t LaneScale = 0;
  uint8_t LaneSpan = 63;
  uint8_t LaneShift = 0;
};

} // namespace clang::tidy::cuda::analysis

#endif
