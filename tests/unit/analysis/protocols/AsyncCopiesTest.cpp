//===--- AsyncCopiesTest.cpp - async copies, their stages and waits -------===//
//
// The facts cuda-memcpy-async-wait reports from (analysis/protocols/AsyncCopies.h):
// which calls are copies and waits, where a copy writes, how many stages a
// wait leaves in flight, which accesses meet a copy still in flight, and the
// alignment a cuda::aligned_size_t promise is checked against. The facts
// cuda-cluster-exit-sync reports from (analysis/protocols/ClusterExits.h): which
// accesses go to another block's shared memory, and which reach the exit
// with no cluster barrier after them.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/protocols/AsyncCopies.h"
#include "checks/analysis/protocols/ClusterExits.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

const char *Headers = R"cu(
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;
)cu";

struct Copies {
  ParsedCuda P;
  AnalysisManager Manager;
  AsyncCopyAnalysis A;
  Copies(llvm::StringRef Code, llvm::StringRef Name)
      : P(std::string(Headers) + Code.str()),
        Manager(P.context(), AnalysisOptions()),
        A(P.function(Name), P.context(), Manager) {}
  unsigned lineOf(const Expr *E) {
    return P.context().getSourceManager().getSpellingLineNumber(
        E->getBeginLoc());
  }
  /// The lines of the early accesses, with their reasons.
  std::vector<std::pair<unsigned, EarlyAccess::Reason>> early() {
    std::vector<std::pair<unsigned, EarlyAccess::Reason>> Out;
    for (const EarlyAccess &E : A.earlyAccesses())
      Out.emplace_back(lineOf(E.Access), E.Why);
    return Out;
  }
  unsigned firstLine() { return lineOf(A.copies().front().Call); }
};

TEST(AsyncCopies, RecognisesTheCopiesAndWhereTheyWrite) {
  Copies K(R"cu(
__global__ void k(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ float rows[2][128];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 256);
  cg::memcpy_async(block, rows[1], in, sizeof(float) * 128);
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
  __pipeline_memcpy_async(&rows[0][threadIdx.x], &in[threadIdx.x], 4);
  cg::wait(block);
  pipe.producer_commit();
  pipe.consumer_wait();
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x] + rows[0][threadIdx.x];
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  auto Copied = K.A.copies();
  ASSERT_EQ(Copied.size(), 4u);
  EXPECT_EQ(Copied[0].Api, AsyncCopyApi::CooperativeGroups);
  EXPECT_EQ(Copied[0].Buffer->getName(), "tile");
  EXPECT_EQ(Copied[0].Leading, nullptr) << "from the buffer's start";
  EXPECT_EQ(Copied[0].Bytes, std::optional<uint64_t>(1024));
  EXPECT_FALSE(Copied[0].ThreadScope);
  EXPECT_EQ(Copied[1].Buffer->getName(), "rows");
  ASSERT_NE(Copied[1].Leading, nullptr);
  EXPECT_EQ(Copied[2].Api, AsyncCopyApi::CudaPipeline);
  EXPECT_TRUE(Copied[2].ThreadScope) << "thread_scope_thread pipeline";
  EXPECT_EQ(Copied[3].Api, AsyncCopyApi::Primitive);
  EXPECT_TRUE(Copied[3].ThreadScope);
  EXPECT_EQ(Copied[3].Indices.size(), 2u);
  EXPECT_TRUE(K.A.earlyAccesses().empty());
}

TEST(AsyncCopies, AccessBeforeTheWaitOnSomePath) {
  Copies K(R"cu(
__global__ void k(const float *in, float *out, int n) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 256);
  if (n > 1)
    cg::wait(block);
  out[0] = tile[threadIdx.x];
  cg::wait(block);
  tile[threadIdx.x] = 0.0f;
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  unsigned Copy = K.firstLine();
  auto E = K.early();
  ASSERT_EQ(E.size(), 1u) << "the write after the second wait is safe";
  EXPECT_EQ(E[0].first, Copy + 3);
  EXPECT_EQ(E[0].second, EarlyAccess::NoWait);
  EXPECT_FALSE(K.A.earlyAccesses()[0].Writes);
}

TEST(AsyncCopies, WaitPriorKeepsTheNewestStages) {
  Copies K(R"cu(
__global__ void k(const float *in, float *out) {
  __shared__ float a[256], b[256], c[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, a, in, sizeof(float) * 256);
  cg::memcpy_async(block, b, in, sizeof(float) * 256);
  cg::memcpy_async(block, c, in, sizeof(float) * 256);
  cg::wait_prior<2>(block);
  out[0] = a[threadIdx.x] + b[threadIdx.x] + c[threadIdx.x];
  cg::wait_prior<1>(block);
  out[1] = b[threadIdx.x] + c[threadIdx.x];
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  unsigned Copy = K.firstLine();
  auto E = K.early();
  // a is complete after wait_prior<2>; b and c are not; after wait_prior<1>
  // only c is.
  ASSERT_EQ(E.size(), 3u);
  EXPECT_EQ(E[0].first, Copy + 4);
  EXPECT_EQ(E[1].first, Copy + 4);
  EXPECT_EQ(E[2].first, Copy + 6);
  for (const auto &Each : E)
    EXPECT_EQ(Each.second, EarlyAccess::LeftInFlight);
  EXPECT_EQ(K.A.earlyAccesses()[2].Buffer->getName(), "c");
}

TEST(AsyncCopies, ConsumerWaitCompletesTheOldestStage) {
  Copies K(R"cu(
__global__ void k(const float *in, float *out) {
  __shared__ float first[256], second[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  cuda::memcpy_async(&first[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  cuda::memcpy_async(&second[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[0] = first[threadIdx.x];
  out[1] = second[threadIdx.x];
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  auto E = K.early();
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].first, K.firstLine() + 6);
  EXPECT_EQ(E[0].second, EarlyAccess::LeftInFlight);
}

TEST(AsyncCopies, ThreadScopeWaitNeedsABarrierForOtherThreadsCells) {
  Copies K(R"cu(
__global__ void k(const float *in, float *out) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[0] = s[threadIdx.x];
  out[1] = s[(threadIdx.x + 1) % 256];
  __syncthreads();
  out[2] = s[(threadIdx.x + 2) % 256];
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  auto E = K.early();
  ASSERT_EQ(E.size(), 1u) << "own cell, then the neighbour's, then synced";
  EXPECT_EQ(E[0].first, K.firstLine() + 4);
  EXPECT_EQ(E[0].second, EarlyAccess::OtherThreads);
}

TEST(AsyncCopies, StagedRingSlotsAreNotGuessed) {
  Copies K(R"cu(
__global__ void k(const float *in, float *out, int steps) {
  __shared__ float ring[2][256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, ring[0], in, sizeof(float) * 256);
  for (int s = 0; s < steps; ++s) {
    cg::memcpy_async(block, ring[(s + 1) % 2], in, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    out[s] = ring[s % 2][threadIdx.x];
    block.sync();
  }
  cg::wait(block);
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  EXPECT_TRUE(K.A.earlyAccesses().empty());
}

TEST(AsyncCopies, AlignmentOfTheDestination) {
  Copies K(R"cu(
__global__ void k(const float4 *src, float *out) {
  __shared__ alignas(16) float s[4][64];
  __shared__ float plain[64];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  cuda::memcpy_async(&s[0][3], src, cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&s[1][threadIdx.x * 4], src, cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&s[2][threadIdx.x], src, cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&plain[1], src, cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  auto Copied = K.A.copies();
  ASSERT_EQ(Copied.size(), 4u);
  EXPECT_EQ(Copied[0].PromisedAlignment, 16u);
  EXPECT_EQ(Copied[0].DestinationMisalignment, std::optional<unsigned>(12));
  EXPECT_EQ(Copied[1].DestinationMisalignment, std::optional<unsigned>(0))
      << "a factor of 4 floats keeps it aligned";
  EXPECT_FALSE(Copied[2].DestinationMisalignment.has_value());
  EXPECT_FALSE(Copied[3].DestinationMisalignment.has_value())
      << "a buffer not declared aligned: its own address decides";
}

struct Cluster {
  ParsedCuda P;
  AnalysisManager Manager;
  ClusterExitAnalysis A;
  Cluster(llvm::StringRef Code, llvm::StringRef Name)
      : P(std::string(Headers) + Code.str()),
        Manager(P.context(), AnalysisOptions()),
        A(P.function(Name), P.context(), Manager) {}
  unsigned lineOf(const Stmt *S) {
    return P.context().getSourceManager().getSpellingLineNumber(
        S->getBeginLoc());
  }
};

TEST(ClusterExits, TheLastAccessBeforeAnUnsyncedExit) {
  Cluster K(R"cu(
__global__ void __cluster_dims__(2, 1, 1) k(int *out, int n) {
  __shared__ int s[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int *peer = cluster.map_shared_rank(s, 1);
  int *row = peer + 16;
  int v = peer[threadIdx.x];
  if (n > 0) {
    out[0] = v + row[threadIdx.x % 16];
    return;
  }
  v += peer[1];
  cluster.sync();
  out[1] = v;
}
)cu",
            "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  // peer[threadIdx.x], row[...], peer[1]: the pointer copies are not
  // accesses.
  EXPECT_EQ(K.A.accesses().size(), 3u);
  auto Exits = K.A.unsyncedExits();
  ASSERT_EQ(Exits.size(), 1u) << "the first access has a later one after it";
  const DsmemAccess &Access = K.A.accesses()[Exits[0].Access];
  EXPECT_EQ(Access.Via->getName(), "row");
  ASSERT_NE(Exits[0].Exit, nullptr);
  EXPECT_EQ(K.lineOf(Exits[0].Exit), K.lineOf(Access.Where) + 1)
      << "the return";
  EXPECT_FALSE(Exits[0].ArriveOnly);
}

TEST(ClusterExits, ArriveWithoutWaitAndTheSplitBarrier) {
  Cluster K(R"cu(
__global__ void __cluster_dims__(2, 1, 1) k(int *out, int n) {
  __shared__ int s[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int v = cluster.map_shared_rank(s, 1)[threadIdx.x];
  cluster.barrier_arrive();
  if (n > 0)
    cluster.barrier_wait();
  out[0] = v;
}
)cu",
            "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  auto Exits = K.A.unsyncedExits();
  ASSERT_EQ(Exits.size(), 1u);
  EXPECT_TRUE(Exits[0].ArriveOnly);
  EXPECT_EQ(Exits[0].Exit, nullptr) << "the end of the body";
  EXPECT_EQ(K.A.accesses()[Exits[0].Access].Via, nullptr);
}

TEST(ClusterExits, BarrierPartsAndMappings) {
  Cluster K(R"cu(
__device__ void leave(const cg::cluster_group &c) { c.sync(); }
__global__ void __cluster_dims__(2, 1, 1) k(int *out) {
  __shared__ int s[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  atomicAdd(cluster.map_shared_rank(&s[0], 0), 1);
  leave(cluster);
}
)cu",
            "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  EXPECT_EQ(K.A.accesses().size(), 1u) << "the atomic on the peer's cell";
  EXPECT_TRUE(K.A.unsyncedExits().empty()) << "the callee syncs the cluster";
}

} // namespace
} // namespace clang::tidy::cuda::analysis
