//===--- WarpLaneSetsTest.cpp - the lanes that reach each call ------------===//
//
// Expectations from the execution model: warp w of a block row holds
// threadIdx.x 32 w to 32 w + 31, lane = threadIdx.x % 32; a lane that
// returned (or broke out of the loop) does not reach what follows; a
// condition uniform across the warp lets whole warps through.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/lanes/WarpLaneSets.h"
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

/// The calls in \p FD whose callee's name \p Named accepts, in source
/// order.
std::vector<const CallExpr *>
callsIn(const FunctionDecl *FD, ASTContext &Ctx,
        llvm::function_ref<bool(llvm::StringRef)> Named) {
  std::vector<const CallExpr *> Out;
  for (const auto &Node :
       match(functionDecl(equalsNode(FD),
                          forEachDescendant(callExpr().bind("c"))),
             Ctx)) {
    const auto *Call = Node.getNodeAs<CallExpr>("c");
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Callee->getIdentifier() && Named(Callee->getName()))
      Out.push_back(Call);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Out, [&](const CallExpr *A, const CallExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return Out;
}

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
    Calls = callsIn(FD, Ctx, [](llvm::StringRef N) { return N == "probe"; });
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

/// The shuffles of kernel `k`, in source order, with their read problems.
struct Shuffles {
  explicit Shuffles(llvm::StringRef Body) : Parsed(Body.str()) {
    if (!Parsed.parsedCleanly()) {
      ADD_FAILURE() << "snippet does not compile";
      return;
    }
    ASTContext &Ctx = Parsed.context();
    Manager = std::make_unique<AnalysisManager>(Ctx, AnalysisOptions());
    const FunctionDecl *FD = Parsed.function("k");
    if (!FD)
      return;
    Sets = std::make_unique<WarpLaneSets>(FD, Ctx, *Manager);
    Calls = callsIn(FD, Ctx, [](llvm::StringRef N) {
      return N.starts_with("__shfl");
    });
  }
  std::optional<ShuffleReadProblem> problem(unsigned I) const {
    if (I >= Calls.size() || !Sets) {
      ADD_FAILURE() << "no shuffle " << I;
      return std::nullopt;
    }
    return Sets->shuffleReadProblem(Calls[I]);
  }

  ParsedCuda Parsed;
  std::unique_ptr<AnalysisManager> Manager;
  std::unique_ptr<WarpLaneSets> Sets;
  std::vector<const CallExpr *> Calls;
};

TEST(WarpLaneSets, ShuffleWidthSplitsTheMask) {
  Shuffles S(R"cu(
__global__ void k(float *out) {
  int lane = threadIdx.x % 32;
  float v = out[threadIdx.x];
  if (lane < 24) {
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0x00ffffff, v, o, 16);   // 0: 16-31 named in part
    v += __shfl_down_sync(0x00ffffff, v, 1, 16);     // 1: lane 23 reads 24
    v += __shfl_up_sync(0x00ffffff, v, 1, 16);       // 2: reads stay named
    v += __shfl_xor_sync(0x00ffffff, v, 16, 16);     // 3: 8-15 read 24-31?
    for (int o = 4; o > 0; o /= 2)
      v += __shfl_down_sync(0x00ffffff, v, o, 8);    // 4: whole segments
    v += __shfl_sync(0x00ffffff, v, 0, 16);          // 5: lanes 16-23 read 16
  }
  if (lane < 16) {
    v += __shfl_sync(0xffff, v, 20);                 // 6: 0-15 read lane 20
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0xffff, v, o);           // 7: width 32: the idiom
  }
  out[threadIdx.x] = v;
}
)cu");
  ASSERT_EQ(S.Calls.size(), 8u);
  auto P0 = S.problem(0);
  ASSERT_TRUE(P0.has_value());
  EXPECT_EQ(P0->Width, 16u);
  EXPECT_EQ(P0->Segment, 0xffff0000u);
  EXPECT_EQ(P0->NamedInSegment, 0x00ff0000u);
  EXPECT_EQ(P0->Readers, 0u);
  auto P1 = S.problem(1);
  ASSERT_TRUE(P1.has_value());
  EXPECT_EQ(P1->Readers, 1u << 23);
  EXPECT_EQ(P1->Unnamed, 1u << 24);
  EXPECT_FALSE(S.problem(2).has_value());
  // xor 16 with width 16 would read the next segment: each lane keeps its
  // own value (it may read earlier segments only): lanes 16-23 read 0-7.
  EXPECT_FALSE(S.problem(3).has_value());
  EXPECT_FALSE(S.problem(4).has_value());
  EXPECT_FALSE(S.problem(5).has_value());
  auto P6 = S.problem(6);
  ASSERT_TRUE(P6.has_value());
  EXPECT_EQ(P6->Width, 32u);
  EXPECT_EQ(P6->Readers, 0x0000ffffu);
  EXPECT_EQ(P6->Unnamed, 1u << 20);
  EXPECT_FALSE(S.problem(7).has_value());
}

TEST(WarpLaneSets, GlobalIndexLanesNeedWarpAlignment) {
  // Launched with 128-thread blocks: blockDim.x is a multiple of 32, so
  // gid % 32 is the lane in every block.
  Probes P(R"cu(
__global__ void k(int *in, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = gid % 32;
  if (lane < 16) probe();                       // 0
  if ((gid & 31) >= 8) probe();                 // 1
  unsigned strided = blockIdx.x * 256 + threadIdx.x;
  if (strided % 32 == 0) probe();               // 2: a constant stride
  if (gid < 48) probe();                        // 3: depends on the block
  int odd = blockIdx.x * 48 + threadIdx.x;
  if (odd % 32 < 4) probe();                    // 4: 48 is not aligned
  probe(gid & 7);                               // 5: a value of the lane
  if (lane >= 24) return;
  probe();                                      // 6
}
void launch(int *in) { k<<<4, 128>>>(in, 0); }
)cu");
  ASSERT_EQ(P.Calls.size(), 7u);
  EXPECT_EQ(P.lanes(0), 0x0000ffffu);
  EXPECT_TRUE(P.exact(0));
  EXPECT_EQ(P.lanes(1, 3), 0xffffff00u);
  EXPECT_EQ(P.lanes(2), 0x00000001u);
  EXPECT_TRUE(P.exact(2));
  EXPECT_FALSE(P.exact(3));
  EXPECT_EQ(P.lanes(3), 0xffffffffu);
  EXPECT_FALSE(P.exact(4));
  EXPECT_EQ(P.mask(5, 13), 5u);
  EXPECT_EQ(P.lanes(6), 0x00ffffffu);
  EXPECT_TRUE(P.exact(6));

  // No launch, no option: blockDim.x may be any width.
  Probes U(R"cu(
__global__ void k(int *in) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid % 32 < 16) probe();                   // 0
  unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  if ((tid & 31) < 16) probe();                 // 1
  if (threadIdx.x % 32 < 16) probe();           // 2: threadIdx.x still is
}
)cu");
  ASSERT_EQ(U.Calls.size(), 3u);
  EXPECT_FALSE(U.exact(0));
  EXPECT_FALSE(U.exact(1));
  EXPECT_EQ(U.lanes(2), 0x0000ffffu);
  EXPECT_TRUE(U.exact(2));
}

TEST(WarpLaneSets, ValuesKnownInPartDecideNothingElse) {
  Probes P(R"cu(
__global__ void k(const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (__ballot_sync(0xffffffff, in[i] > 0) & 1) probe(); // 0: warp-uniform
  probe();                                               // 1
  if (in[i] > 0 && threadIdx.x % 32 < 8) probe();        // 2: at most 0-7
  probe();                                               // 3: whole again
  if ((in[i] * 2) & 1) probe();                          // 4: even: never
}
)cu");
  ASSERT_EQ(P.Calls.size(), 5u);
  EXPECT_TRUE(P.exact(0));
  EXPECT_TRUE(P.exact(1));
  EXPECT_FALSE(P.exact(2));
  EXPECT_TRUE(P.exact(3));
  EXPECT_EQ(P.lanes(3), 0xffffffffu);
  EXPECT_EQ(P.lanes(4), 0u);
}

TEST(WarpLaneSets, CallSiteContext) {
  ParsedCuda P(R"cu(
__device__ void probe(unsigned mask = 0);
__device__ void wrapper(unsigned mask, int count, int v) {
  if (threadIdx.x % 32 < count) probe(mask);  // 0
  if (v > 0) probe(mask);                      // 1
  probe(mask);                                 // 2
}
__global__ void k(const int *in, int n) {
  int lane = threadIdx.x % 32;
  if (lane < 16) wrapper(0xffu, 12, n);        // call 0
  wrapper(n, 4, in[threadIdx.x]);              // call 1
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  ASTContext &Ctx = P.context();
  AnalysisManager Manager(Ctx, AnalysisOptions());
  const FunctionDecl *K = P.function("k");
  const FunctionDecl *W = P.function("wrapper");
  ASSERT_TRUE(K && W);
  auto CallsOf = [&](const FunctionDecl *In, llvm::StringRef Name) {
    return callsIn(In, Ctx, [&](llvm::StringRef N) { return N == Name; });
  };
  std::vector<const CallExpr *> Wrappers = CallsOf(K, "wrapper");
  std::vector<const CallExpr *> ProbeCalls = CallsOf(W, "probe");
  ASSERT_EQ(Wrappers.size(), 2u);
  ASSERT_EQ(ProbeCalls.size(), 3u);
  WarpLaneSets Kernel(K, Ctx, Manager);

  // Lanes 0-15 call with mask 0xff and count 12; n is uniform.
  WarpLaneSets First(W, Ctx, Manager, Wrappers[0], Kernel);
  EXPECT_EQ(First.reachOf(ProbeCalls[0])->Lanes.Bits[0], 0x00000fffu);
  EXPECT_TRUE(First.reachOf(ProbeCalls[0])->Exact);
  EXPECT_EQ(First.reachOf(ProbeCalls[1])->Lanes.Bits[0], 0x0000ffffu);
  EXPECT_TRUE(First.reachOf(ProbeCalls[1])->Exact) << "v is the uniform n";
  EXPECT_EQ(First.reachOf(ProbeCalls[2])->Lanes.Bits[5], 0x0000ffffu);
  auto Mask = First.valuesAt(ProbeCalls[2]->getArg(0));
  ASSERT_TRUE(Mask.has_value());
  EXPECT_EQ((*Mask)[40], 0xffu);

  // The whole warp, count 4, a mask not known, v loaded per lane.
  WarpLaneSets Second(W, Ctx, Manager, Wrappers[1], Kernel);
  EXPECT_EQ(Second.reachOf(ProbeCalls[0])->Lanes.Bits[0], 0x0000000fu);
  EXPECT_FALSE(Second.reachOf(ProbeCalls[1])->Exact);
  EXPECT_FALSE(Second.valuesAt(ProbeCalls[2]->getArg(0)).has_value());

  // Alone: nothing known of count, v is read as uniform.
  WarpLaneSets Alone(W, Ctx, Manager);
  EXPECT_FALSE(Alone.reachOf(ProbeCalls[0])->Exact);
  EXPECT_FALSE(Alone.valuesAt(ProbeCalls[2]->getArg(0)).has_value());
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
