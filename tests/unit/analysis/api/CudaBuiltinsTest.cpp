//===--- CudaBuiltinsTest.cpp - the device API names the model knows ------===//
//
// The masked warp intrinsics are known by their declarations in CUDA's
// headers (global functions whose first parameter is an integer mask), the
// shuffles among them by kind; __activemask, the bit counts and the
// device-side stops clang declares without noreturn are known by name.
// The memory operations: fences, atomic functions and libcu++ atomics with
// their orders and scopes, cache-hinted loads and stores, WMMA stores and
// layouts; the halves of split barriers and the cluster's address mappings;
// the asynchronous copies, their waits and commits; the host runtime's
// launches, launch configurations and occupancy queries.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/api/CudaBuiltins.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include "gtest/gtest.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

/// The callee of every call in \p Function, by its name (the first call of
/// each name).
std::map<std::string, const FunctionDecl *> calleesOf(ParsedCuda &P,
                                                      llvm::StringRef Function) {
  std::map<std::string, const FunctionDecl *> Out;
  const FunctionDecl *FD = P.function(Function);
  for (const auto &Node :
       match(functionDecl(equalsNode(FD),
                          forEachDescendant(callExpr().bind("c"))),
             P.context()))
    if (const auto *Call = Node.getNodeAs<CallExpr>("c"))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        Out.emplace(Callee->getNameAsString(), Callee);
  return Out;
}

TEST(CudaBuiltins, MaskedWarpIntrinsicsByDeclaration) {
  ParsedCuda P(R"cu(
struct Tile { __device__ int __shfl_sync(unsigned m, int v, int l); };
__device__ int __ballot_sync(float *p, int v);
__global__ void k(int *out, float v, Tile t) {
  unsigned m = __activemask();
  out[0] = __shfl_sync(m, 1, 0);
  out[1] = __shfl_up_sync(m, 1, 1);
  out[2] = __shfl_down_sync(m, v, 1, 16);
  out[3] = __shfl_xor_sync(m, 1, 1);
  out[4] = __ballot_sync(m, 1) + __any_sync(m, 1) + __all_sync(m, 1);
  out[5] = __match_any_sync(m, 1);
  out[6] = __reduce_add_sync(m, 1);
  __syncwarp();
  out[7] = __popc(m) + __ffs(m) + __clz(m) + __brev(m);
  out[8] = t.__shfl_sync(m, 1, 0);
  out[9] = __ballot_sync((float *)0, 1);
  if (m == 0) __trap();
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Callees = calleesOf(P, "k");
  for (const char *Name :
       {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
        "__ballot_sync", "__any_sync", "__all_sync", "__match_any_sync",
        "__reduce_add_sync", "__syncwarp"}) {
    ASSERT_TRUE(Callees.count(Name)) << Name;
  }
  // __shfl_down_sync on a float and the int overload of __reduce_add_sync:
  // one name for each overload; __syncwarp's mask is its default argument.
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__shfl_down_sync"]),
            "__shfl_down_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__syncwarp"]), "__syncwarp");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__reduce_add_sync"]),
            "__reduce_add_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__shfl_sync"]), "__shfl_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__ballot_sync"]), "__ballot_sync");
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__match_any_sync"]),
            "__match_any_sync");
  // Not a masked intrinsic: a bit count, no callee, a member that happens
  // to share the name.
  EXPECT_EQ(maskedWarpIntrinsicName(Callees["__popc"]), "");
  EXPECT_EQ(maskedWarpIntrinsicName(nullptr), "");
  const FunctionDecl *Member = nullptr;
  for (const auto &Node :
       match(cxxMethodDecl(hasName("__shfl_sync")).bind("m"), P.context()))
    Member = Node.getNodeAs<FunctionDecl>("m");
  ASSERT_NE(Member, nullptr);
  EXPECT_EQ(maskedWarpIntrinsicName(Member), "");
  // The user's own __ballot_sync whose first parameter is no integer.
  const FunctionDecl *Own = nullptr;
  for (const auto &Node :
       match(functionDecl(hasName("__ballot_sync"),
                          hasParameter(0, hasType(pointerType())))
                 .bind("f"),
             P.context()))
    Own = Node.getNodeAs<FunctionDecl>("f");
  ASSERT_NE(Own, nullptr);
  EXPECT_EQ(maskedWarpIntrinsicName(Own), "");

  EXPECT_TRUE(isActiveMaskFunction(Callees["__activemask"]));
  EXPECT_FALSE(isActiveMaskFunction(Callees["__ballot_sync"]));
  EXPECT_FALSE(isActiveMaskFunction(nullptr));
  for (const char *Name : {"__popc", "__ffs", "__clz", "__brev"})
    EXPECT_TRUE(isBitCountFunction(Callees[Name])) << Name;
  EXPECT_FALSE(isBitCountFunction(Callees["__activemask"]));
  EXPECT_FALSE(isBitCountFunction(nullptr));
  EXPECT_TRUE(isUnmarkedDeviceStop(Callees["__trap"]));
  EXPECT_FALSE(isUnmarkedDeviceStop(Callees["__syncwarp"]));
  EXPECT_FALSE(isUnmarkedDeviceStop(nullptr));
}

TEST(CudaBuiltins, ShufflesAndOtherIntrinsicNames) {
  EXPECT_EQ(maskedShuffleKind("__shfl_sync"), ShuffleKind::Idx);
  EXPECT_EQ(maskedShuffleKind("__shfl_up_sync"), ShuffleKind::Up);
  EXPECT_EQ(maskedShuffleKind("__shfl_down_sync"), ShuffleKind::Down);
  EXPECT_EQ(maskedShuffleKind("__shfl_xor_sync"), ShuffleKind::Xor);
  EXPECT_FALSE(maskedShuffleKind("__shfl").has_value());
  EXPECT_FALSE(maskedShuffleKind("__ballot_sync").has_value());
  EXPECT_FALSE(maskedShuffleKind("").has_value());
  EXPECT_TRUE(isSyncWarpName("__syncwarp"));
  EXPECT_FALSE(isSyncWarpName("__syncthreads"));
  EXPECT_TRUE(isBallotSyncName("__ballot_sync"));
  EXPECT_FALSE(isBallotSyncName("__ballot"));
  EXPECT_FALSE(isBallotSyncName("__any_sync"));
}

TEST(CudaBuiltins, FencesAtomicsAndCacheHintsByName) {
  EXPECT_EQ(threadFenceScope("__threadfence_block"), ThreadScope::Block);
  EXPECT_EQ(threadFenceScope("__threadfence"), ThreadScope::Device);
  EXPECT_EQ(threadFenceScope("__threadfence_system"), ThreadScope::System);
  EXPECT_FALSE(threadFenceScope("atomic_thread_fence").has_value());
  EXPECT_FALSE(threadFenceScope("__syncthreads").has_value());
  EXPECT_TRUE(isAtomicThreadFenceName("atomic_thread_fence"));
  EXPECT_FALSE(isAtomicThreadFenceName("atomic_signal_fence"));
  EXPECT_FALSE(isAtomicThreadFenceName("__threadfence"));

  EXPECT_EQ(atomicMemberAccess("load"), AtomicAccess::Read);
  EXPECT_EQ(atomicMemberAccess("wait"), AtomicAccess::Read);
  EXPECT_EQ(atomicMemberAccess("store"), AtomicAccess::Write);
  for (const char *Name : {"exchange", "fetch_add", "fetch_or", "fetch_max",
                           "compare_exchange_strong",
                           "compare_exchange_weak"})
    EXPECT_EQ(atomicMemberAccess(Name), AtomicAccess::ReadModifyWrite)
        << Name;
  for (const char *Name : {"notify_one", "notify_all", "is_lock_free", ""})
    EXPECT_FALSE(atomicMemberAccess(Name).has_value()) << Name;
  EXPECT_TRUE(isCompareExchangeName("compare_exchange_weak"));
  EXPECT_FALSE(isCompareExchangeName("exchange"));

  EXPECT_EQ(atomicFunctionScope("atomicAdd"), ThreadScope::Device);
  EXPECT_EQ(atomicFunctionScope("atomicCAS_block"), ThreadScope::Block);
  EXPECT_EQ(atomicFunctionScope("atomicExch_system"), ThreadScope::System);
  EXPECT_EQ(atomicFunctionScope("atomicXor"), ThreadScope::Device);
  // Not one of CUDA's atomic functions: a suffix alone, another stem.
  for (const char *Name : {"atomicAdd_warp", "atomicFoo", "_block",
                           "atomic_thread_fence", "__nvvm_atom_add_gen_i"})
    EXPECT_FALSE(atomicFunctionScope(Name).has_value()) << Name;
  EXPECT_TRUE(isAtomicCasName("atomicCAS"));
  EXPECT_TRUE(isAtomicCasName("atomicCAS_system"));
  EXPECT_FALSE(isAtomicCasName("atomicExch"));
  EXPECT_FALSE(isAtomicCasName("compare_exchange_strong"));
  EXPECT_TRUE(hasAtomicPrefix("atomicAdd_block"));
  EXPECT_TRUE(hasAtomicPrefix("atomic_thread_fence"));
  EXPECT_FALSE(hasAtomicPrefix("__atomic_add"));
  // What a spin-wait may read that other threads change, by name.
  EXPECT_TRUE(mayReadOthersStateByName("atomicAdd"));
  EXPECT_TRUE(mayReadOthersStateByName("__atomic_load_n"));
  EXPECT_TRUE(mayReadOthersStateByName("atomic_load"));
  EXPECT_TRUE(mayReadOthersStateByName("__ldca"));
  // A name filter: a PTX-style helper spelled without "load" is not seen.
  EXPECT_FALSE(mayReadOthersStateByName("ld_acquire"));
  EXPECT_TRUE(mayReadOthersStateByName("load"));
  EXPECT_TRUE(mayReadOthersStateByName("__ldcg"));
  EXPECT_FALSE(mayReadOthersStateByName("__syncthreads"));
  EXPECT_FALSE(mayReadOthersStateByName("store"));

  // Loads that read past L1, loads that may hit it, and stores.
  for (const char *Name : {"__ldcg", "__ldcv", "__ldlu"}) {
    std::optional<CacheHintedAccess> A = cacheHintedAccess(Name);
    EXPECT_TRUE(A && !A->IsStore && A->BypassesL1) << Name;
  }
  for (const char *Name : {"__ldg", "__ldca", "__ldcs"}) {
    std::optional<CacheHintedAccess> A = cacheHintedAccess(Name);
    EXPECT_TRUE(A && !A->IsStore && !A->BypassesL1) << Name;
  }
  for (const char *Name : {"__stcg", "__stcs", "__stwt", "__stwb"}) {
    std::optional<CacheHintedAccess> A = cacheHintedAccess(Name);
    EXPECT_TRUE(A && A->IsStore && !A->BypassesL1) << Name;
  }
  for (const char *Name : {"__ldcg_v", "__ld", "__stg", "__threadfence"})
    EXPECT_FALSE(cacheHintedAccess(Name).has_value()) << Name;

  EXPECT_EQ(dimComponentIndex("x"), 0U);
  EXPECT_EQ(dimComponentIndex("y"), 1U);
  EXPECT_EQ(dimComponentIndex("z"), 2U);
  EXPECT_FALSE(dimComponentIndex("w").has_value());
  EXPECT_FALSE(dimComponentIndex("xy").has_value());
}

/// The declaration of the variable named \p Name in \p P.
const VarDecl *variable(ParsedCuda &P, llvm::StringRef Name) {
  for (const auto &Node :
       match(varDecl(hasName(Name)).bind("v"), P.context()))
    if (const auto *V = Node.getNodeAs<VarDecl>("v"))
      return V;
  ADD_FAILURE() << "no variable " << Name.str();
  return nullptr;
}

TEST(CudaBuiltins, LibcuxxAtomicsOrdersAndScopes) {
  ParsedCuda P(R"cu(
#include <cuda/atomic>
namespace cuda { namespace std { __device__ void in_cuda_std(); }
                 __device__ void in_cuda(); }
namespace other { __device__ void elsewhere(); }
template <class T, int S> struct atomic_ref { __device__ atomic_ref(T &); };
__global__ void k(int *p) {
  cuda::atomic_ref<int, cuda::thread_scope_device> v_dev(p[0]);
  cuda::atomic_ref<int, cuda::thread_scope_block> v_blk(p[1]);
  cuda::atomic_ref<int> v_sys(p[2]);
  cuda::std::atomic_ref<int> v_std_ref(p[3]);
  cuda::atomic<int, cuda::thread_scope_block> *v_ptr = nullptr;
  ::atomic_ref<int, 1> v_own(p[4]);
  int v_plain = 0;
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire,
                            cuda::thread_scope_block);
  cuda::std::in_cuda_std();
  cuda::in_cuda();
  other::elsewhere();
  (void)v_ptr; (void)v_plain;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  EXPECT_EQ(libcuxxAtomicScope(variable(P, "v_dev")->getType()),
            ThreadScope::Device);
  EXPECT_EQ(libcuxxAtomicScope(variable(P, "v_blk")->getType()),
            ThreadScope::Block);
  // thread_scope_system is cuda::atomic_ref's default; cuda::std:: atomics
  // have no scope parameter.
  EXPECT_EQ(libcuxxAtomicScope(variable(P, "v_sys")->getType()),
            ThreadScope::System);
  EXPECT_EQ(libcuxxAtomicScope(variable(P, "v_std_ref")->getType()),
            ThreadScope::System);
  EXPECT_EQ(libcuxxAtomicScope(variable(P, "v_ptr")->getType()),
            ThreadScope::Block);
  EXPECT_FALSE(libcuxxAtomicScope(variable(P, "v_own")->getType()).has_value());
  EXPECT_FALSE(
      libcuxxAtomicScope(variable(P, "v_plain")->getType()).has_value());
  EXPECT_FALSE(libcuxxAtomicScope(QualType()).has_value());

  auto Callees = calleesOf(P, "k");
  ASSERT_TRUE(Callees.count("in_cuda_std") && Callees.count("in_cuda") &&
              Callees.count("elsewhere"));
  EXPECT_EQ(libcuxxNamespaceOf(Callees["in_cuda_std"]),
            LibcuxxNamespace::CudaStd);
  EXPECT_EQ(libcuxxNamespaceOf(Callees["in_cuda"]), LibcuxxNamespace::Cuda);
  EXPECT_FALSE(libcuxxNamespaceOf(Callees["elsewhere"]).has_value());
  EXPECT_FALSE(libcuxxNamespaceOf(nullptr).has_value());
  ASSERT_TRUE(Callees.count("atomic_thread_fence"));
  EXPECT_TRUE(libcuxxNamespaceOf(Callees["atomic_thread_fence"]).has_value());

  // The fence's arguments: an order, then a scope, each an enumerator.
  const CallExpr *Fence = nullptr;
  for (const auto &Node :
       match(callExpr(callee(functionDecl(hasName("atomic_thread_fence"))))
                 .bind("c"),
             P.context()))
    Fence = Node.getNodeAs<CallExpr>("c");
  ASSERT_NE(Fence, nullptr);
  ASSERT_GE(Fence->getNumArgs(), 2U);
  auto ValueOf = [&](const Expr *E) {
    Expr::EvalResult R;
    EXPECT_TRUE(E->EvaluateAsInt(R, P.context()));
    return R.Val.getInt().getSExtValue();
  };
  QualType OrderType = Fence->getArg(0)->getType();
  QualType ScopeType = Fence->getArg(1)->getType();
  EXPECT_TRUE(isMemoryOrderType(OrderType));
  EXPECT_FALSE(isMemoryOrderType(ScopeType));
  EXPECT_FALSE(isMemoryOrderType(P.context().IntTy));
  EXPECT_EQ(memoryOrderOfValue(OrderType, ValueOf(Fence->getArg(0))),
            MemoryOrder::Acquire);
  EXPECT_EQ(threadScopeOfValue(ScopeType, ValueOf(Fence->getArg(1))),
            ThreadScope::Block);
  // A plain integer: libcu++'s numbering.
  EXPECT_EQ(memoryOrderOfValue(P.context().IntTy, 0), MemoryOrder::Relaxed);
  EXPECT_EQ(memoryOrderOfValue(P.context().IntTy, 3), MemoryOrder::Release);
  EXPECT_EQ(memoryOrderOfValue(P.context().IntTy, 9), MemoryOrder::SeqCst);
  EXPECT_EQ(threadScopeOfValue(P.context().IntTy, 0), ThreadScope::System);
  EXPECT_EQ(threadScopeOfValue(P.context().IntTy, 1), ThreadScope::Device);
  EXPECT_EQ(threadScopeOfValue(P.context().IntTy, 2), ThreadScope::Block);
  EXPECT_EQ(threadScopeOfValue(P.context().IntTy, 3), ThreadScope::Thread);
}

TEST(CudaBuiltins, WmmaStoresAndLayouts) {
  // A stand-in for <mma.h>: the same names and namespaces.
  ParsedCuda P(R"cu(
namespace nvcuda { namespace wmma {
enum layout_t { mem_row_major, mem_col_major };
__device__ void store_matrix_sync(float *p, int frag, unsigned ldm,
                                  layout_t layout);
__device__ void load_matrix_sync(int &frag, const float *p, unsigned ldm);
} }
namespace mine { __device__ void store_matrix_sync(float *p, int frag,
                                                   unsigned ldm); }
enum other_layout { mem_row_major_other };
__global__ void k(float *out) {
  int frag = 0;
  nvcuda::wmma::load_matrix_sync(frag, out, 16);
  nvcuda::wmma::store_matrix_sync(out, frag, 16, nvcuda::wmma::mem_col_major);
  mine::store_matrix_sync(out, frag, 16);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  const FunctionDecl *Store = nullptr;
  const FunctionDecl *Load = nullptr;
  const FunctionDecl *Mine = nullptr;
  for (const auto &Node :
       match(functionDecl(hasAnyName("store_matrix_sync", "load_matrix_sync"))
                 .bind("f"),
             P.context())) {
    const auto *FD = Node.getNodeAs<FunctionDecl>("f");
    if (FD->getName() == "load_matrix_sync")
      Load = FD;
    else if (FD->getNumParams() == 4)
      Store = FD;
    else
      Mine = FD;
  }
  ASSERT_TRUE(Store && Load && Mine);
  EXPECT_TRUE(isInWmmaNamespace(Store));
  EXPECT_TRUE(isInWmmaNamespace(Load));
  EXPECT_FALSE(isInWmmaNamespace(Mine));
  EXPECT_TRUE(isWmmaStoreMatrixSync(Store));
  EXPECT_FALSE(isWmmaStoreMatrixSync(Load));
  EXPECT_FALSE(isWmmaStoreMatrixSync(Mine));
  EXPECT_FALSE(isWmmaStoreMatrixSync(nullptr));

  auto Enumerator = [&](llvm::StringRef Name) -> const NamedDecl * {
    for (const auto &Node :
         match(enumConstantDecl(hasName(Name)).bind("e"), P.context()))
      return Node.getNodeAs<NamedDecl>("e");
    ADD_FAILURE() << "no enumerator " << Name.str();
    return nullptr;
  };
  EXPECT_EQ(wmmaLayoutOf(Enumerator("mem_row_major")), WmmaLayout::RowMajor);
  EXPECT_EQ(wmmaLayoutOf(Enumerator("mem_col_major")), WmmaLayout::ColMajor);
  EXPECT_FALSE(wmmaLayoutOf(Enumerator("mem_row_major_other")).has_value());
  EXPECT_FALSE(wmmaLayoutOf(nullptr).has_value());
}

TEST(CudaBuiltins, SplitBarrierParts) {
  ParsedCuda P(R"cu(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k() {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __syncthreads();
  auto token = block.barrier_arrive();
  block.barrier_wait(static_cast<decltype(token) &&>(token));
  __cluster_barrier_arrive_relaxed();
  __cluster_barrier_wait();
  grid.sync();
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  std::map<std::string, BarrierPart> Parts;
  for (const auto &Node :
       match(functionDecl(equalsNode(P.function("k")),
                          forEachDescendant(callExpr().bind("c"))),
             P.context()))
    if (const auto *Call = Node.getNodeAs<CallExpr>("c"))
      if (std::optional<BarrierCall> B = asBarrierCall(Call))
        Parts.emplace(B->Spelling, B->Part);
  const std::map<std::string, BarrierPart> Expected = {
      {"__syncthreads()", BarrierPart::Whole},
      {"thread_block::barrier_arrive()", BarrierPart::Arrive},
      {"thread_block::barrier_wait()", BarrierPart::Wait},
      {"__cluster_barrier_arrive_relaxed()", BarrierPart::Arrive},
      {"__cluster_barrier_wait()", BarrierPart::Wait},
      {"grid_group::sync()", BarrierPart::Whole}};
  EXPECT_EQ(Parts, Expected);
}

TEST(CudaBuiltins, ClusterMappingsAndPtxBarriers) {
  // Stand-ins for libcu++'s cuda::ptx wrappers and cg::cluster_group (which
  // the headers declare only when compiling for sm_90 with nvcc).
  ParsedCuda P(R"cu(
namespace cooperative_groups { struct cluster_group {
  template <class T> __device__ T *map_shared_rank(T *p, unsigned rank);
}; }
namespace cg = cooperative_groups;
namespace cuda { inline namespace v { namespace ptx {
__device__ void barrier_cluster_arrive();
__device__ void barrier_cluster_arrive_relaxed();
__device__ void barrier_cluster_wait();
__device__ int *mapa(int *p, unsigned rank);
} } }
namespace mine { __device__ int *mapa(int *p, unsigned rank);
                 __device__ void barrier_cluster_wait(); }
__global__ void k(int *p) {
  cg::cluster_group cluster;
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_arrive_relaxed();
  cuda::ptx::barrier_cluster_wait();
  mine::barrier_cluster_wait();
  p = cuda::ptx::mapa(p, 1) + *mine::mapa(p, 1);
  p = cluster.map_shared_rank(p, 1);
  p = (int *)__cluster_map_shared_rank(p, 1);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  std::map<std::string, std::vector<const FunctionDecl *>> Callees;
  for (const auto &Node :
       match(functionDecl(equalsNode(P.function("k")),
                          forEachDescendant(callExpr().bind("c"))),
             P.context()))
    if (const auto *Call = Node.getNodeAs<CallExpr>("c"))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        Callees[Callee->getNameAsString()].push_back(Callee);
  auto Ptx = [](const std::vector<const FunctionDecl *> &Of) {
    return llvm::find_if(Of, [](const FunctionDecl *FD) {
             return isInPtxNamespace(FD);
           }) != Of.end();
  };
  ASSERT_EQ(Callees["barrier_cluster_wait"].size(), 2U);
  ASSERT_EQ(Callees["mapa"].size(), 2U);
  EXPECT_TRUE(Ptx(Callees["barrier_cluster_wait"]));
  EXPECT_TRUE(Ptx(Callees["mapa"]));
  for (const FunctionDecl *FD : Callees["barrier_cluster_wait"]) {
    if (isInPtxNamespace(FD))
      EXPECT_EQ(ptxClusterBarrierPart(FD), BarrierPart::Wait);
    else
      EXPECT_FALSE(ptxClusterBarrierPart(FD).has_value());
  }
  for (const FunctionDecl *FD : Callees["mapa"])
    EXPECT_EQ(isClusterSharedRankMapping(FD), isInPtxNamespace(FD));
  ASSERT_EQ(Callees["barrier_cluster_arrive"].size(), 1U);
  ASSERT_EQ(Callees["barrier_cluster_arrive_relaxed"].size(), 1U);
  EXPECT_EQ(ptxClusterBarrierPart(Callees["barrier_cluster_arrive"][0]),
            BarrierPart::Arrive);
  EXPECT_EQ(
      ptxClusterBarrierPart(Callees["barrier_cluster_arrive_relaxed"][0]),
      BarrierPart::Arrive);
  EXPECT_FALSE(ptxClusterBarrierPart(nullptr).has_value());
  EXPECT_FALSE(isInPtxNamespace(nullptr));
  ASSERT_FALSE(Callees["map_shared_rank"].empty());
  ASSERT_FALSE(Callees["__cluster_map_shared_rank"].empty());
  EXPECT_TRUE(isClusterSharedRankMapping(Callees["map_shared_rank"][0]));
  EXPECT_TRUE(
      isClusterSharedRankMapping(Callees["__cluster_map_shared_rank"][0]));
  EXPECT_FALSE(isClusterSharedRankMapping(nullptr));
}

TEST(CudaBuiltins, AsyncCopiesWaitsAndCommits) {
  ParsedCuda P(R"cu(
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;
__device__ void memcpy_async(float *d, const float *s, unsigned n);
__global__ void k(const float *in,
                  cuda::barrier<cuda::thread_scope_block> *shared_bar) {
  __shared__ float tile[256];
  cuda::barrier<cuda::thread_scope_block> &bar = *shared_bar;
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 256);
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x],
                     cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(tile, in, sizeof(float), bar);
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], 4);
  memcpy_async(tile, in, 4);
  pipe.producer_commit();
  __pipeline_commit();
  cg::wait(block);
  cg::wait_prior<1>(block);
  pipe.consumer_wait();
  __pipeline_wait_prior(2);
  bar.arrive_and_wait();
  pipe.consumer_release();
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  // The calls of k in source order.
  std::vector<const CallExpr *> Calls;
  for (const auto &Node :
       match(functionDecl(equalsNode(P.function("k")),
                          forEachDescendant(callExpr().bind("c"))),
             P.context()))
    Calls.push_back(Node.getNodeAs<CallExpr>("c"));
  const SourceManager &SM = P.context().getSourceManager();
  llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  std::vector<AsyncCopyCall> Copies;
  std::vector<std::string> Waits;
  unsigned Commits = 0;
  std::optional<unsigned> Promised;
  for (const CallExpr *Call : Calls) {
    if (std::optional<AsyncCopyCall> Copy = asAsyncCopyCall(Call)) {
      Copies.push_back(*Copy);
      for (const Expr *Arg : Call->arguments())
        if (std::optional<unsigned> N = alignedSizeAlignment(Arg->getType()))
          Promised = N;
    }
    if (std::optional<AsyncWait> Wait = asAsyncWait(Call))
      Waits.push_back(Wait->Spelling);
    Commits += isAsyncCommit(Call);
  }
  // Source order; the user's own global memcpy_async is no copy.
  ASSERT_EQ(Copies.size(), 4U);
  EXPECT_EQ(Copies[0].Api, AsyncCopyApi::CooperativeGroups);
  EXPECT_EQ(Copies[0].DestinationArg, 1U);
  EXPECT_EQ(Copies[0].SourceArg, 2U);
  EXPECT_FALSE(Copies[0].ThreadScope);
  EXPECT_EQ(Copies[0].Spelling, "cooperative_groups::memcpy_async");
  EXPECT_EQ(Copies[1].Api, AsyncCopyApi::CudaPipeline);
  EXPECT_EQ(Copies[1].DestinationArg, 0U);
  EXPECT_EQ(Copies[1].SourceArg, 1U);
  EXPECT_TRUE(Copies[1].ThreadScope) << "a thread_scope_thread pipeline";
  EXPECT_EQ(Copies[2].Api, AsyncCopyApi::CudaBarrier);
  EXPECT_FALSE(Copies[2].ThreadScope);
  EXPECT_EQ(Copies[3].Api, AsyncCopyApi::Primitive);
  EXPECT_TRUE(Copies[3].ThreadScope);
  EXPECT_EQ(Copies[3].Spelling, "__pipeline_memcpy_async");
  EXPECT_EQ(Promised, 16U);
  EXPECT_FALSE(alignedSizeAlignment(P.context().IntTy).has_value());

  const std::vector<std::string> ExpectedWaits = {
      "cooperative_groups::wait", "cooperative_groups::wait_prior<1>",
      "cuda::pipeline::consumer_wait", "__pipeline_wait_prior(2)",
      "cuda::barrier::arrive_and_wait"};
  EXPECT_EQ(Waits, ExpectedWaits);
  EXPECT_EQ(Commits, 2U);
  EXPECT_FALSE(asAsyncCopyCall(nullptr).has_value());
  EXPECT_FALSE(asAsyncWait(nullptr).has_value());
  EXPECT_FALSE(isAsyncCommit(nullptr));
}

TEST(CudaBuiltins, HostLaunchesAndOccupancy) {
  // The runtime's own declarations (clang's CUDA wrappers include
  // cuda_runtime.h), a per-thread-stream form, and a user's namesake.
  ParsedCuda P(R"cu(
int cudaLaunchKernel_ptsz(const void *, dim3, dim3, void **, size_t, void *);
int cudaLaunchCooperativeKernel_ptsz(const void *, dim3, dim3, void **,
                                     size_t, void *);
namespace mine { int cudaLaunchKernel(const void *, int, int, void **,
                                      unsigned, void *); }
struct Config { int gridDim, attrs, numAttrs; };
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Named = [&](llvm::StringRef Name) -> const NamedDecl * {
    for (const auto &Node :
         match(namedDecl(hasName(Name)).bind("d"), P.context()))
      return Node.getNodeAs<NamedDecl>("d");
    ADD_FAILURE() << "no declaration " << Name.str();
    return nullptr;
  };
  auto Function = [&](llvm::StringRef Name) -> const FunctionDecl * {
    for (const auto &Node :
         match(functionDecl(hasName(Name)).bind("f"), P.context()))
      return Node.getNodeAs<FunctionDecl>("f");
    ADD_FAILURE() << "no function " << Name.str();
    return nullptr;
  };
  auto Record = [&](llvm::StringRef Name) -> const NamedDecl * {
    for (const auto &Node :
         match(recordDecl(hasName(Name)).bind("r"), P.context()))
      return Node.getNodeAs<NamedDecl>("r");
    ADD_FAILURE() << "no record " << Name.str();
    return nullptr;
  };
  EXPECT_EQ(runtimeLaunchOf(Function("::cudaLaunchKernel")),
            RuntimeLaunch::LaunchKernel);
  // The per-thread default stream's forms are the same launches.
  EXPECT_EQ(runtimeLaunchOf(Function("cudaLaunchKernel_ptsz")),
            RuntimeLaunch::LaunchKernel);
  EXPECT_EQ(runtimeLaunchOf(Function("cudaLaunchKernelExC")),
            RuntimeLaunch::LaunchKernelExC);
  EXPECT_EQ(runtimeLaunchOf(Function("cudaLaunchCooperativeKernel_ptsz")),
            RuntimeLaunch::LaunchCooperativeKernel);
  EXPECT_EQ(runtimeLaunchOf(Function("::cudaLaunchKernelEx")),
            RuntimeLaunch::LaunchKernelEx);
  EXPECT_FALSE(runtimeLaunchOf(Function("cudaLaunchHostFunc")).has_value());
  EXPECT_FALSE(
      runtimeLaunchOf(Function("mine::cudaLaunchKernel")).has_value());
  EXPECT_FALSE(runtimeLaunchOf(nullptr).has_value());

  EXPECT_TRUE(isCooperativeLaunchAttribute(
      Named("cudaLaunchAttributeCooperative")));
  EXPECT_FALSE(
      isCooperativeLaunchAttribute(Named("cudaLaunchAttributeIgnore")));
  EXPECT_TRUE(
      isMultiProcessorCountAttribute(Named("cudaDevAttrMultiProcessorCount")));
  EXPECT_FALSE(
      isMultiProcessorCountAttribute(Named("cudaDevAttrMaxThreadsPerBlock")));
  EXPECT_FALSE(isMultiProcessorCountAttribute(nullptr));

  const std::pair<const char *, LaunchConfigField> Fields[] = {
      {"cudaLaunchConfig_st::gridDim", LaunchConfigField::GridDim},
      {"cudaLaunchConfig_st::attrs", LaunchConfigField::Attrs},
      {"cudaLaunchConfig_st::numAttrs", LaunchConfigField::NumAttrs},
      {"cudaLaunchAttribute_st::id", LaunchConfigField::Id},
      {"cudaLaunchAttribute_st::val", LaunchConfigField::Val},
      {"cudaLaunchAttributeValue::cooperative",
       LaunchConfigField::Cooperative}};
  for (const auto &[Name, Field] : Fields) {
    const NamedDecl *D = Named(Name);
    for (const auto &[OtherName, Other] : Fields)
      EXPECT_EQ(isLaunchConfigField(D, Other), Field == Other)
          << Name << " as " << OtherName;
  }
  EXPECT_FALSE(isLaunchConfigField(Named("cudaLaunchConfig_st::blockDim"),
                                   LaunchConfigField::GridDim));
  EXPECT_FALSE(isLaunchConfigField(nullptr, LaunchConfigField::Id));

  EXPECT_TRUE(isDim3Record(Record("dim3")));
  EXPECT_FALSE(isDim3Record(Record("Config")));
  EXPECT_FALSE(isDim3Record(Record("uint3")));
  EXPECT_FALSE(isDim3Record(nullptr));

  EXPECT_EQ(occupancyQueryOf("cudaOccupancyMaxActiveBlocksPerMultiprocessor"),
            OccupancyQuery::MaxActiveBlocksPerMultiprocessor);
  EXPECT_EQ(
      occupancyQueryOf("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"),
      OccupancyQuery::MaxActiveBlocksPerMultiprocessor);
  EXPECT_EQ(occupancyQueryOf("cudaOccupancyMaxPotentialBlockSizeVariableSMem"),
            OccupancyQuery::MaxPotentialBlockSize);
  EXPECT_EQ(occupancyQueryOf("cuOccupancyMaxPotentialBlockSize"),
            OccupancyQuery::MaxPotentialBlockSize);
  EXPECT_FALSE(occupancyQueryOf("cudaOccupancyAvailableDynamicSMemPerBlock")
                   .has_value());
  for (const char *Name :
       {"cudaOccupancyMaxPotentialBlockSize",
        "cudaOccupancyMaxPotentialBlockSizeVariableSMem",
        "cudaOccupancyMaxPotentialBlockSizeWithFlags",
        "cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags"})
    EXPECT_TRUE(isRuntimeBlockSizeSearch(Name)) << Name;
  // The driver API's forms take a callback, not a template: no search to
  // follow.
  EXPECT_FALSE(isRuntimeBlockSizeSearch("cuOccupancyMaxPotentialBlockSize"));
  EXPECT_FALSE(isRuntimeBlockSizeSearch(
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor"));
  EXPECT_TRUE(isDeviceGetAttributeName("cudaDeviceGetAttribute"));
  EXPECT_TRUE(isDeviceGetAttributeName("cuDeviceGetAttribute"));
  EXPECT_FALSE(isDeviceGetAttributeName("cudaGetDeviceProperties"));
}

} // namespace
} // namespace clang::tidy::cuda::analysis
