//===--- GlobalAccessesTest.cpp - warp exchanges through global memory ----===//
//
// The facts cuda-implicit-warp-sync reports for global-memory scratch and
// wmma tiles (GlobalAccesses.h): which accesses are collected, which reads
// race with another lane of the same warp, and which pairs are left alone
// (a __syncwarp() between, another parameter, another block's cell, a pair
// across warps, a call-site binding that does not show one warp).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/memory/GlobalAccesses.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

struct Found {
  ParsedCuda P;
  AnalysisManager Manager;
  std::unique_ptr<GlobalAccessAnalysis> Own;
  std::vector<std::unique_ptr<GlobalAccessAnalysis>> Sites;
  std::vector<MemoryExchange> Exchanges;
  Found(llvm::StringRef Code, llvm::StringRef Kernel)
      : P(Code), Manager(P.context(), AnalysisOptions()) {
    const FunctionDecl *K = P.function(Kernel);
    if (!K)
      return;
    Own = std::make_unique<GlobalAccessAnalysis>(K, P.context(), Manager);
    for (MemoryExchange &E : Own->exchanges())
      Exchanges.push_back(std::move(E));
    for (const CallExpr *Call : pointerArgumentCalls(K)) {
      GlobalAccessOptions Options;
      Options.Call = Call;
      Options.Caller = K;
      Sites.push_back(std::make_unique<GlobalAccessAnalysis>(
          Call->getDirectCallee()->getDefinition(), P.context(), Manager,
          Options));
      for (MemoryExchange &E : Sites.back()->exchanges())
        Exchanges.push_back(std::move(E));
    }
  }
};

TEST(GlobalAccesses, CollectsParameterAccesses) {
  Found X(R"cu(
__global__ void k(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float *row = scratch + blockIdx.x * blockDim.x;
  scratch[gid] = in[gid];
  row[threadIdx.x] += 1.0f;
  out[gid] = *row;
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_TRUE(X.Own);
  const std::vector<MemoryAccess> &A = X.Own->accesses();
  ASSERT_EQ(A.size(), 5u);
  EXPECT_EQ(A[0].K, MemoryAccess::Write);
  EXPECT_EQ(A[0].Base->getName(), "scratch");
  EXPECT_EQ(A[1].K, MemoryAccess::Read);
  EXPECT_EQ(A[1].Base->getName(), "in");
  EXPECT_EQ(A[2].K, MemoryAccess::ReadWrite);
  EXPECT_EQ(A[2].Base->getName(), "scratch") << "through the local pointer";
  EXPECT_EQ(A[3].Base->getName(), "out");
  EXPECT_EQ(A[4].K, MemoryAccess::Read);
  EXPECT_FALSE(A[4].Shared);
  EXPECT_EQ(X.Own->blockThreads(), 256u) << "no launch: the guess";
}

TEST(GlobalAccesses, NeighbourInWarpRaces) {
  Found X(R"cu(
__global__ void k(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[gid] = in[gid];
  out[gid] = scratch[gid ^ 1];
}
void host(float *o, float *s, float *i) { k<<<4, 128>>>(o, s, i); }
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_EQ(X.Own->blockThreads(), 128u) << "the launch's block";
  ASSERT_EQ(X.Exchanges.size(), 1u);
  const MemoryExchange &E = X.Exchanges.front();
  EXPECT_FALSE(E.Tile);
  EXPECT_EQ(E.Base->getName(), "scratch");
  ASSERT_EQ(E.Reads.size(), 1u);
  EXPECT_EQ(E.Reads[0].Witness.Reader, 0u);
  EXPECT_EQ(E.Reads[0].Witness.Writer, 1u);
  EXPECT_EQ(E.Reads[0].Witness.Cell, "scratch[blockIdx.x * 128 + 1]");
}

TEST(GlobalAccesses, SyncwarpBetweenIsQuiet) {
  Found X(R"cu(
__global__ void k(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int step = 1; step < 32; step <<= 1) {
    scratch[gid] = in[gid];
    __syncwarp();
    out[gid] += scratch[gid ^ step];
    __syncwarp();
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.Exchanges.empty());
}

TEST(GlobalAccesses, LoopWithoutSyncRaces) {
  Found X(R"cu(
__global__ void k(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[gid];
  for (int step = 16; step > 0; step >>= 1) {
    scratch[gid] = v;
    v += scratch[gid ^ step];
  }
  out[gid] = v;
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.Exchanges.size(), 1u);
  EXPECT_EQ(X.Exchanges[0].Reads[0].Witness.Reader, 0u);
  EXPECT_EQ(X.Exchanges[0].Reads[0].Witness.Writer, 16u)
      << "the smallest reader, and its partner of the first step (16)";
}

TEST(GlobalAccesses, OtherParameterOtherBlockAndAcrossWarpsAreQuiet) {
  Found X(R"cu(
__global__ void k(float *out, float *a, float *b, float *partial) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  a[gid] = 1.0f;
  out[gid] = b[gid ^ 1];
  if (threadIdx.x == 0)
    partial[blockIdx.x] = 2.0f;
  out[gid] += partial[blockIdx.x + 1];
  a[gid] = out[gid];
  out[gid] = a[gid + 1];
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  // a[gid + 1]: thread 31 reads thread 32's cell, in another warp. out's
  // own reads and writes are each thread's own cell.
  EXPECT_TRUE(X.Exchanges.empty());
}

TEST(GlobalAccesses, CallSiteBindsSegmentAndLane) {
  Found X(R"cu(
__device__ float swap(float *seg, int lane, float v) {
  seg[lane] = v;
  return seg[lane ^ 1];
}
__global__ void k(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = swap(scratch + (threadIdx.x / 32) * 32, threadIdx.x % 32, in[gid]);
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.Exchanges.size(), 1u);
  EXPECT_EQ(X.Exchanges[0].Base->getName(), "scratch")
      << "the kernel's parameter";
  EXPECT_EQ(X.Exchanges[0].Reads[0].Witness.Cell, "scratch[1]");

  Found Y(R"cu(
__device__ float swap(float *seg, int lane, float v) {
  seg[lane] = v;
  return seg[lane ^ 1];
}
__global__ void loaded(float *out, float *scratch, const int *lanes) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = swap(scratch, lanes[gid], 1.0f);
}
)cu",
          "loaded");
  ASSERT_TRUE(Y.P.parsedCleanly());
  EXPECT_TRUE(Y.Exchanges.empty()) << "a loaded lane does not evaluate";
}

// A stand-in for <mma.h>: the same names, namespaces and template shape.
constexpr const char *Wmma = R"cu(
namespace nvcuda { namespace wmma {
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };
template <typename Use, int M, int N, int K, typename T> class fragment {
public:
  T x[8];
};
__device__ void store_matrix_sync(float *p,
    const fragment<accumulator, 16, 16, 16, float> &a, unsigned ldm,
    layout_t layout) {}
__device__ void load_matrix_sync(fragment<accumulator, 16, 16, 16, float> &a,
    const float *p, unsigned ldm, layout_t layout) {}
} }
using namespace nvcuda;
)cu";

TEST(GlobalAccesses, TileReadByItsWarp) {
  std::string Code = std::string(Wmma) + R"cu(
__global__ void k(float *out) {
  __shared__ float tile[8][256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  float sum = 0.0f;
  for (int i = lane; i < 256; i += 32)
    sum += tile[warp][i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
)cu";
  Found X(Code, "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.Exchanges.size(), 1u);
  const MemoryExchange &E = X.Exchanges[0];
  EXPECT_TRUE(E.Tile);
  EXPECT_EQ(E.Base->getName(), "tile");
  EXPECT_EQ(E.Reads[0].Write->K, MemoryAccess::TileStore);
  EXPECT_TRUE(E.Reads[0].Read->Shared);
  EXPECT_EQ(E.Reads[0].Witness.Reader, 0u);
}

TEST(GlobalAccesses, TileSyncedReloadedOutsideOrOtherWarpIsQuiet) {
  std::string Code = std::string(Wmma) + R"cu(
__global__ void k(float *out) {
  __shared__ float tile[8][272];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::store_matrix_sync(&tile[warp][0], acc, 16, wmma::mem_row_major);
  wmma::load_matrix_sync(acc, &tile[warp][0], 16, wmma::mem_row_major);
  out[threadIdx.x] = tile[warp][256 + lane % 16];
  out[threadIdx.x] += tile[(warp + 1) % 8][lane];
  __syncwarp();
  out[threadIdx.x] += tile[warp][lane];
}
)cu";
  Found X(Code, "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.Exchanges.empty());
}

TEST(GlobalAccesses, TwoDimensionalBlocksAreNotAnalyzed) {
  Found X(R"cu(
__global__ void k(float *out, float *scratch) {
  int i = threadIdx.y * 32 + threadIdx.x;
  scratch[i] = 1.0f;
  out[i] = scratch[i ^ 1];
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.Own->accesses().empty());
  EXPECT_TRUE(X.Exchanges.empty());
}

} // namespace
} // namespace clang::tidy::cuda::analysis
