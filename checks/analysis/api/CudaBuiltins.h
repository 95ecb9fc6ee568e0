//===--- CudaBuiltins.h - the CUDA device API the analyses know ------------===//
//
// Recognisers for the parts of the CUDA device API that decide divergence:
// the built-in index variables, the barriers, the warp intrinsics and the
// cooperative-groups calls; and the memory operations the memory analyses
// model: fences, atomics and their orders and scopes, cache-hinted loads
// and stores, WMMA stores. They look at declarations, not spellings, so
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
#include <cstdint>
#include <optional>
#include <string>

namespace clang {
class CallExpr;
class Decl;
class Expr;
class FunctionDecl;
class NamedDecl;
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

/// Which part of a barrier a call is: the whole barrier, or one half of a
/// split barrier.
enum class BarrierPart {
  Whole,  ///< Arrive and wait: `__syncthreads()`, `sync()`.
  Arrive, ///< Signal the arrival and go on: `barrier_arrive()`,
          ///< `__cluster_barrier_arrive[_relaxed]()`,
          ///< `cuda::ptx::barrier_cluster_arrive*`.
  Wait,   ///< Wait for the others' arrival: `barrier_wait()`,
          ///< `__cluster_barrier_wait()`, `cuda::ptx::barrier_cluster_wait*`.
};

/// A call that every thread of a block, cluster or grid must reach together.
struct BarrierCall {
  Scope BarrierScope = Scope::Block;
  /// The group handle the barrier is called on, or nullptr for the
  /// __syncthreads family.
  const Expr *Group = nullptr;
  /// How messages name it: "__syncthreads()", "thread_block::sync()",
  /// "cooperative_groups::sync(grid_group)", ...
  std::string Spelling;
  /// The whole barrier, or the arrive or the wait half of a split one.
  BarrierPart Part = BarrierPart::Whole;
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

// --- memory operations: fences, atomics, cache-hinted accesses, WMMA -------

/// The memory orders of the C++ and PTX models, weakest first.
enum class MemoryOrder { Relaxed, Consume, Acquire, Release, AcqRel, SeqCst };
/// The thread scopes of libcu++ / PTX (.cta, .gpu, .sys).
enum class ThreadScope { Thread, Block, Device, System };

/// The scope of the fence a `__threadfence` intrinsic makes:
/// `__threadfence_block` Block, `__threadfence` Device,
/// `__threadfence_system` System; nullopt for any other name.
std::optional<ThreadScope> threadFenceScope(llvm::StringRef Name);

/// "atomic_thread_fence", the name of libcu++'s fence
/// (`cuda::atomic_thread_fence(order, scope)`,
/// `cuda::std::atomic_thread_fence(order)`); libcuxxNamespaceOf tells it
/// from the host library's std::atomic_thread_fence.
bool isAtomicThreadFenceName(llvm::StringRef Name);

/// Which of libcu++'s namespaces encloses a declaration: `cuda::` (whose
/// atomics and fences take a thread-scope argument) or `cuda::std::`
/// (whose atomics and fences are system scope).
enum class LibcuxxNamespace { Cuda, CudaStd };

/// The libcu++ namespace \p D is declared in (at any depth: `cuda::__4::`,
/// `cuda::std::__4::`), or nullopt when no enclosing namespace is `cuda`.
std::optional<LibcuxxNamespace> libcuxxNamespaceOf(const Decl *D);

/// True for an enumeration type whose name contains "memory_order"
/// (`std::memory_order`, `cuda::std::memory_order`): the type of an
/// atomic's or a fence's order argument.
bool isMemoryOrderType(QualType T);

/// The memory order the value \p V of the enumeration \p T names: by the
/// enumerator's name (`memory_order_relaxed`, `memory_order::acquire`,
/// ...), or, when \p T has no enumerator of that value, by libcu++'s
/// numbering (relaxed 0, consume 1, acquire 2, release 3, acq_rel 4,
/// seq_cst otherwise).
MemoryOrder memoryOrderOfValue(QualType T, int64_t V);

/// The thread scope the value \p V of the enumeration \p T names: by the
/// enumerator's name (`thread_scope_block`, `thread_scope_device`,
/// `thread_scope_system`, `thread_scope_thread`), or by libcu++'s numbering
/// (system 0, device 1, block 2, thread otherwise).
std::optional<ThreadScope> threadScopeOfValue(QualType T, int64_t V);

/// The scope of a libcu++ atomic object: `cuda::atomic_ref<T, S>` and
/// `cuda::atomic<T, S>` give S (system scope when S is defaulted away), the
/// `cuda::std::` forms System. \p T may be a reference or a pointer to one.
/// nullopt for any other type.
std::optional<ThreadScope> libcuxxAtomicScope(QualType T);

/// What a member function of a libcu++ atomic does to its location.
enum class AtomicAccess {
  Read,           ///< `load`, `wait`.
  Write,          ///< `store`.
  ReadModifyWrite ///< `exchange`, `fetch_*`, `compare_exchange_*`.
};

/// The access a member function of `cuda::atomic_ref` / `cuda::atomic`
/// (and the `cuda::std::` forms) named \p Name makes; nullopt for any other
/// name (`notify_one`, `is_lock_free`, ...).
std::optional<AtomicAccess> atomicMemberAccess(llvm::StringRef Name);

/// `compare_exchange_strong`, `compare_exchange_weak`: a libcu++ atomic's
/// compare-and-swap.
bool isCompareExchangeName(llvm::StringRef Name);

/// The scope of CUDA's atomic function named \p Name: `atomicAdd`,
/// `atomicSub`, `atomicExch`, `atomicMin`, `atomicMax`, `atomicInc`,
/// `atomicDec`, `atomicCAS`, `atomicAnd`, `atomicOr`, `atomicXor` are
/// Device, their `_block` forms Block and their `_system` forms System;
/// nullopt for any other name.
std::optional<ThreadScope> atomicFunctionScope(llvm::StringRef Name);

/// `atomicCAS` and its `_block` / `_system` forms.
bool isAtomicCasName(llvm::StringRef Name);

/// A name that starts with "atomic": the quick filter for CUDA's atomic
/// functions (`atomicAdd`, `atomicCAS_block`, ...), which lets through
/// anything else so spelled (`atomic_thread_fence`).
bool hasAtomicPrefix(llvm::StringRef Name);

/// A function that, by its name, may read memory other threads change: an
/// atomic (`atomicAdd`, the compiler's `__atomic_load_n`), a name with
/// "load" in it (`cuda::atomic_ref::load`, `load_acquire`), a cache-operator
/// load (`__ldcg`, `__ldg`). A name filter, not a proof (`ld_acquire` is not
/// seen): a spin-wait that calls one may wait for others
/// (divergence/ExitedThreads.h).
bool mayReadOthersStateByName(llvm::StringRef Name);

/// A load or store intrinsic with a cache operator (`__ldg`, `__ldcg`,
/// `__stcg`, ...; CUDA Programming Guide, "Load Functions Using Cache
/// Hints", "Store Functions Using Cache Hints").
struct CacheHintedAccess {
  /// A store (`__stcg(p, v)`: two arguments) rather than a load
  /// (`__ldcg(p)`: one).
  bool IsStore = false;
  /// For a load: it does not read a copy kept in L1 that another block's
  /// store could have left stale (`__ldcg` caches in L2 only, `__ldcv`
  /// fetches again, `__ldlu` is the last use). `__ldg`, `__ldca`, `__ldcs`
  /// may hit L1. Always false for stores.
  bool BypassesL1 = false;
};

/// `__ldg`, `__ldca`, `__ldcg`, `__ldcs`, `__ldlu`, `__ldcv` (loads) and
/// `__stcg`, `__stcs`, `__stwt`, `__stwb` (stores); nullopt for any other
/// name.
std::optional<CacheHintedAccess> cacheHintedAccess(llvm::StringRef Name);

/// True when \p D is declared in namespace `cuda::ptx` (in any inline
/// namespace of `cuda`): libcu++'s wrappers of single PTX instructions.
bool isInPtxNamespace(const Decl *D);

/// The half of the cluster barrier a `cuda::ptx` wrapper is:
/// `barrier_cluster_arrive[_relaxed]` Arrive, `barrier_cluster_wait` Wait;
/// nullopt for any other function.
std::optional<BarrierPart> ptxClusterBarrierPart(const FunctionDecl *FD);

/// A function that maps an address of the block's shared memory to the same
/// address in another block of the cluster (distributed shared memory):
/// `__cluster_map_shared_rank`, `cluster_group::map_shared_rank`,
/// `cuda::ptx::mapa`.
bool isClusterSharedRankMapping(const FunctionDecl *FD);

/// True when \p D is declared directly in namespace `nvcuda::wmma`.
bool isInWmmaNamespace(const Decl *D);

/// `nvcuda::wmma::store_matrix_sync(ptr, fragment, ldm[, layout])`.
bool isWmmaStoreMatrixSync(const FunctionDecl *FD);

/// The memory layout a `nvcuda::wmma::layout_t` enumerator names.
enum class WmmaLayout { RowMajor, ColMajor };

/// `mem_row_major` RowMajor, `mem_col_major` ColMajor, by the name of
/// \p D; nullopt for any other declaration.
std::optional<WmmaLayout> wmmaLayoutOf(const NamedDecl *D);

/// The index of the component a field of `dim3` / `uint3` names: `x` 0,
/// `y` 1, `z` 2; nullopt for any other name.
std::optional<unsigned> dimComponentIndex(llvm::StringRef FieldName);

// --- asynchronous copies: memcpy_async, cuda::pipeline, the primitives ----

/// Which API made an asynchronous copy, which decides what completes it.
enum class AsyncCopyApi {
  CooperativeGroups, ///< cg::memcpy_async(group, dst, src, size)
  CudaPipeline,      ///< cuda::memcpy_async(..., pipeline)
  CudaBarrier,       ///< cuda::memcpy_async(..., barrier)
  Primitive,         ///< __pipeline_memcpy_async(dst, src, size)
};

/// What the API fixes about a call that starts an asynchronous copy.
struct AsyncCopyCall {
  AsyncCopyApi Api = AsyncCopyApi::CooperativeGroups;
  /// The argument holding the destination (always one of the call's).
  unsigned DestinationArg = 0;
  /// The argument holding the source, the size following it; it may be
  /// past the call's last argument.
  unsigned SourceArg = 0;
  /// The wait completes the copy for the calling thread only (a
  /// thread-scope pipeline, the primitives).
  bool ThreadScope = false;
  /// "cooperative_groups::memcpy_async", ... for messages.
  std::string Spelling;
};

/// The copy \p Call starts: `cooperative_groups::memcpy_async(group, dst,
/// src, size)` (or `(group, dst, dstCount, src, srcCount)`),
/// `cuda::memcpy_async(..., dst, src, size, pipeline or barrier)`,
/// `__pipeline_memcpy_async(dst, src, size)`; nullopt for any other call.
std::optional<AsyncCopyCall> asAsyncCopyCall(const CallExpr *Call);

/// N of `cuda::aligned_size_t<N>` (a copy's size argument that promises
/// N-byte alignment), or nullopt for any other type.
std::optional<unsigned> alignedSizeAlignment(QualType T);

/// What a wait completes.
struct AsyncWait {
  enum Kind {
    All,        ///< every committed stage
    KeepNewest, ///< all but the newest Keep stages
    Oldest,     ///< the oldest stage
    Barrier,    ///< the copies tied to a cuda::barrier
  } K = All;
  unsigned Keep = 0;
  /// Completes only the calling thread's copies.
  bool ThreadScope = false;
  std::string Spelling;
};

/// The wait \p Call is: `cooperative_groups::wait(group)` and
/// `wait_prior<N>(group)`, `__pipeline_wait_prior(N)`,
/// `cuda::pipeline::consumer_wait[_for|_until]()`,
/// `cuda::pipeline_consumer_wait_prior<N>(pipe)`,
/// `cuda::barrier::arrive_and_wait()` and `wait()`; or nullopt.
std::optional<AsyncWait> asAsyncWait(const CallExpr *Call);

/// `pipe.producer_commit()`, `cuda::pipeline_producer_commit(pipe, bar)`,
/// `__pipeline_commit()`.
bool isAsyncCommit(const CallExpr *Call);

// --- the host runtime API: launches, their configuration, occupancy -------

/// The runtime functions that launch a kernel.
enum class RuntimeLaunch {
  LaunchKernel,            ///< cudaLaunchKernel(kernel, grid, block, ...)
  LaunchKernelEx,          ///< cudaLaunchKernelEx(&config, kernel, ...)
  LaunchKernelExC,         ///< cudaLaunchKernelExC(&config, kernel, args)
  LaunchCooperativeKernel, ///< cudaLaunchCooperativeKernel(kernel, grid, ...)
};

/// The launch \p FD makes, for a function declared at global scope; the
/// `_ptsz` / `_ptds` forms `--default-stream per-thread` substitutes count
/// as the plain ones. nullopt for any other function.
std::optional<RuntimeLaunch> runtimeLaunchOf(const FunctionDecl *FD);

/// The fields of `cudaLaunchConfig_t` and of its attributes that say how
/// large the grid is and whether the launch is cooperative.
enum class LaunchConfigField {
  GridDim,     ///< cudaLaunchConfig_t::gridDim
  Attrs,       ///< cudaLaunchConfig_t::attrs
  NumAttrs,    ///< cudaLaunchConfig_t::numAttrs
  Id,          ///< cudaLaunchAttribute::id
  Val,         ///< cudaLaunchAttribute::val, a cudaLaunchAttributeValue
  Cooperative, ///< cudaLaunchAttributeValue::cooperative
};

/// Whether \p D (a field; null is none) is the field \p Field, by name.
bool isLaunchConfigField(const Decl *D, LaunchConfigField Field);

/// `cudaLaunchAttributeCooperative`, the attribute id of a cooperative
/// launch.
bool isCooperativeLaunchAttribute(const Decl *D);

/// What an occupancy query of the runtime or the driver API computes.
enum class OccupancyQuery {
  /// `cudaOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags]`,
  /// `cuOccupancyMaxActiveBlocksPerMultiprocessor[WithFlags]`: how many
  /// blocks fit on one multiprocessor.
  MaxActiveBlocksPerMultiprocessor,
  /// `cudaOccupancyMaxPotentialBlockSize*`, `cuOccupancyMaxPotentialBlockSize*`:
  /// the smallest grid that fills the device, and the block size to use.
  MaxPotentialBlockSize,
};

/// The occupancy query a function named \p Name makes (any name that starts
/// like one of them), or nullopt.
std::optional<OccupancyQuery> occupancyQueryOf(llvm::StringRef Name);

/// The block-size search templates of cuda_runtime.h:
/// `cudaOccupancyMaxPotentialBlockSize[VariableSMem][WithFlags]`.
bool isRuntimeBlockSizeSearch(llvm::StringRef Name);

/// `cudaDeviceGetAttribute`, `cuDeviceGetAttribute`.
bool isDeviceGetAttributeName(llvm::StringRef Name);

/// `cudaDevAttrMultiProcessorCount`,
/// `CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT`: the device attribute that is
/// the number of multiprocessors.
bool isMultiProcessorCountAttribute(const Decl *D);

/// `cudaDeviceProp::multiProcessorCount`, by the field's name.
bool isMultiProcessorCountField(const Decl *D);

/// `dim3`, by the record's name.
bool isDim3Record(const NamedDecl *Record);

} // namespace clang::tidy::cuda::analysis

#endif
