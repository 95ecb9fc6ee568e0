//===--- SharedAccessesTest.cpp - barrier intervals and shared cells ------===//
//
// The facts the shared-memory race rule reports from: which accesses a
// kernel makes to its __shared__ variables, which of them meet with no
// barrier between (BarrierIntervals), and whether two threads can touch one
// cell through two of them (SharedAccessAnalysis::conflict).
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/memory/SharedAccesses.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

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

TEST(SharedAccesses, GuardRepeatingTheLoopConditionIsTaken) {
  // The trailing barrier's guard is the loop's own condition (0, 1), or its
  // negation (2, 3): every iteration passes the barrier, so the next step's
  // store waits for this step's read. Where the body changes the guard's
  // variable (4, 5) or the guard tests another value (6, 7), it may not.
  Kernel K(R"cu(
__global__ void k(float *out, int n, int m) {
  __shared__ float a[32], b[32], c[32], d[32];
  int t = threadIdx.x;
  for (int j = 0; j < n; ++j) {
    a[t / 32] = 1.0f;               // 0
    __syncthreads();
    out[t] = a[t % 32];             // 1
    if (j < n)
      __syncthreads();
  }
  for (int j = 0; j < n; ++j) {
    b[t / 32] = 1.0f;               // 2
    __syncthreads();
    out[t] = b[t % 32];             // 3
    if (j >= n)
      continue;
    __syncthreads();
  }
  for (int j = 0; j < n; ++j) {
    c[t / 32] = 1.0f;               // 4
    __syncthreads();
    out[t] = c[t % 32];             // 5
    n = out[0];
    if (j < n)
      __syncthreads();
  }
  for (int j = 0; j < n; ++j) {
    d[t / 32] = 1.0f;               // 6
    __syncthreads();
    out[t] = d[t % 32];             // 7
    if (j < m)
      __syncthreads();
  }
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 8u);
  EXPECT_FALSE(K.Accesses.conflict(K.at(0), K.at(1)).has_value());
  EXPECT_FALSE(K.Accesses.conflict(K.at(2), K.at(3)).has_value());
  std::optional<SharedConflict> Changed =
      K.Accesses.conflict(K.at(4), K.at(5));
  ASSERT_TRUE(Changed.has_value());
  EXPECT_TRUE(Changed->AcrossIterations);
  std::optional<SharedConflict> Other = K.Accesses.conflict(K.at(6), K.at(7));
  ASSERT_TRUE(Other.has_value());
  EXPECT_TRUE(Other->AcrossIterations);
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

TEST(SharedAccesses, ExitsDecideWhoArrives) {
  Kernel K(R"cu(
__global__ void k(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = in[t];                     // 0
  if (t >= 64)
    return;
  out[t] = s[(t + 32) % 64];        // 1: warps 0 and 1 are left
  for (int r = 0; r < 2; ++r) {
    if (t >= 32)
      break;
    out[t] = s[t + 1];              // 2: warp 0 only; s[32] is thread 32's
  }
  out[t] = t == 0 ? s[100] : 0.0f;  // 3: thread 0 alone
  out[t] = t < 31 && s[t + 1] > 0;  // 4: lanes 0..30
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 5u);
  std::optional<SharedConflict> Two = K.Accesses.conflict(K.at(0), K.at(1));
  ASSERT_TRUE(Two.has_value());
  EXPECT_TRUE(Two->CrossWarp);
  EXPECT_EQ(Two->Cell, "s[32]");
  // Thread 32 wrote s[32] before it left: warp 0 reads it across warps.
  std::optional<SharedConflict> Edge = K.Accesses.conflict(K.at(0), K.at(2));
  ASSERT_TRUE(Edge.has_value());
  EXPECT_TRUE(Edge->CrossWarp);
  EXPECT_EQ(Edge->Second[0], 31u);
  // Thread 0 reads s[100], which thread 100 wrote: across warps.
  std::optional<SharedConflict> One = K.Accesses.conflict(K.at(0), K.at(3));
  ASSERT_TRUE(One.has_value());
  EXPECT_EQ(One->Second[0], 0u);
  EXPECT_EQ(One->First[0], 100u);
  // Lanes 0..30 read s[1..31]: warp 0's own.
  std::optional<SharedConflict> And = K.Accesses.conflict(K.at(0), K.at(4));
  ASSERT_TRUE(And.has_value());
  EXPECT_FALSE(And->CrossWarp);
}

TEST(SharedAccesses, ExitsKeepLaterAccessesToOneWarp) {
  Kernel K(R"cu(
__global__ void k(float *out, const float *in) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t >= 32) {
    out[t] = 0.0f;
    return;
  }
  s[t] = in[t];                     // 0
  out[t] = s[(t + 1) % 32];         // 1
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 2u);
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(0), K.at(1));
  ASSERT_TRUE(C.has_value());
  EXPECT_FALSE(C->CrossWarp) << "only warp 0 gets past the exit";
}

TEST(SharedAccesses, SeparatingPoint) {
  Kernel K(R"cu(
__global__ void k(float *out, const float *in) {
  __shared__ float s[256];
  __shared__ float acc[256];
  int t = threadIdx.x;
  s[t] = in[t];                     // 0
  if (t < 200)
    out[t] = s[t + 32];             // 1: before the if
  if (t < 128) {
    s[t] = 1.0f;                    // 2
    out[t] = s[127 - t];            // 3: under the branch: none
  }
  for (int d = 128; d > 0; d /= 2)
    if (t < d)
      acc[t] += acc[t + d];         // 4, 5: around the loop: none
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 6u);
  const Stmt *Point = K.Accesses.separatingPoint(K.at(0), K.at(1));
  ASSERT_NE(Point, nullptr);
  EXPECT_TRUE(isa<IfStmt>(Point));
  EXPECT_EQ(K.Accesses.separatingPoint(K.at(2), K.at(3)), nullptr);
  EXPECT_EQ(K.Accesses.separatingPoint(K.at(5), K.at(4)), nullptr);
  EXPECT_EQ(K.Accesses.separatingPoint(K.at(1), K.at(0)), nullptr)
      << "the second comes first";
}

TEST(SharedAccesses, LaunchExtentsKept) {
  Kernel K(R"cu(
__global__ void k(float *out) {
  __shared__ float s[16][32];
  s[threadIdx.y][threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[(threadIdx.y + 1) % 16][threadIdx.x];
}
void host(float *out) { k<<<1, dim3(32, 16)>>>(out); }
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ThreadCoord Shape = K.Accesses.blockShape();
  EXPECT_EQ(Shape[0], 32u);
  EXPECT_EQ(Shape[1], 16u) << "512 threads from the launch are kept";
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(0), K.at(1));
  ASSERT_TRUE(C.has_value());
  EXPECT_TRUE(C->CrossWarp);
}

TEST(SharedAccesses, OuterStepsSeparatedByTheirBarrier) {
  Kernel K(R"cu(
__global__ void k(float *out) {
  __shared__ float acc[1024];
  for (int w = 512; w > 0; w /= 2) {
    __syncthreads();
    for (int i = threadIdx.x; i < w; i += blockDim.x)
      acc[i] += acc[i + w];         // 0, 1
  }
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 2u);
  // Within one step the updated cells are below w and the read ones above;
  // thread 0 reading acc[128] at w = 128 and thread 128 updating it at
  // w = 256 are steps apart, with the barrier between.
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(0), K.at(1));
  EXPECT_FALSE(C.has_value() && C->CrossWarp);
}

TEST(SharedAccesses, ArraysBoundGuessedExtents) {
  Kernel K(R"cu(
__global__ void k(float *out) {
  __shared__ float tile[4][4];
  int x = threadIdx.x;
  tile[x][threadIdx.y] = tile[threadIdx.y][x];
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ThreadCoord Shape = K.Accesses.blockShape();
  EXPECT_EQ(Shape[0], 4u);
  EXPECT_EQ(Shape[1], 4u);
}

TEST(SharedAccesses, ContradictoryCellConditions) {
  Kernel K(R"cu(
__global__ void k(int *out) {
  __shared__ int s[8][8];
  int x = threadIdx.x, y = threadIdx.y;
  for (int c = 0; c < 8; ++c) {
    if (s[y][x] == 0 && s[y][c] != 0)  // 0, 1
      s[y][x] = c;                     // 2
    if (s[y][x] == 0 && s[(y + 1) % 8][x] != 0)  // 3, 4
      out[0] = 1;
    __syncthreads();
  }
}
void host(int *out) { k<<<1, dim3(8, 8)>>>(out); }
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 5u);
  // The owner of s[y][c] would need it 0 and not 0 to store it.
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(2), K.at(1));
  EXPECT_FALSE(C.has_value() && C->CrossWarp);
  // The next row's cell is stored by its owner, in another warp for y = 3.
  std::optional<SharedConflict> Next = K.Accesses.conflict(K.at(2), K.at(4));
  ASSERT_TRUE(Next.has_value());
  EXPECT_TRUE(Next->CrossWarp);
}

TEST(SharedAccesses, LocalPointersStandForTheArray) {
  Kernel K(R"cu(
__global__ void k(float *out) {
  __shared__ float s[256];
  __shared__ float moved[256];
  volatile float *v = s;
  float *first = &s[0];
  float *p = moved;
  v[threadIdx.x] = out[threadIdx.x];       // 0
  out[threadIdx.x] = first[threadIdx.x + 32]; // 1
  p += 1;                                    // moved: not followed
  p[threadIdx.x] = 0.0f;
}
)cu",
           "k");
  ASSERT_TRUE(K.P.parsedCleanly());
  ASSERT_EQ(K.Accesses.accesses().size(), 2u) << "only s, through v and first";
  EXPECT_TRUE(K.at(0).ThroughPointer);
  EXPECT_EQ(K.at(0).K, SharedAccess::Write);
  EXPECT_EQ(K.at(1).K, SharedAccess::Read);
  std::optional<SharedConflict> C = K.Accesses.conflict(K.at(0), K.at(1));
  ASSERT_TRUE(C.has_value());
  EXPECT_TRUE(C->CrossWarp) << "thread 0 reads what thread 32 writes";
}

struct AtWarp {
  ParsedCuda P;
  AnalysisManager Manager;
  std::unique_ptr<SharedAccessAnalysis> Accesses;
  AtWarp(llvm::StringRef Code, llvm::StringRef Name, bool CallSite = false)
      : P(Code), Manager(P.context(), AnalysisOptions()) {
    SharedAccessOptions Options;
    Options.BarrierScope = Scope::Warp;
    const FunctionDecl *Analyzed = P.function(Name);
    if (CallSite) {
      std::vector<const CallExpr *> Calls = sharedArrayCalls(Analyzed);
      if (!Calls.empty()) {
        Options.Call = Calls.front();
        Options.Caller = Analyzed;
        Analyzed = Calls.front()->getDirectCallee()->getDefinition();
      }
    }
    Accesses = std::make_unique<SharedAccessAnalysis>(Analyzed, P.context(),
                                                      Manager, Options);
  }
  const SharedAccess &at(size_t I) { return Accesses->accesses()[I]; }
};

TEST(SharedAccesses, WarpScopeEndsIntervalsAtSyncwarp) {
  const char *Code = R"cu(
__global__ void k(float *out) {
  __shared__ float s[8][32];
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  s[w][l] = out[threadIdx.x];            // 0
  __syncwarp();
  out[threadIdx.x] = s[w][l ^ 1];        // 1: after the warp barrier
  s[w][l] = 2.0f * out[threadIdx.x];     // 2
  out[threadIdx.x] += s[w][(l + 1) % 32]; // 3: no barrier
}
)cu";
  AtWarp W(Code, "k");
  ASSERT_TRUE(W.P.parsedCleanly());
  ASSERT_EQ(W.Accesses->accesses().size(), 4u);
  EXPECT_NE(W.Accesses->intervalOf(W.at(0)), W.Accesses->intervalOf(W.at(1)));
  EXPECT_FALSE(W.Accesses->conflict(W.at(0), W.at(1)).has_value());
  std::optional<SharedConflict> C = W.Accesses->conflict(W.at(2), W.at(3));
  ASSERT_TRUE(C.has_value());
  EXPECT_FALSE(C->CrossWarp) << "lanes of one warp";
  // At block scope the __syncwarp() is no barrier: the first pair meets.
  Kernel B(Code, "k");
  std::optional<SharedConflict> AtBlock = B.Accesses.conflict(B.at(0), B.at(1));
  ASSERT_TRUE(AtBlock.has_value());
  EXPECT_FALSE(AtBlock->CrossWarp);
}

TEST(SharedAccesses, CallSiteContextBindsAndGuards) {
  const char *Code = R"cu(
__device__ void step(float *s, int t, int d) {
  s[t] += s[t + d];   // 0: update, 1: read
}
__global__ void firstWarp(float *out) {
  __shared__ float sums[64];
  if (threadIdx.x < 32)
    step(sums, threadIdx.x, 16);
}
__global__ void wholeBlock(float *out) {
  __shared__ float sums[512];
  step(sums, threadIdx.x, 16);
}
void host(float *out) { firstWarp<<<1, 64>>>(out); wholeBlock<<<1, 256>>>(out); }
)cu";
  AtWarp First(Code, "firstWarp", /*CallSite=*/true);
  ASSERT_TRUE(First.P.parsedCleanly());
  ASSERT_EQ(First.Accesses->accesses().size(), 2u);
  EXPECT_EQ(First.at(0).Var->getName(), "sums") << "bound to the call's array";
  std::optional<SharedConflict> C = First.Accesses->conflict(First.at(0), First.at(1));
  ASSERT_TRUE(C.has_value());
  EXPECT_FALSE(C->CrossWarp) << "only threads 0..31 make the call";
  EXPECT_EQ(C->Cell, "sums[16]");
  AtWarp Whole(Code, "wholeBlock", /*CallSite=*/true);
  std::optional<SharedConflict> D = Whole.Accesses->conflict(Whole.at(0), Whole.at(1));
  ASSERT_TRUE(D.has_value());
  EXPECT_TRUE(D->CrossWarp) << "thread 16 reads what thread 32 writes";
  // Without call-site context the device function has no accesses.
  Kernel Alone(Code, "step");
  EXPECT_TRUE(Alone.Accesses.accesses().empty());
}

TEST(SharedAccesses, GroupRanksDecideWhoAccesses) {
  const char *Code = R"cu(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void leader(volatile float *s, cg::thread_block g) {
  if (g.thread_rank() == 0) {
    float t = 0.0f;
    for (int i = 0; i < blockDim.x; i += 32)
      t += s[i];                              // 0
    s[0] = t;                                 // 1
  }
}
__global__ void viaCall(float *out) {
  __shared__ float buf[256];
  cg::thread_block b = cg::this_thread_block();
  leader(buf, b);
}
__global__ void k(float *out) {
  __shared__ float s[8][32];
  cg::thread_block b = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  if (cg::this_thread_block().thread_rank() == 33)
    s[1][2] = 1.0f;                           // 0: thread (1, 1) only
  out[0] = s[b.thread_index().y][b.thread_index().x]; // 1
  if (w.thread_rank() == 5)
    s[(threadIdx.y + 1) % 8][5] = 2.0f;       // 2: lane 5 of each row
  if (w.thread_rank() == 37)
    s[2][2] = 4.0f;                           // 3: no lane 37 in a tile of 32
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0)
    s[0][0] = 3.0f;                           // 4: not evaluated
  s[0][(grid.thread_index().x - blockIdx.x * blockDim.x + 1) % 32] = 5.0f; // 5
}
void host(float *out) {
  viaCall<<<1, 256>>>(out);
  k<<<1, dim3(32, 8)>>>(out);
}
)cu";
  AtWarp Call(Code, "viaCall", /*CallSite=*/true);
  ASSERT_TRUE(Call.P.parsedCleanly());
  ASSERT_EQ(Call.Accesses->accesses().size(), 2u);
  EXPECT_FALSE(Call.Accesses->conflict(Call.at(0), Call.at(1)).has_value())
      << "only thread 0 of the block reads and writes";
  Kernel K(Code, "k");
  ASSERT_EQ(K.Accesses.accesses().size(), 6u);
  std::optional<SharedConflict> One = K.Accesses.conflict(K.at(0), K.at(1));
  ASSERT_TRUE(One.has_value());
  EXPECT_EQ(One->First, (ThreadCoord{1, 1, 0})) << "rank 33 is x 1, y 1";
  EXPECT_EQ(One->Second, (ThreadCoord{2, 1, 0}));
  EXPECT_EQ(One->Cell, "s[1][2]");
  std::optional<SharedConflict> Lane = K.Accesses.conflict(K.at(2), K.at(1));
  ASSERT_TRUE(Lane.has_value());
  EXPECT_EQ(Lane->First[0], 5u) << "a tile's rank is the lane";
  EXPECT_EQ(Lane->Second[0], 5u);
  EXPECT_EQ(Lane->Second[1], (Lane->First[1] + 1) % 8);
  EXPECT_FALSE(K.Accesses.conflict(K.at(3), K.at(1)).has_value())
      << "no lane of a tile of 32 has rank 37 (thread 37 of the block would)";
  // Not the block's index: every thread is taken to store.
  std::optional<SharedConflict> Grid = K.Accesses.conflict(K.at(4), K.at(1));
  ASSERT_TRUE(Grid.has_value());
  EXPECT_NE(Grid->First, (ThreadCoord{0, 0, 0}));
  // A grid's thread_index().x is blockIdx.x * blockDim.x + threadIdx.x:
  // each thread (x, y) stores the cell s[0][x + 1], which (x + 1, 0) reads.
  std::optional<SharedConflict> Global = K.Accesses.conflict(K.at(5), K.at(1));
  ASSERT_TRUE(Global.has_value());
  EXPECT_EQ(Global->Second[1], 0u);
  EXPECT_EQ(Global->Second[0], (Global->First[0] + 1) % 32);
}

TEST(SharedAccesses, SharedArrayCalls) {
  ParsedCuda P(R"cu(
__device__ void f(float *s) { s[0] = 1.0f; }
__device__ void g(int v) {}
__global__ void k() {
  __shared__ float a[32];
  float *p = a;
  f(a);
  g(1);
  f(p);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  EXPECT_EQ(sharedArrayCalls(P.function("k")).size(), 2u);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
