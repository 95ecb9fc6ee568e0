//===--- WarpLaneSetsTest.cpp - the lanes that reach each call ------------===//
//
// Expectations from the execution model: warp w of a block row holds
// threadIdx.x 32 w to 32 w + 31, lane = threadIdx.x % 32; a lane that
// returned (or broke out of the loop) does not reach what follows; a
// condition uniform across the warp lets whole warps through.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/WarpLaneSets.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

/// The probes of kernel `k` (calls of `probe(mask)`), in source order, with
/// their reach and the values of their argument.
struct Probes {
  explicit Probes(llvm::StringRef Body, llvm::StringRef Prelude = "",
                  llvm::StringRef Function = "k")
      : Parsed(("#include <cooperative_groups.h>\n"
                "namespace cg = cooperative_groups;\n"
                "__device__ void probe(unsigned mask = 0);\n" +
                Prelude + "\n" + Body)
                   .str()) {
    if (!Parsed.parsedCleanly()) {
      ADD_FAILURE() << "snippet does not compile";
      return;
    }
    ASTContext &Ctx = Parsed.context();
    Manager = std::make_unique<AnalysisManager>(Ctx, AnalysisOptions());
    const FunctionDecl *FD = Parsed.function(Function);
    if (!FD)
      return;
    Sets = std::make_unique<WarpLaneSets>(FD, Ctx, *Manager);
    auto Found = match(
        functionDecl(equalsNode(FD),
                     forEachDescendant(
                         callExpr(callee(functionDecl(hasName("probe"))))
                             .bind("c"))),
        Ctx);
    for (const auto &Node : Found)
      Calls.push_back(Node.getNodeAs<CallExpr>("c"));
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
  }

  LaneReach reach(unsigned I) const {
    if (I >= Calls.size() || !Sets) {
      ADD_FAILURE() << "no probe " << I;
      return {};
    }
    std::optional<LaneReach> R = Sets->reachOf(Calls[I]);
    if (!R) {
      ADD_FAILURE() << "probe " << I << " not walked";
      return {};
    }
    return *R;
  }
  /// The lanes of warp \p W that reach probe \p I.
  LaneBits lanes(unsigned I, unsigned W = 0) const {
    return reach(I).Lanes.Bits[W];
  }
  bool exact(unsigned I) const { return reach(I).Exact; }
  /// The mask probe \p I passes at thread \p Tid, or nullopt.
  std::optional<uint32_t> mask(unsigned I, unsigned Tid = 0) const {
    auto V = Sets->valuesAt(Calls[I]->getArg(0));
    if (!V)
      return std::nullopt;
    return (*V)[Tid];
  }

  ParsedCuda Parsed;
  std::unique_ptr<AnalysisManager> Manager;
  std::unique_ptr<WarpLaneSets> Sets;
  std::vector<const CallExpr *> Calls;
};

TEST(WarpLaneSets, LaneGuards) {
  Probes P(R"cu(
__global__ void k(int *in) {
  int lane = threadIdx.x % 32;
  probe();                                  // 0: every lane
  if (lane < 16) probe();                   // 1
  if (lane >= 8) probe(); else probe();     // 2, 3
  if (lane & 1) probe();                    // 4: odd lanes
  if (lane < 16 && lane >= 8) probe();      // 5
  unsigned l2 = threadIdx.x & 31;
  if (l2 == 0 || l2 == 31) probe();         // 6
  int v = lane < 4 ? (probe(), 1) : 0;      // 7
  probe(v);                                 // 8: whole again
}
)cu");
  ASSERT_EQ(P.Calls.size(), 9u);
  EXPECT_EQ(P.lanes(0), 0xffffffffu);
  EXPECT_EQ(P.lanes(1), 0x0000ffffu);
  EXPECT_EQ(P.lanes(1, 7), 0x0000ffffu) << "every warp alike";
  EXPECT_EQ(P.lanes(2), 0xffffff00u);
  EXPECT_EQ(P.lanes(3), 0x000000ffu);
  EXPECT_EQ(P.lanes(4), 0xaaaaaaaau);
  EXPECT_EQ(P.lanes(5), 0x0000ff00u);
  EXPECT_EQ(P.lanes(6), 0x80000001u);
  EXPECT_EQ(P.lanes(7), 0x0000000fu);
  EXPECT_EQ(P.lanes(8), 0xffffffffu);
  for (unsigned I = 0; I < 9; ++I)
    EXPECT_TRUE(P.exact(I)) << "probe " << I;
  EXPECT_EQ(P.reach(1).Guard != nullptr, true);
}

TEST(WarpLaneSets, ThreadIndexBoundsSplitOneWarp) {
  Probes P(R"cu(
__global__ void k(int *in) {
  unsigned tid = threadIdx.x;
  if (tid < 48) probe();                    // 0: warp 0 whole, warp 1 half
  if (tid / 32 == 2) probe();               // 1: warp 2 only
  auto block = cg::this_thread_block();
  if (block.thread_rank() >= 40) probe();   // 2
  auto tile = cg::tiled_partition<32>(block);
  if (tile.thread_rank() < 4) probe();      // 3
  if (tile.meta_group_rank() == 1) probe(); // 4
}
)cu");
  ASSERT_EQ(P.Calls.size(), 5u);
  EXPECT_EQ(P.lanes(0, 0), 0xffffffffu);
  EXPECT_EQ(P.lanes(0, 1), 0x0000ffffu);
  EXPECT_EQ(P.lanes(0, 2), 0u);
  EXPECT_EQ(P.lanes(1, 1), 0u);
  EXPECT_EQ(P.lanes(1, 2), 0xffffffffu);
  EXPECT_EQ(P.lanes(2, 0), 0u);
  EXPECT_EQ(P.lanes(2, 1), 0xffffff00u);
  EXPECT_EQ(P.lanes(2, 5), 0xffffffffu);
  EXPECT_EQ(P.lanes(3, 3), 0x0000000fu);
  EXPECT_EQ(P.lanes(4, 0), 0u);
  EXPECT_EQ(P.lanes(4, 1), 0xffffffffu);
}

TEST(WarpLaneSets, EarlyExitsTakeTheirLanes) {
  Probes P(R"cu(
__device__ void inner() {
  int lane = threadIdx.x % 32;
  if (lane >= 8) return;
  probe();                                  // 2: lanes 0-7, none exited
}
__global__ void k(int *in) {
  int lane = threadIdx.x % 32;
  if (lane >= 17) return;
  probe();                                  // 0
  for (int o = 16; o > 0; o /= 2) {
    if (lane == 3) break;
    probe();                                // 1: lane 3 left in iteration 1
  }
  inner();
}
)cu");
  ASSERT_EQ(P.Calls.size(), 2u);
  EXPECT_EQ(P.lanes(0), 0x0001ffffu);
  EXPECT_TRUE(P.exact(0));
  EXPECT_EQ(P.reach(0).Exited.Bits[0], 0xfffe0000u);
  EXPECT_EQ(P.lanes(1), 0x0001fff7u);
  EXPECT_TRUE(P.exact(1)) << "the same lanes every iteration";

  Probes Inner(R"cu(
__device__ void inner() {
  int lane = threadIdx.x % 32;
  if (lane >= 8) return;
  probe();
}
)cu",
               "", "inner");
  ASSERT_EQ(Inner.Calls.size(), 1u);
  EXPECT_EQ(Inner.lanes(0), 0x000000ffu);
  EXPECT_EQ(Inner.reach(0).Exited.Bits[0], 0u)
      << "a device function's return leaves the lanes alive";
}

TEST(WarpLaneSets, UnknownConditionsLeaveAnUpperBound) {
  Probes P(R"cu(
__global__ void k(const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (in[i] > 0) probe();                   // 0: some lanes, unknown which
  probe();                                  // 1: the warp is whole again
  if (n > 3) probe();                       // 2: uniform: whole warps
  if (lane < 16) { if (in[i]) probe(); }    // 3: at most lanes 0-15
  for (int k = 0; k < in[i]; ++k) probe();  // 4: a per-lane trip count
  probe();                                  // 5
  if (in[i] == 7) return;
  probe();                                  // 6: some lanes returned
}
)cu");
  ASSERT_EQ(P.Calls.size(), 7u);
  EXPECT_FALSE(P.exact(0));
  EXPECT_EQ(P.lanes(0), 0xffffffffu);
  EXPECT_TRUE(P.exact(1));
  EXPECT_TRUE(P.exact(2));
  EXPECT_FALSE(P.exact(3));
  EXPECT_EQ(P.lanes(3), 0x0000ffffu);
  EXPECT_FALSE(P.exact(4));
  EXPECT_TRUE(P.exact(5));
  EXPECT_FALSE(P.exact(6));
}

TEST(WarpLaneSets, LoopsWhoseLanesChangeBetweenIterations) {
  Probes P(R"cu(
__global__ void k(const int *in) {
  int lane = threadIdx.x % 32;
  for (int o = 1; o < 32; o *= 2) {
    probe();                                // 0: lanes drop out as o grows
    if (lane < o) break;
  }
  int j = 0;
  while (j < 4) { probe(); ++j; }           // 1: uniform trip count
  switch (lane) { case 0: probe(); break; default: break; } // 2
}
)cu");
  ASSERT_EQ(P.Calls.size(), 3u);
  EXPECT_FALSE(P.exact(0));
  EXPECT_EQ(P.lanes(0), 0xffffffffu);
  EXPECT_TRUE(P.exact(1));
  EXPECT_FALSE(P.exact(2));
}

TEST(WarpLaneSets, MaskValues) {
  Probes P(R"cu(
#define HALF_MASK 0x0000ffffu
template <unsigned M> __device__ void withTemplateMask() { probe(M); }
__global__ void k(const int *in, unsigned runtime) {
  int lane = threadIdx.x % 32;
  probe(HALF_MASK);                          // 0
  probe((1u << 8) - 1);                      // 1
  const unsigned kMask = 0xf0f0f0f0u;
  probe(kMask);                              // 2
  probe(0xffu << (lane & ~7));               // 3: the lane's group of 8
  unsigned low = __ballot_sync(0xffffffff, lane < 8);
  probe(low);                                // 4
  probe(__activemask());                     // 5: a run-time mask
  probe(runtime);                            // 6
  unsigned data = __ballot_sync(0xffffffff, in[lane] > 0);
  probe(data);                               // 7
  probe();                                   // 8: the default argument
}
)cu");
  ASSERT_EQ(P.Calls.size(), 9u);
  EXPECT_EQ(P.mask(0), 0x0000ffffu);
  EXPECT_EQ(P.mask(1), 0x000000ffu);
  EXPECT_EQ(P.mask(2), 0xf0f0f0f0u);
  EXPECT_EQ(P.mask(3, 0), 0x000000ffu);
  EXPECT_EQ(P.mask(3, 13), 0x0000ff00u);
  EXPECT_EQ(P.mask(3, 32 + 31), 0xff000000u);
  EXPECT_EQ(P.mask(4), 0x000000ffu);
  EXPECT_FALSE(P.mask(5).has_value());
  EXPECT_FALSE(P.mask(6).has_value());
  EXPECT_FALSE(P.mask(7).has_value());
  EXPECT_EQ(P.mask(8), 0u);

  Probes T(R"cu(
template <unsigned M> __global__ void k() { probe(M); }
template __global__ void k<0xffu>();
)cu");
  ASSERT_EQ(T.Calls.size(), 1u);
  EXPECT_EQ(T.mask(0), 0xffu);
}

TEST(WarpLaneSets, ActiveMaskThroughALocal) {
  ParsedCuda P(R"cu(
__global__ void k(int *out) {
  unsigned active = __activemask();
  unsigned changed = __activemask();
  changed &= 0xffff;
  out[0] = __shfl_sync(active, 1, 0);
  out[1] = __shfl_sync(changed, 1, 0);
  out[2] = __shfl_sync(__activemask(), 1, 0);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  const FunctionDecl *FD = P.function("k");
  auto Found = match(
      functionDecl(equalsNode(FD),
                   forEachDescendant(
                       callExpr(callee(functionDecl(hasName("__shfl_sync"))))
                           .bind("c"))),
      P.context());
  std::vector<bool> Active;
  for (const auto &Node : Found)
    Active.push_back(isActiveMaskArgument(
        Node.getNodeAs<CallExpr>("c")->getArg(0), FD, P.context()));
  ASSERT_EQ(Active.size(), 3u);
  EXPECT_EQ(llvm::count(Active, true), 2);
}

TEST(WarpLaneSets, DescribeLanes) {
  EXPECT_EQ(describeLanes(0x0000ff00u), "lanes 8\u201315");
  EXPECT_EQ(describeLanes(0x00010000u), "lane 16");
  EXPECT_EQ(describeLanes(0x0f00000fu), "lanes 0\u20133 and 24\u201327");
  EXPECT_EQ(describeLanes(0xaaaaaaaau), "the odd lanes");
  EXPECT_EQ(describeLanes(0x11111111u),
            "8 lanes (0, 4, 8, \u2026, 28)");
  EXPECT_EQ(describeLanes(0), "no lane");
}

} // namespace
} // namespace clang::tidy::cuda::analysis
