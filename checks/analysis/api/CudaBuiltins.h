//===--- CudaBuiltins.h - the CUDA device API the analyses know ------------===//
//
// Recognisers for the parts of the CUDA device API that decide divergence:
// the built-in index variables, the barriers, the warp intrinsics and the
// cooperative-groups calls. They look at declarations, not spellings, so
// macros, using-declarations and namespace aliases do not hide anything.
//
// Nothing here knows about diagnostics; the divergence analysis uses these to
// model values, and the checks use them to find the calls they rule on.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CUDABUILTINS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CUDABUILTINS_H

#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/core/Uniformity.h"

#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// A read of one of the built-in index variables.
struct BuiltinIndexRead {
  enum Variable { ThreadIdx, BlockIdx, BlockDim, GridDim } Var;
  /// 'x', 'y' or 'z'; 0 when the whole variable is read (e.g. converted to
  /// dim3).
  char Component = 0;
};

/// `threadIdx.x`, `blockDim.y`, ... (clang models them as property reads of
/// __cuda_builtin_*_t objects), or nullopt.
std::optional<BuiltinIndexRead> asBuiltinIndexRead(const Expr *E);

/// "threadIdx", "blockIdx", "blockDim", "gridDim".
llvm::StringRef builtinIndexName(BuiltinIndexRead::Variable V);

/// A call that every thread of a block, cluster or grid must reach together.
struct BarrierCall {
  Scope BarrierScope = Scope::Block;
  /// The group handle the barrier is called on, or nullptr for the
  /// __syncthreads family.
  const Expr *Group = nullptr;
  /// How messages name it: "__syncthreads()", "thread_block::sync()",
  /// "cooperative_groups::sync(grid_group)", ...
  std::string Spelling;
};

/// Recognises block-, cluster- and grid-scope barriers: the __syncthreads
/// family, sync()/barrier_arrive()/barrier_wait() on a thread_block,
/// cluster_group or grid_group, and cooperative_groups::sync(group) on one of
/// them. Warp- and tile-scope synchronisation is not a barrier here.
std::optional<BarrierCall> asBarrierCall(const CallExpr *Call);

/// The cooperative-groups handle a call operates on: the object of a member
/// call, or the first argument of a cooperative_groups free function whose
/// first parameter is a group.
struct GroupOperand {
  GroupKind Kind = GroupKind::ThreadGroup;
  /// The tile size of a thread_block_tile<N>, when static.
  std::optional<unsigned> TileSize;
  const Expr *Handle = nullptr;
};
std::optional<GroupOperand> groupOperandOf(const CallExpr *Call);

/// The N of thread_block_tile<N, ...> (or of one of its bases), if \p T is a
/// static tile type.
std::optional<unsigned> tileSizeOfType(QualType T);

/// The level over which every member of a group sees the same value of a
/// collective on that group (a block: Block; a tile of 16: a tile of 16).
/// Type-erased and coalesced groups give Thread: their membership is only
/// known at run time.
Level collectiveLevel(const GroupOperand &Group);

/// True for the declaration of a function in the cooperative_groups
/// namespace (or a member of one of its classes).
bool isCooperativeGroupsFunction(const FunctionDecl *FD);

/// How the result of a known device function relates to its operands.
enum class ResultRule {
  Fixed,           ///< Always at FixedLevel (threadIdx-like sources, votes).
  Atomic,          ///< The old value of an atomic: thread-dependent.
  ShuffleIndexed,  ///< __shfl_sync / tile.shfl: uniform if the source lane is.
  ShuffleRelative, ///< __shfl_{up,down,xor}_sync: uniform only if the value is.
  FirstArgument,   ///< __builtin_expect and friends: the first argument.
  GroupHandle,     ///< Makes or names a group handle: nothing to track.
  /// A vote or reduction over all lanes of a warp (`__all_sync(FULL, p)`,
  /// `tile32.any(p)`, `cg::reduce(tile32, v, op)`): warp-uniform, and as
  /// wide as the operand agrees lane by lane across warps
  /// (Uniformity::fullWarpCollective).
  WarpCollective,
};

struct ResultModel {
  ResultRule Rule = ResultRule::Fixed;
  Level FixedLevel = Level::grid();
  OriginKind Origin = OriginKind::Intrinsic;
  /// ShuffleIndexed / ShuffleRelative: which arguments hold the value, the
  /// source lane (indexed) or the lane delta (relative), and the width (-1
  /// when absent), and the level the shuffle
  /// is confined to (a warp, or the tile it is called on).
  int ValueArg = -1;
  int SourceArg = -1;
  int WidthArg = -1;
  /// WarpCollective: the argument holding the lane mask (-1: none, the group
  /// is the whole warp); the collective is whole-warp only when the mask is
  /// the constant 0xffffffff. ValueArg holds the operand.
  int MaskArg = -1;
  Level ShuffleLevel = Level::warp();
};

/// What the analysis knows about the result of \p Call, or nullopt for an
/// ordinary function (whose result is then taken from its summary, or as a
/// pure function of its arguments). \p AssumeWarpAlignedRows makes
/// threadIdx.y/z warp-uniform.
std::optional<ResultModel> knownResultModel(const CallExpr *Call,
                                            bool AssumeWarpAlignedRows);

/// The level shared by the outputs of an inline-assembly statement with this
/// text: a special register gives its own level (%ctaid: Block, %laneid:
/// Thread), memory and lane operations give Thread, and plain arithmetic
/// gives Grid, meaning "as uniform as the inputs", which the caller joins.
Level inlineAsmOutputLevel(llvm::StringRef AsmText);

/// True when the inline assembly's only instruction copies `%laneid` into
/// its first output (`mov.u32 %0, %%laneid;`, faiss's and CUTLASS's
/// getLaneId()). Warps are cut from the linear thread index, so the lane id
/// is that index modulo 32: lane-linear, the same function of the lane in
/// every warp, like `threadIdx.x % 32`.
bool isLaneIdRead(llvm::StringRef AsmText);

/// "__shfl_down_sync", ...: the warp intrinsics whose first argument is a
/// lane mask, as CUDA 13's headers and clang 22's CUDA wrappers declare them
/// (overloaded functions at global scope, never members, the mask an
/// integer): the shuffles, the votes, the matches, `__syncwarp` and the
/// reductions; empty for any other callee.
llvm::StringRef maskedWarpIntrinsicName(const FunctionDecl *FD);

/// How a shuffle picks the lane each lane reads: at an index, a delta up or
/// down, or a lane mask xor-ed with its own lane.
enum class ShuffleKind { Idx, Up, Down, Xor };

/// The shuffle a masked warp intrinsic's name (maskedWarpIntrinsicName)
/// names: "__shfl_sync" Idx, "__shfl_up_sync" Up, "__shfl_down_sync" Down,
/// "__shfl_xor_sync" Xor; nullopt for any other name.
std::optional<ShuffleKind> maskedShuffleKind(llvm::StringRef Name);

/// "__syncwarp".
bool isSyncWarpName(llvm::StringRef Name);

/// "__ballot_sync".
bool isBallotSyncName(llvm::StringRef Name);

/// `__activemask`, the lanes active at the call.
bool isActiveMaskFunction(const FunctionDecl *FD);

/// The bit-count intrinsics a lane mask is fed to: `__ffs`, `__popc`,
/// `__fns`, `__clz`, `__brev` and their 64-bit forms.
bool isBitCountFunction(const FunctionDecl *FD);

/// A device-side stop that clang's CUDA wrappers declare without the
/// noreturn attribute: `__assert_fail` and `__assertfail` (assert's failure
/// path), `__trap`, `abort`.
bool isUnmarkedDeviceStop(const FunctionDecl *FD);

} // namespace clang::tidy::cuda::analysis

#endif
