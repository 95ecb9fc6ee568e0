//===--- WarpLaneSets.h - which lanes of a warp reach each call -----------===//
//
// For every call in a function body: the lanes of each warp of the block
// that can reach it, and, for the warp intrinsics' lane masks, the mask each
// thread passes. cuda-warp-mask-mismatch compares the two.
//
// Lanes come from the conditions the code shows. A condition that is a
// function of threadIdx.x alone (`lane < 16`, `lane & 1`, `tid < 48`,
// `threadIdx.x % 32 >= 8`, `tile.thread_rank() == 0`, through locals given
// one value) is evaluated at each of the 1024 threads a block row can hold
// (threadIdx.x = 32 w + l for warp w, lane l), so each warp gets its own
// lane set: `tid < 48` lets all of warp 0 and lanes 0-15 of warp 1 in. A
// condition uniform across the warp (the divergence analysis says so) keeps
// a warp's lanes together; any other condition (`i < n`, a loaded value)
// leaves the set as an upper bound only (Exact false). Early exits
// (`return`, `break`, `continue`, a call that does not return) take their
// lanes out of what follows, and the lanes a kernel-level `return` took are
// remembered (Exited): for votes, matches and __syncwarp they have exited,
// which the Programming Guide allows.
//
// A value the evaluation does not follow (blockIdx.x, a parameter, a load)
// keeps what its alignment says: its low bits are known when it is a
// multiple of a power of two (blockDim.x as the TU's launches and checks
// show it, or 32 with AssumeBlockDimXMultipleOf32; a constant stride), so
// `(blockIdx.x * blockDim.x + threadIdx.x) % 32` is the lane exactly when
// that is provable. A condition known only in part at some thread is not
// decoded.
//
// With call-site context (the second constructor) a device function is
// walked as one call makes it: the caller's lanes at the call enter, and
// its parameters are the call's arguments as the caller evaluates them.
//
// The walk is one pass over the body's statements in order (loops once,
// with the calls of a loop whose iterations may see different lanes marked
// inexact), so the cost is the size of the function times the 1024 threads
// a decodable condition is evaluated at.
//
// threadIdx.x % 32 is taken to be the lane, as everywhere in the analyses:
// the block's rows are whole warps or the block is one-dimensional. A kernel
// the TU launches with a constant block width that is not a multiple of 32
// in a multi-dimensional block gets no threadIdx.x-based lane facts.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_WARPLANESETS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_WARPLANESETS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;
class FunctionDivergence;

/// Bit l: lane l.
using LaneBits = uint32_t;
/// A block row holds at most 1024 threads: 32 warps.
constexpr unsigned WarpsPerRow = 32;
constexpr unsigned ThreadsPerRow = 32 * WarpsPerRow;

/// A set of lanes for each warp of a block row (warp w: threadIdx.x 32 w to
/// 32 w + 31).
struct WarpLanes {
  std::array<LaneBits, WarpsPerRow> Bits{};

  static WarpLanes all();
  bool empty() const;
  bool operator==(const WarpLanes &O) const { return Bits == O.Bits; }
  bool operator!=(const WarpLanes &O) const { return Bits != O.Bits; }
  WarpLanes operator|(const WarpLanes &O) const;
  WarpLanes operator&(const WarpLanes &O) const;
  WarpLanes without(const WarpLanes &O) const;
};

/// The lanes that can reach a point.
struct LaneReach {
  /// Lanes that can reach it: an upper bound. A lane outside it cannot.
  WarpLanes Lanes = WarpLanes::all();
  /// Lanes that may have returned from the kernel (or stopped at a call
  /// that does not return) before it.
  WarpLanes Exited;
  /// Every condition on the way was decoded or uniform across the warp:
  /// a warp that gets here (converged at the function's entry) arrives with
  /// exactly Lanes, not a subset.
  bool Exact = true;
  /// The innermost decoded condition that took lanes out, and whether it
  /// held on the way here (for notes).
  const Expr *Guard = nullptr;
  bool GuardHolds = true;
};

/// The mask \p Call passes: whether its first argument is __activemask(),
/// directly or through a local given only that value.
bool isActiveMaskArgument(const Expr *Mask, const FunctionDecl *FD,
                          ASTContext &Ctx);

/// The mask the first of the \p Callers of warp \p W passes, and whether
/// every one of them passes that mask (\p Masks as valuesAt gives them).
std::pair<uint32_t, bool>
warpMask(const std::array<uint32_t, ThreadsPerRow> &Masks, unsigned W,
         LaneBits Callers);

/// "lane 3", "lanes 8-15", "lanes 0-3, 8-11 and 16" (en dashes).
std::string describeLanes(LaneBits Lanes);

/// A shuffle whose lanes read lanes its mask does not name (PTX shfl.sync:
/// each lane reads within its segment of `width` lanes, up/down/xor only
/// when the source stays in the segment (xor may read an earlier one), idx
/// at srcLane modulo width).
struct ShuffleReadProblem {
  unsigned Width = 32;
  /// The warp of the block row the problem shows in (threadIdx.x 32 Warp to
  /// 32 Warp + 31), and the mask its callers pass.
  unsigned Warp = 0;
  uint32_t Mask = 0;
  /// The source is known (delta, lane mask or srcLane at every caller):
  /// callers that read a lane the mask leaves out, and those lanes.
  LaneBits Readers = 0;
  LaneBits Unnamed = 0;
  /// The source is not known (an offset that changes in a loop): a segment
  /// of Width lanes with callers that the mask names only in part, and the
  /// part it names. Only for up, down and xor with a width below 32 (each
  /// lane of a segment reads the others as the offsets go).
  LaneBits Segment = 0;
  LaneBits NamedInSegment = 0;
};

class WarpLaneSets {
public:
  /// Walks \p FD's body. \p Manager answers which conditions are uniform
  /// across the warp and how wide the TU launches the kernel.
  WarpLaneSets(const FunctionDecl *FD, ASTContext &Ctx,
               FactQueries &Manager);
  /// Call-site context: walks \p FD as \p Call, a call of it that \p Caller
  /// walked, makes it. The lanes that reach the call enter \p FD (with
  /// their exactness, exits and guard); \p FD's parameters that it never
  /// writes are the call's arguments as \p Caller evaluates them (a
  /// parameter the call leaves out is its default); a condition is uniform
  /// across the warp only when the arguments it depends on are; threadIdx
  /// and blockDim are as for \p Caller. \p Caller must outlive this.
  WarpLaneSets(const FunctionDecl *FD, ASTContext &Ctx,
               FactQueries &Manager, const CallExpr *Call,
               const WarpLaneSets &Caller);
  ~WarpLaneSets();
  WarpLaneSets(const WarpLaneSets &) = delete;
  WarpLaneSets &operator=(const WarpLaneSets &) = delete;

  /// The lanes that reach \p Call; nullopt for a call the walk did not see
  /// (in a lambda, in dead code).
  std::optional<LaneReach> reachOf(const CallExpr *Call) const;

  /// The value of integer expression \p E at each thread of a row, when it
  /// is a function of threadIdx.x and constants only (a `__ballot_sync` of
  /// such a predicate, called where the lanes are known exactly, counts).
  /// nullopt when it is not, or is undefined at some thread.
  std::optional<std::array<uint32_t, ThreadsPerRow>>
  valuesAt(const Expr *E) const;

  /// How shuffle \p Call's width and mask fit together, for one warp: the
  /// first problem found, or nullopt when none shows (or the mask, width or
  /// lanes are not known).
  std::optional<ShuffleReadProblem>
  shuffleReadProblem(const CallExpr *Call) const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::analysis

#endif
