//===--- LaunchShapeTest.cpp - block shapes learned from a TU -------------===//
//
// LaunchShapes answers "is blockDim.x a multiple of 32 wherever this runs?"
// from the launch sites and shape checks a translation unit shows. Each
// test parses real CUDA (the toolkit's headers) and asks about named
// functions; the divergence test at the end shows what the fact buys.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/launch/LaunchShape.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

TEST(LaunchShape, LaunchSitesWithWholeWarpRows) {
  ParsedCuda P(R"cu(
__global__ void literal() {}
__global__ void dimLocal() {}
__global__ void product() {}
__global__ void templated() {}
template <int Rows> __global__ void instance() {}
__global__ void half() {}
__global__ void runtime() {}
__global__ void mixed() {}
__global__ void changed() {}
__global__ void viaApi() {}
__global__ void never() {}
void host(int n, int nwarps) {
  literal<<<n, 256>>>();
  const dim3 block(WARP_SIZE, nwarps, 1);
  dimLocal<<<n, block>>>();
  product<<<n, WARP_SIZE * nwarps>>>();
  instance<4><<<n, dim3(WARP_SIZE, 4)>>>();
  half<<<n, dim3(16, 16)>>>();
  runtime<<<n, n>>>();
  mixed<<<n, 64>>>();
  mixed<<<n, n + 1>>>();
  dim3 grows(32, 2);
  grows.x = n;
  changed<<<1, grows>>>();
  void *args[] = {nullptr};
  cudaLaunchKernel((const void *)viaApi, dim3(n), dim3(128), args, 0, 0);
}
template <int BlockSize> void launchTemplated(int n) {
  templated<<<n, BlockSize>>>();
}
template void launchTemplated<96>(int);
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("literal")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("dimLocal")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("product")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("instance")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("templated")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("viaApi")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("half")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("runtime")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("mixed")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("changed")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("never")));
}

TEST(LaunchShape, ShapeChecksInTheKernel) {
  ParsedCuda P(R"cu(
__global__ void asserted() { assert(blockDim.x == WARP_SIZE); }
__global__ void returns() { if (blockDim.x != 64) return; }
__global__ void remainderCheck() { if (blockDim.x % 32 != 0) { __trap(); } }
__global__ void masked() { if ((blockDim.x & 31) != 0) return; }
__global__ void wrongBound() { assert(blockDim.x <= 64); }
__global__ void wrongAxis() { assert(blockDim.y == 32); }
__global__ void notLeaving(int *p) { if (blockDim.x != 32) p[0] = 1; }
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("asserted")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("returns")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("remainderCheck")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("masked")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("wrongBound")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("wrongAxis")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("notLeaving")));
}

TEST(LaunchShape, DeviceFunctionsInheritFromEveryKernelThatReachesThem) {
  ParsedCuda P(R"cu(
__device__ int leaf() { return threadIdx.y; }
__device__ int onlyAligned() { return leaf(); }
__device__ int shared() { return threadIdx.y; }
__device__ int unreached() { return threadIdx.y; }
__global__ void aligned(int *p) { p[0] = onlyAligned() + shared(); }
__global__ void narrow(int *p) { p[0] = shared(); }
void host(int *p) {
  aligned<<<1, dim3(32, 4)>>>(p);
  narrow<<<1, dim3(8, 4)>>>(p);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("onlyAligned")));
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("leaf")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("shared")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("unreached")));
}

TEST(LaunchShape, DeviceFunctionsHaveTheExtentsOfEveryKernelThatReachesThem) {
  ParsedCuda P(R"cu(
__device__ int leaf() { return threadIdx.x; }
__device__ int both() { return leaf(); }
__device__ int onlyWide() { return threadIdx.x; }
__device__ int unlaunched() { return threadIdx.x; }
__global__ void wide(int *p) { p[0] = both() + onlyWide(); }
__global__ void narrow(int *p) { p[0] = both(); }
__global__ void never(int *p) { p[0] = unlaunched(); }
void host(int *p) {
  wide<<<1, 128>>>(p);
  narrow<<<1, dim3(64, 1, 1)>>>(p);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  auto Extent = [&](const char *Function, unsigned Dim) {
    return Shapes.blockExtent(P.function(Function), Dim);
  };
  EXPECT_EQ(Extent("onlyWide", 0).Exact, std::optional<uint64_t>(128));
  EXPECT_EQ(Extent("onlyWide", 1).Exact, std::optional<uint64_t>(1));
  // Reached from blocks 128 and 64 wide: the least factor, no exact width;
  // both 1-D. So is what it calls.
  for (const char *F : {"both", "leaf"}) {
    EXPECT_FALSE(Extent(F, 0).Exact.has_value()) << F;
    EXPECT_EQ(Extent(F, 0).Factor, 64u) << F;
    EXPECT_EQ(Extent(F, 1).Exact, std::optional<uint64_t>(1)) << F;
    EXPECT_EQ(Extent(F, 2).Exact, std::optional<uint64_t>(1)) << F;
  }
  // Reached only from a kernel the TU never launches: nothing known.
  EXPECT_FALSE(Extent("unlaunched", 0).Exact.has_value());
  EXPECT_FALSE(Extent("unlaunched", 1).Exact.has_value());
}

TEST(LaunchShape, KnownFactors) {
  ParsedCuda P(R"cu(
template <int N> __host__ __device__ void sink(int);
void host(int n) {
  sink<0>(32 * n);
  sink<1>(n << 6);
  sink<2>(64 + 32 * n);
  sink<3>(n ? 64 : 128);
  sink<4>(n + 32);
  sink<5>(0);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Calls = match(
      callExpr(callee(functionDecl(hasName("sink")))).bind("c"), P.context());
  std::map<int, uint64_t> Factors;
  for (const auto &Node : Calls) {
    const auto *Call = Node.getNodeAs<CallExpr>("c");
    const auto *Callee = Call->getDirectCallee();
    int Which = Callee->getTemplateSpecializationArgs()->get(0).getAsIntegral()
                    .getExtValue();
    Factors[Which] = knownFactorOfBlockX(Call->getArg(0), P.context());
  }
  EXPECT_EQ(Factors[0], 32u);
  EXPECT_EQ(Factors[1], 64u);
  EXPECT_EQ(Factors[2], 32u);
  EXPECT_EQ(Factors[3], 64u);
  EXPECT_EQ(Factors[4], 1u);
  EXPECT_EQ(Factors[5], uint64_t(1) << 31);
}

// An exact division by a power of two keeps what is left of the factor
// (`block_size / WARP_SIZE` with block_size 768 or 1024); the block size the
// occupancy calculator writes is a multiple of 32 when its limit and the
// kernel's __launch_bounds__ are, and nothing else writes the variable.
TEST(LaunchShape, FactorsOfQuotientsAndOccupancyResults) {
  ParsedCuda P(R"cu(
template <int N> __host__ __device__ void sink(int);
__global__ void kernel() {}
__global__ void __launch_bounds__(96) bounded() {}
__global__ void __launch_bounds__(100) oddBound() {}
void host(int n, bool big) {
  const int blockSize = big ? 1024 : 768;
  sink<0>(blockSize / 32);
  sink<1>(blockSize / 512);
  sink<2>(n / 2);
  int blocks = 0;
  int threads = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, kernel, 0, 0);
  sink<3>(threads);
  int defaulted = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &defaulted, kernel);
  sink<4>(defaulted);
  int limited = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &limited, kernel, 0, 100);
  sink<5>(limited);
  int withBounds = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &withBounds, bounded, 0, 0);
  sink<6>(withBounds);
  int withOddBound = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &withOddBound, oddBound, 0, 0);
  sink<7>(withOddBound);
  int changed = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &changed, kernel, 0, 0);
  changed /= 3;
  sink<8>(changed);
  int escaped = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &escaped, kernel, 0, 0);
  int *alias = &escaped;
  sink<9>(escaped);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto Calls = match(
      callExpr(callee(functionDecl(hasName("sink")))).bind("c"), P.context());
  std::map<int, uint64_t> Factors;
  for (const auto &Node : Calls) {
    const auto *Call = Node.getNodeAs<CallExpr>("c");
    const auto *Callee = Call->getDirectCallee();
    int Which = Callee->getTemplateSpecializationArgs()->get(0).getAsIntegral()
                    .getExtValue();
    Factors[Which] = knownFactorOfBlockX(Call->getArg(0), P.context());
  }
  EXPECT_EQ(Factors[0], 8u);
  EXPECT_EQ(Factors[1], 1u);
  EXPECT_EQ(Factors[2], 1u);
  EXPECT_EQ(Factors[3], 32u);
  EXPECT_EQ(Factors[4], 32u);
  EXPECT_EQ(Factors[5], 1u);
  EXPECT_EQ(Factors[6], 32u);
  EXPECT_EQ(Factors[7], 1u);
  EXPECT_EQ(Factors[8], 1u);
  EXPECT_EQ(Factors[9], 1u);
}

// Each extent of a kernel's blocks: a factor every launch has and, when all
// launches agree on a constant (or the kernel asserts one), the extent.
TEST(LaunchShape, BlockExtentsPerDimension) {
  ParsedCuda P(R"cu(
#include <cassert>
__global__ void planes() {}
__global__ void mixed() {}
__global__ void flat() {}
__global__ void asserted() { assert(blockDim.x == 4); assert(8 == blockDim.y); }
__global__ void guarded() { if (blockDim.z != 2) return; }
__global__ void unlaunched() {}
void host(int n, bool big) {
  const int blockSize = big ? 1024 : 768;
  dim3 block = {4, 8, (unsigned)blockSize / 32};
  planes<<<n, block>>>();
  planes<<<2 * n, block>>>();
  mixed<<<n, dim3(4, 8, 2)>>>();
  mixed<<<n, dim3(4, 16, n)>>>();
  flat<<<n, 128>>>();
  asserted<<<n, dim3(n, n)>>>();
  guarded<<<n, dim3(32, n, n)>>>();
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  auto Extent = [&](const char *Kernel, unsigned Dim) {
    return Shapes.blockExtent(P.function(Kernel), Dim);
  };
  EXPECT_EQ(Extent("planes", 0).Exact, std::optional<uint64_t>(4));
  EXPECT_EQ(Extent("planes", 1).Exact, std::optional<uint64_t>(8));
  EXPECT_EQ(Extent("planes", 2).Factor, 8u) << "768 / 32 and 1024 / 32";
  EXPECT_FALSE(Extent("planes", 2).Exact.has_value());
  EXPECT_EQ(Extent("mixed", 0).Exact, std::optional<uint64_t>(4));
  EXPECT_FALSE(Extent("mixed", 1).Exact.has_value()) << "8 and 16";
  EXPECT_EQ(Extent("mixed", 1).Factor, 8u);
  EXPECT_EQ(Extent("mixed", 2).Factor, 1u);
  EXPECT_EQ(Extent("flat", 0).Exact, std::optional<uint64_t>(128));
  EXPECT_EQ(Extent("flat", 1).Exact, std::optional<uint64_t>(1));
  EXPECT_EQ(Extent("flat", 2).Exact, std::optional<uint64_t>(1));
  EXPECT_EQ(Extent("asserted", 0).Exact, std::optional<uint64_t>(4));
  EXPECT_EQ(Extent("asserted", 1).Exact, std::optional<uint64_t>(8));
  EXPECT_EQ(Extent("asserted", 2).Exact, std::optional<uint64_t>(1));
  EXPECT_EQ(Extent("guarded", 2).Exact, std::optional<uint64_t>(2));
  EXPECT_EQ(Extent("guarded", 1).Factor, 1u);
  EXPECT_EQ(Extent("unlaunched", 0).Factor, 1u);
  EXPECT_FALSE(Extent("unlaunched", 0).Exact.has_value());
}

TEST(LaunchShape, Dim3BuiltComponentByComponent) {
  ParsedCuda P(R"cu(
__global__ void first() {}
__global__ void second() {}
__global__ void inBranch() {}
__global__ void afterLoopWrite() {}
__global__ void passedByReference() {}
void widen(dim3 &d) { d.x *= 2; }
void host(int n, bool big) {
  for (int i = 0; i < n; ++i) {
    dim3 threads, blocks;
    threads.x = 32;
    threads.y = 4;
    first<<<blocks, threads>>>();
    threads.x = 16;
    second<<<blocks, threads>>>();
    if (big) {
      threads.z = 2;
      inBranch<<<blocks, threads>>>();
    }
  }
  dim3 looped;
  looped.x = 64;
  for (int i = 0; i < n; ++i) {
    afterLoopWrite<<<1, looped>>>();
    looped.x = 8;
  }
  dim3 shared;
  shared.x = 32;
  widen(shared);
  passedByReference<<<1, shared>>>();
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  auto Extent = [&](const char *Kernel, unsigned Dim) {
    return Shapes.blockExtent(P.function(Kernel), Dim);
  };
  EXPECT_EQ(Extent("first", 0).Exact, std::optional<uint64_t>(32));
  EXPECT_EQ(Extent("first", 1).Exact, std::optional<uint64_t>(4));
  EXPECT_EQ(Extent("first", 2).Exact, std::optional<uint64_t>(1))
      << "dim3's default constructor";
  EXPECT_EQ(Extent("second", 0).Exact, std::optional<uint64_t>(16));
  EXPECT_EQ(Extent("second", 1).Exact, std::optional<uint64_t>(4));
  EXPECT_EQ(Extent("inBranch", 0).Exact, std::optional<uint64_t>(16));
  EXPECT_EQ(Extent("inBranch", 2).Exact, std::optional<uint64_t>(2));
  EXPECT_FALSE(Extent("afterLoopWrite", 0).Exact.has_value())
      << "the loop's later trips see looped.x = 8";
  EXPECT_FALSE(Extent("passedByReference", 0).Exact.has_value());
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("first")));
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("second")));
}

TEST(LaunchShape, LaunchedShapeMakesThreadIdxYWarpUniform) {
  ParsedCuda P(R"cu(
__device__ void probe(unsigned);
__global__ void rows() { probe(threadIdx.y); probe(threadIdx.x); }
__global__ void unknown() { probe(threadIdx.y); }
void host() { rows<<<1, dim3(32, 8)>>>(); }
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  AnalysisManager Manager(P.context(), AnalysisOptions{});
  auto ProbeArg = [&](llvm::StringRef Kernel, unsigned Index) {
    const FunctionDecl *FD = P.function(Kernel);
    auto Found = match(
        functionDecl(equalsNode(FD),
                     forEachDescendant(
                         callExpr(callee(functionDecl(hasName("probe"))))
                             .bind("c"))),
        P.context());
    std::vector<const CallExpr *> Calls;
    for (const auto &Node : Found)
      Calls.push_back(Node.getNodeAs<CallExpr>("c"));
    llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
      return P.context().getSourceManager().isBeforeInTranslationUnit(
          A->getBeginLoc(), B->getBeginLoc());
    });
    return Manager.divergence(FD)->uniformityOf(Calls.at(Index)->getArg(0));
  };
  EXPECT_EQ(ProbeArg("rows", 0).scope(), Scope::Warp);
  EXPECT_EQ(ProbeArg("rows", 1).scope(), Scope::Thread);
  EXPECT_EQ(ProbeArg("unknown", 0).scope(), Scope::Thread);
}

} // namespace
} // namespace clang::tidy::cuda::analysis

namespace clang::tidy::cuda::analysis {
namespace {

TEST(LaunchShape, ArgumentFactorsFromValuesAndHostAssertions) {
  ParsedCuda P(R"cu(
[[noreturn]] void fatal(const char *);
#define PROJECT_ASSERT(x) if (!(x)) fatal(#x)
__global__ void constant(int n) {}
__global__ void asserted(long n) {}
__global__ void stdAssert(int n) {}
__global__ void masked(int n) {}
__global__ void unasserted(int n) {}
__global__ void afterLaunch(int n) {}
__global__ void changed(int n) {}
__global__ void twice(int n) {}
__global__ void neverLaunched(int n) {}
void host(int n, long m, int k) {
  constant<<<1, 32>>>(64 * k);
  PROJECT_ASSERT(m % 128 == 0);
  switch (k) { default: asserted<<<1, 32>>>(m); }
  assert(n % 32 == 0 && n > 0);
  stdAssert<<<1, 32>>>(n);
  PROJECT_ASSERT((k & 63) == 0);
  masked<<<1, 32>>>(k);
  unasserted<<<1, 32>>>(n + 1);
  afterLaunch<<<1, 32>>>(k + 2);
  twice<<<1, 32>>>(256);
  twice<<<1, 32>>>(96);
}
void changes(int v) {
  PROJECT_ASSERT(v % 32 == 0);
  v += 1;
  changed<<<1, 32>>>(v);
}
void later(int q) {
  afterLaunch<<<1, 32>>>(q);
  PROJECT_ASSERT(q % 32 == 0);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  auto Factor = [&](llvm::StringRef Kernel) {
    return Shapes.argumentFactor(P.function(Kernel), 0);
  };
  EXPECT_EQ(Factor("constant"), 64u);
  EXPECT_EQ(Factor("asserted"), 128u);
  EXPECT_EQ(Factor("stdAssert"), 32u);
  EXPECT_EQ(Factor("masked"), 64u);
  EXPECT_EQ(Factor("unasserted"), 1u);
  // Asserted only after one of its launches, and 2 + k at the other.
  EXPECT_EQ(Factor("afterLaunch"), 1u);
  EXPECT_EQ(Factor("changed"), 1u);
  // The least over the launches: 256 and 96 = 3 * 32.
  EXPECT_EQ(Factor("twice"), 32u);
  EXPECT_EQ(Factor("neverLaunched"), 1u);
}

TEST(LaunchShape, ArgumentFactorsFromTheLaunchersCallers) {
  ParsedCuda P(R"cu(
int readCount();
__global__ void scaled(int n) {}
__global__ void shifted(int n) {}
__global__ void local(int n) {}
__global__ void mixed(int n) {}
__global__ void changedLater(int n) {}
static void launchScaled(int n) { scaled<<<1, 256>>>(n); }
static void launchShifted(int n) { shifted<<<1, 256>>>(n); }
static void launchMixed(int n) { mixed<<<1, 256>>>(n); }
static void launchChanged(int n) { changedLater<<<1, 256>>>(n); }
int main() {
  int paths = readCount();
  paths *= 1024;
  for (int r = 0; r < 3; ++r)
    launchScaled(paths);
  int rows = readCount();
  rows <<= 6;
  launchShifted(rows);
  int count = readCount();
  count = count * 512;
  local<<<1, 256>>>(count);
  launchMixed(paths);
  launchMixed(rows + 1);
  int later = 64 * readCount();
  if (later > 100)
    later -= 1;
  launchChanged(later);
  return 0;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  auto Factor = [&](llvm::StringRef Kernel) {
    return Shapes.argumentFactor(P.function(Kernel), 0);
  };
  EXPECT_EQ(Factor("scaled"), 1024u) << "paths *= 1024 before the loop";
  EXPECT_EQ(Factor("shifted"), 64u);
  EXPECT_EQ(Factor("local"), 512u) << "a local of the launcher itself";
  EXPECT_EQ(Factor("mixed"), 1u) << "the least over the callers";
  EXPECT_EQ(Factor("changedLater"), 1u)
      << "changed under a condition after the write";
}

} // namespace
} // namespace clang::tidy::cuda::analysis

namespace clang::tidy::cuda::analysis {
namespace {

TEST(LaunchShape, LaunchesThroughAWrapperThatTakesTheKernel) {
  ParsedCuda P(R"cu(
#include <utility>
struct Params {
  dim3 blocks; dim3 threads;
  Params(const dim3 &b, const dim3 &t) : blocks(b), threads(t) {}
};
template <typename K, typename... Args>
void launch(K kernel, const Params &p, Args &&...args) {
  kernel<<<p.blocks, p.threads>>>(std::forward<Args>(args)...);
}
template <typename K, typename... Args>
void direct(K kernel, dim3 threads, Args... args) {
  kernel<<<1, threads>>>(args...);
}
__global__ void viaStruct(int n, int m) {}
__global__ void viaParameter(int n) {}
__global__ void oddBlock(int n) {}
void host(int n) {
  const Params aligned(dim3(n), dim3(128, 2));
  launch(viaStruct, aligned, 64, n);
  direct(viaParameter, dim3(32, 4), 96);
  const Params odd(dim3(n), dim3(48));
  launch(oddBlock, odd, n);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("viaStruct")));
  EXPECT_EQ(Shapes.argumentFactor(P.function("viaStruct"), 0), 64u);
  EXPECT_EQ(Shapes.argumentFactor(P.function("viaStruct"), 1), 1u);
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("viaParameter")));
  EXPECT_EQ(Shapes.argumentFactor(P.function("viaParameter"), 0), 32u);
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("oddBlock")));
}

TEST(LaunchShape, LaunchesThroughALauncherObjectsMemberFunction) {
  // FBGEMM's launch macro: a lambda binds the kernel to a reference, then
  // calls a member function template of a launcher object that launches
  // its kernel parameter with its block parameter.
  ParsedCuda P(R"cu(
#include <utility>
struct Launcher {
  template <typename K, typename... Args>
  void launch(const K &kernel, const dim3 grid, const dim3 block,
              Args &&...args) const {
    kernel<<<grid, block>>>(std::forward<Args>(args)...);
  }
  template <typename K>
  void operator()(const K &kernel, const dim3 block) const {
    kernel<<<1, block>>>(0);
  }
};
constexpr int warpWidth() { return 32; }
__global__ void rows(int n) {}
__global__ void narrow(int n) {}
__global__ void viaOperator(int n) {}
void host(int n) {
  [&] {
    auto &kernel = rows;
    Launcher().launch(kernel, dim3(n), dim3(warpWidth(), 1024 / warpWidth()), n);
  }();
  Launcher().launch(narrow, dim3(n), dim3(7, 4), n);
  Launcher()(viaOperator, dim3(32, 4));
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  EXPECT_TRUE(Shapes.rowsAreWarpAligned(P.function("rows")));
  EXPECT_EQ(Shapes.blockExtent(P.function("rows"), 1).Exact, 32u);
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("narrow")));
  EXPECT_TRUE(Shapes.rowsMayStraddleWarps(P.function("narrow")));
  // An operator call numbers the object as its first argument: not read.
  EXPECT_FALSE(Shapes.rowsAreWarpAligned(P.function("viaOperator")));
}

TEST(LaunchShape, LocalsHandedToHelpersKeepTheirValueUnlessChanged) {
  // A local's value is its initializer's unless something changes it
  // (MutationCache): ggml hands its locals to a variadic launch helper by
  // forwarding reference, which changes none of them. Each way of changing
  // one is seen, whether in the statement that refers to it or, through a
  // reference bound in a declaration, in a later one.
  ParsedCuda P(R"cu(
#include <utility>
template <typename K, typename... Args>
void launch(K kernel, Args &&...args) {
  kernel<<<1, 32>>>(std::forward<Args>(args)...);
}
void bump(int &x) { x += 1; }
void peek(const int &x);
__global__ void forwarded(int n) {}
__global__ void byConstRef(int n) {}
__global__ void bumped(int n) {}
__global__ void throughReference(int n) {}
__global__ void throughPointer(int n) {}
__global__ void inLambda(int n) {}
void host(int k) {
  int forwardedValue = 64 * k;
  launch(forwarded, forwardedValue);
  int constRefValue = 128 * k;
  peek(constRefValue);
  byConstRef<<<1, 32>>>(constRefValue);
  int bumpedValue = 64 * k;
  bump(bumpedValue);
  launch(bumped, bumpedValue);
  int aliased = 64 * k;
  int &alias = aliased;
  alias = k;
  launch(throughReference, aliased);
  int pointed = 64 * k;
  int *where = &pointed;
  *where = k;
  throughPointer<<<1, 32>>>(pointed);
  int captured = 64 * k;
  auto change = [&] { captured = k; };
  change();
  inLambda<<<1, 32>>>(captured);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  LaunchShapes Shapes(P.context());
  auto Factor = [&](llvm::StringRef Kernel) {
    return Shapes.argumentFactor(P.function(Kernel), 0);
  };
  EXPECT_EQ(Factor("forwarded"), 64u);
  EXPECT_EQ(Factor("byConstRef"), 128u);
  EXPECT_EQ(Factor("bumped"), 1u);
  EXPECT_EQ(Factor("throughReference"), 1u);
  EXPECT_EQ(Factor("throughPointer"), 1u);
  EXPECT_EQ(Factor("inLambda"), 1u);
}

} // namespace
} // namespace clang::tidy::cuda::analysis
