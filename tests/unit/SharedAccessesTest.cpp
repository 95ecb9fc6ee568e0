//===--- SharedAccessesTest.cpp - barrier intervals and shared cells ------===//
//
// The facts the shared-memory race rule reports from: which accesses a
// kernel makes to its __shared__ variables, which of them meet with no
// barrier between (BarrierIntervals), and whether two threads can touch one
// cell through two of them (SharedAccessAnalysis::conflict).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/SharedAccesses.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::analysis {
namespace {

struct Kernel {
  ParsedCuda P;
  AnalysisManager Manager;
  SharedAccessAnalysis Accesses;
  Kernel(llvm::StringRef Code, llvm::StringRef Name)
      : P(Code), Manager(P.context(), AnalysisOptions()),
        Accesses(P.function(Name), P.context(), Manager) {}
  const SharedAccess &at(size_t I) { return Accesses.accesses()[I]; }
};

TEST(SharedAccesses, KindsIndicesAndEscapes) {
  Kernel K(R"cu(
__device__ void sink(float *);
__global__ void k(float *out) {
  __shared__ float tile[64][2];
  __shared__ int count;
  __shared__ float escaped[8];
  tile[threadIdx.x][1] = 1.0f;
  tile[threadIdx.x][0] += 2.0f;
  out[0] = tile[0][1];
  atomicAdd(&count, 1);
  sink(escaped);
  escaped[0] = 1.0f;
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 4u) << "escaped is not tracked";
  EXPECT_EQ(K.at(0).K, SharedAccess::Write);
  EXPECT_EQ(K.at(0).Indices.size(), 2u);
  EXPECT_EQ(K.at(1).K, SharedAccess::ReadWrite);
  EXPECT_EQ(K.at(2).K, SharedAccess::Read);
  EXPECT_EQ(K.at(3).K, SharedAccess::Atomic);
}

TEST(SharedAccesses, BarriersSeparateAndBackEdgesJoin) {
  Kernel K(R"cu(
__global__ void k(float *out, int n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = out[t];            // 0
  __syncthreads();
  out[t] = s[(t + 1) % 256]; // 1: after the barrier
  for (unsigned d = 128; d > 0; d >>= 1) {
    if (t < d)
      s[t] += s[t + d];      // 2, 3: no barrier in the loop
  }
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 4u);
  EXPECT_NE(K.Accesses.intervalOf(K.at(0)), K.Accesses.intervalOf(K.at(1)));
  EXPECT_FALSE(K.Accesses.conflict(K.at(0), K.at(1)).has_value())
      << "the barrier orders them";
  // The reduction's read of t + d meets another thread's update of it in a
  // later step of the loop.
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(3), K.at(2));
  ASSERT_TRUE(C.has_value());
  EXPECT_TRUE(C->AcrossIterations);
  EXPECT_TRUE(C->CrossWarp);
}

TEST(SharedAccesses, CellsOfTwoThreads) {
  Kernel K(R"cu(
__global__ void k(float *out, int cur) {
  __shared__ float s[256];
  __shared__ float buf[2][256];
  __shared__ float flag;
  int t = threadIdx.x;
  s[t] = 1.0f;                      // 0
  out[t] = s[t];                    // 1: its own slot
  out[t] = s[t == 0 ? 0 : t - 1];   // 2: the left neighbour
  buf[cur][t] = 1.0f;               // 3
  out[t] = buf[cur ^ 1][t];         // 4: the other buffer, unrelated
  if (t == 0)
    flag = 2.0f;                    // 5: one writer
  out[t] = flag;                    // 6
  if (t < 32)
    out[t] = s[t + 1];              // 7: readers in warp 0 only
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 8u);
  EXPECT_FALSE(K.Accesses.conflict(K.at(0), K.at(1)).has_value());
  std::optional<SharedConflict> Left = K.Accesses.conflict(K.at(0), K.at(2));
  ASSERT_TRUE(Left.has_value());
  EXPECT_TRUE(Left->CrossWarp);
  EXPECT_FALSE(K.Accesses.conflict(K.at(3), K.at(4)).has_value());
  std::optional<SharedConflict> One = K.Accesses.conflict(K.at(5), K.at(6));
  ASSERT_TRUE(One.has_value());
  EXPECT_EQ(One->First[0], 0u);
  // Warp 0 reads s[1..32]; s[32] is thread 32's: one pair crosses warps.
  std::optional<SharedConflict> Edge = K.Accesses.conflict(K.at(0), K.at(7));
  ASSERT_TRUE(Edge.has_value());
  EXPECT_TRUE(Edge->CrossWarp);
  EXPECT_EQ(Edge->Cell, "s[32]");
}

TEST(SharedAccesses, BlockShapeFromTheLaunch) {
  Kernel K(R"cu(
__global__ void k(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[63 - threadIdx.x];
}
void host(float *out) { k<<<1, 64>>>(out); }
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  EXPECT_EQ(K.Accesses.blockShape()[0], 64u);
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(0), K.at(1));
  ASSERT_TRUE(C.has_value());
  EXPECT_TRUE(C->CrossWarp);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
