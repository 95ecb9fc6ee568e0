//===--- DivergenceAnalysisTest.cpp - the divergence analysis on its own ---===//
//
// Parses CUDA snippets with the real CUDA 13 headers and asks the analysis
// about named points: `probe(x)` asks how uniform x is there, `mark(N)` names
// a point for the control-flow questions. Expectations come from the CUDA
// execution model, not from the analysis' output.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/divergence/RoleSplits.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/core/Uniformity.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

#ifndef CUDA_TIDY_TEST_RESOURCE_DIR
#define CUDA_TIDY_TEST_RESOURCE_DIR "/usr/lib/llvm-22/lib/clang/22"
#endif

/// Declarations every snippet starts with: the probes and the markers.
constexpr const char *Prelude = R"cu(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__device__ void probe(int);
__device__ void probe(unsigned);
__device__ void probe(float);
__device__ void probe(bool);
__device__ void mark(int);
)cu";

/// A parsed snippet and the analyses of its functions.
class Snippet {
public:
  explicit Snippet(llvm::StringRef Code, AnalysisOptions Options = {}) {
    std::vector<std::string> Args = {
        "-x",
        "cuda",
        "--cuda-device-only",
        "--cuda-path=/usr/local/cuda",
        "-I/usr/local/cuda/include/cccl",
        "-Wno-unknown-cuda-version",
        "--cuda-gpu-arch=sm_90",
        "-std=c++17",
        "-resource-dir=" CUDA_TIDY_TEST_RESOURCE_DIR};
    AST = tooling::buildASTFromCodeWithArgs((Prelude + Code).str(), Args,
                                            "snippet.cu");
    if (AST)
      Manager = std::make_unique<AnalysisManager>(AST->getASTContext(),
                                                  Options);
  }

  bool parsedCleanly() const {
    return AST && !AST->getDiagnostics().hasErrorOccurred();
  }
  ASTContext &context() { return AST->getASTContext(); }
  AnalysisManager &manager() { return *Manager; }

  const FunctionDecl *function(llvm::StringRef Name) {
    auto Found = match(
        functionDecl(hasName(Name), isDefinition()).bind("f"), context());
    for (const auto &Node : Found)
      if (const auto *FD = Node.getNodeAs<FunctionDecl>("f"))
        if (!FD->isDependentContext())
          return FD;
    return nullptr;
  }

  const FunctionDivergence &divergence(llvm::StringRef Name) {
    const FunctionDecl *FD = function(Name);
    EXPECT_NE(FD, nullptr) << "no function " << Name.str();
    const FunctionDivergence *D = Manager->divergence(FD);
    EXPECT_NE(D, nullptr) << "no analysis of " << Name.str();
    EXPECT_TRUE(D->isAnalyzed());
    return *D;
  }

  /// The calls of \p Callee inside \p Function, in source order.
  std::vector<const CallExpr *> callsOf(llvm::StringRef Function,
                                        llvm::StringRef Callee) {
    const FunctionDecl *FD = function(Function);
    auto Found =
        match(functionDecl(equalsNode(FD),
                           forEachDescendant(
                               callExpr(callee(functionDecl(hasName(Callee))))
                                   .bind("c"))),
              context());
    std::vector<const CallExpr *> Calls;
    for (const auto &Node : Found)
      Calls.push_back(Node.getNodeAs<CallExpr>("c"));
    const SourceManager &SM = context().getSourceManager();
    llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
      return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
    });
    return Calls;
  }

  /// How uniform the argument of the \p Index-th probe in \p Function is.
  Uniformity probe(llvm::StringRef Function, unsigned Index) {
    std::vector<const CallExpr *> Probes = callsOf(Function, "probe");
    EXPECT_LT(Index, Probes.size());
    if (Index >= Probes.size())
      return Uniformity();
    return divergence(Function).uniformityOf(Probes[Index]->getArg(0));
  }

  /// The `mark(Id)` call in \p Function.
  const CallExpr *mark(llvm::StringRef Function, int Id) {
    for (const CallExpr *Call : callsOf(Function, "mark")) {
      Expr::EvalResult Result;
      if (Call->getArg(0)->EvaluateAsInt(Result, context()) &&
          Result.Val.getInt() == Id)
        return Call;
    }
    ADD_FAILURE() << "no mark(" << Id << ") in " << Function.str();
    return nullptr;
  }

  std::optional<DivergenceReason> divergenceAt(llvm::StringRef Function,
                                               int Id, Scope Within) {
    return divergence(Function).divergenceAt(mark(Function, Id), Within);
  }

  std::string text(const Stmt *S) {
    if (!S)
      return "";
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()),
               context().getSourceManager(), context().getLangOpts())
        .str();
  }

private:
  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<AnalysisManager> Manager;
};

//===----------------------------------------------------------------------===//
// The lattice
//===----------------------------------------------------------------------===//

TEST(UniformityLattice, JoinKeepsTheNarrowerScopeAndItsOrigin) {
  int Dummy = 0;
  auto *Where = reinterpret_cast<const Stmt *>(&Dummy);
  Uniformity Block = Uniformity::at(Scope::Block, {OriginKind::HardwareIndex,
                                                   Where});
  Uniformity Warp = Uniformity::at(Scope::Warp, {OriginKind::Intrinsic,
                                                 nullptr});
  Uniformity J = Uniformity::join(Block, Warp);
  EXPECT_EQ(J.scope(), Scope::Warp);
  EXPECT_EQ(J.origin().Kind, OriginKind::Intrinsic);
  EXPECT_EQ(Uniformity::join(Warp, Block).scope(), Scope::Warp);
  EXPECT_EQ(Uniformity::join(Uniformity(), Block).scope(), Scope::Block);
  EXPECT_TRUE(Uniformity().isTop());
  EXPECT_TRUE(Block.isUniformAt(Scope::Warp));
  EXPECT_FALSE(Block.isUniformAt(Scope::Cluster));
}

TEST(UniformityLattice, TilesSitBetweenThreadAndBlock) {
  EXPECT_EQ(Level::tile(1), Level::thread());
  EXPECT_EQ(Level::tile(32), Level::warp());
  EXPECT_EQ(Level::tile(16)->scope(), Scope::Thread);
  EXPECT_EQ(Level::tile(64)->scope(), Scope::Warp);
  EXPECT_FALSE(Level::tile(48).has_value());
  EXPECT_TRUE(*Level::tile(1024) < Level::block());
  Uniformity Tile16 = Uniformity::at(*Level::tile(16), {});
  EXPECT_TRUE(Tile16.isUniformWithinTile(16));
  EXPECT_TRUE(Tile16.isUniformWithinTile(8));
  EXPECT_FALSE(Tile16.isUniformWithinTile(32));
  EXPECT_FALSE(Tile16.isUniformAt(Scope::Warp));
}

TEST(UniformityLattice, SymbolsResolveToTheirBindings) {
  Uniformity Param = Uniformity::symbol(1);
  EXPECT_EQ(Param.scope(), Scope::Grid) << "inputs read as uniform";
  EXPECT_TRUE(Param.dependsOnSymbols());
  Uniformity Bound = Param.resolve([](unsigned Symbol) {
    return Symbol == 1 ? Uniformity::at(Scope::Block, {})
                       : Uniformity::varying({});
  });
  EXPECT_EQ(Bound.scope(), Scope::Block);
  EXPECT_FALSE(Bound.dependsOnSymbols());
}

// A value that is a function of the lane (tid % 32) and of data shared by a
// block agrees lane by lane across the block's warps; a whole-warp vote of
// it is then the same in every warp. Through a function, the vote's input
// is a collective symbol: the call narrows the result to the argument's
// lane level, not its level.
TEST(UniformityLattice, WholeWarpVotesOfLanePeriodicValues) {
  Uniformity Lane = Uniformity::varying({}).setLaneLevel(Level::grid());
  EXPECT_EQ(Lane.laneLevel(), Level::grid());
  Uniformity Loaded = Uniformity::join(Lane, Uniformity::at(Scope::Block, {}));
  EXPECT_EQ(Loaded.scope(), Scope::Thread);
  EXPECT_EQ(Loaded.laneLevel(), Level::block());
  EXPECT_EQ(Uniformity::varying({}).laneLevel(), Level::warp())
      << "an ordinary varying value agrees only with itself";
  EXPECT_EQ(Uniformity::at(Scope::Block, {}).laneLevel(), Level::block());
  EXPECT_EQ(Uniformity::fullWarpCollective(Loaded, {}).scope(), Scope::Block);
  EXPECT_EQ(Uniformity::fullWarpCollective(Uniformity::varying({}), {}).scope(),
            Scope::Warp);

  Uniformity Vote = Uniformity::fullWarpCollective(Uniformity::symbol(0), {});
  EXPECT_TRUE(Vote.dependsOnSymbols());
  EXPECT_FALSE(Vote.isTop()) << "a collective input is still an input";
  EXPECT_EQ(Vote.collectiveSymbols(), 1u);
  auto BindTo = [](Uniformity Argument) {
    return [Argument](unsigned) { return Argument; };
  };
  EXPECT_EQ(Vote.resolve(BindTo(Loaded)).scope(), Scope::Block);
  EXPECT_EQ(Vote.resolve(BindTo(Uniformity::varying({}))).scope(), Scope::Warp);
  EXPECT_EQ(Vote.resolve(BindTo(Uniformity::at(Scope::Block, {}))).scope(),
            Scope::Block);
  // A plain use of an input keeps the argument's lane level too.
  Uniformity Copy = Uniformity::symbol(0).resolve(BindTo(Loaded));
  EXPECT_EQ(Copy.scope(), Scope::Thread);
  EXPECT_EQ(Copy.laneLevel(), Level::block());
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

TEST(DivergenceAnalysis, BuiltinIndexVariables) {
  Snippet S(R"cu(
__global__ void k(int n) {
  probe(threadIdx.x); probe(threadIdx.y); probe(blockIdx.x);
  probe(blockDim.x); probe(gridDim.y); probe(n); probe(42);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Grid) << "kernel parameter";
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 0).origin().Kind, OriginKind::HardwareIndex);
}

TEST(DivergenceAnalysis, RowsOfWholeWarpsMakeThreadIdxYWarpUniform) {
  AnalysisOptions Options;
  Options.AssumeBlockDimXMultipleOf32 = true;
  Snippet S(R"cu(
__global__ void k() { probe(threadIdx.y); probe(threadIdx.z); probe(threadIdx.x); }
)cu",
            Options);
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, LaneAndWarpArithmetic) {
  Snippet S(R"cu(
__global__ void k() {
  int tid = threadIdx.x;
  probe(tid / 32);                 // 0: warp index
  probe(tid / warpSize);           // 1
  probe(tid >> 5);                 // 2
  probe(tid % 32);                 // 3: lane
  probe(tid & 31);                 // 4
  int lane = tid % 32;
  probe(lane / 8);                 // 5: index of an 8-lane tile
  probe(tid / 64);                 // 6: two warps
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  probe(gid / 32);                 // 7: global warp index
  probe((tid + 1) / 32);           // 8: shifted, straddles warps
  probe((threadIdx.x + threadIdx.y * blockDim.x) / 32); // 9: linear id
  probe(tid / 48);                 // 10: not a tile
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
  Uniformity TileIndex = S.probe("k", 5);
  EXPECT_TRUE(TileIndex.isUniformWithinTile(8));
  EXPECT_FALSE(TileIndex.isUniformWithinTile(16));
  Uniformity TwoWarps = S.probe("k", 6);
  EXPECT_TRUE(TwoWarps.isUniformWithinTile(64));
  EXPECT_FALSE(TwoWarps.isUniformAt(Scope::Block));
  EXPECT_EQ(S.probe("k", 7).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 9).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 10).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, WarpBaseArithmetic) {
  Snippet S(R"cu(
__global__ void k(int n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned lane = threadIdx.x & 31;
  probe(tid - lane);               // 0: the warp's first thread
  probe(threadIdx.x - threadIdx.x % 8); // 1: an 8-lane tile's first
  probe(threadIdx.x - (threadIdx.x & 63)); // 2: a period wider than a warp
  probe(tid - 1);                  // 3: per thread
  probe(lane - (threadIdx.x & 15)); // 4: 16-lane tiles
  probe((threadIdx.x * 2) - (threadIdx.x & 31)); // 5: other scale
  probe(threadIdx.x & ~31u);       // 6: offset 0, masked
  probe(threadIdx.x & ~7);         // 7
  probe(threadIdx.x & ~0u);        // 8: keeps every bit
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Warp);
  Uniformity Tile8 = S.probe("k", 1);
  EXPECT_TRUE(Tile8.isUniformWithinTile(8));
  EXPECT_FALSE(Tile8.isUniformWithinTile(16));
  EXPECT_EQ(Tile8.knownAlignLog2(), 3u);
  Uniformity TwoWarps = S.probe("k", 2);
  EXPECT_TRUE(TwoWarps.isUniformWithinTile(64));
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  Uniformity Tile16 = S.probe("k", 4);
  EXPECT_TRUE(Tile16.isUniformWithinTile(16));
  EXPECT_FALSE(Tile16.isUniformWithinTile(32));
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 6).knownAlignLog2(), 5u);
  EXPECT_TRUE(S.probe("k", 7).isUniformWithinTile(8));
  EXPECT_FALSE(S.probe("k", 7).isUniformWithinTile(16));
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, LaneTermsCancelInOneDimensionalBlocks) {
  Snippet S(R"cu(
__global__ void k(long n, int *out) {
  long rank = threadIdx.x;
  long gid = threadIdx.x + (long)blockDim.x * blockIdx.x;
  probe((int)(gid - rank));         // 0: the block's first index
  probe((int)(gid / 1 - rank));     // 1: x / 1 is x
  probe((int)(gid / 4 - rank / 4)); // 2: quotients of the same lane
  long idx = gid / 4;
  idx += (long)gridDim.x * blockDim.x / 4;
  probe((int)(idx - rank / 4));     // 3: a quotient plus a uniform step
  probe((int)(gid / 4 - rank / 8)); // 4: other divisors
  probe((int)(gid - rank / 4));     // 5: a lane less a quotient
  probe((int)((gid + 1) / 4 - rank / 4)); // 6: an offset that is not a multiple
  probe((int)(long{threadIdx.x} - rank)); // 7: list-initialized: the value
}
__global__ void rows(long n, int *out) {
  long linear = threadIdx.x + (long)threadIdx.y * blockDim.x;
  probe((int)(linear - threadIdx.x)); // 0: a row's offset, not the block's
}
void launch(long n, int *out) {
  k<<<8, 128>>>(n, out);
  rows<<<8, dim3(32, 4)>>>(n, out);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_FALSE(S.probe("k", 6).isUniformAt(Scope::Block));
  EXPECT_EQ(S.probe("k", 7).scope(), Scope::Grid);
  EXPECT_FALSE(S.probe("rows", 0).isUniformAt(Scope::Block));
}

TEST(DivergenceAnalysis, ReferencesBoundToMemoryAreLoads) {
  Snippet S(R"cu(
struct Pair { int a; int b; };
__global__ void k(Pair *p, int *g) {
  extern __shared__ char smem[];
  int *scalars = reinterpret_cast<int *>(smem);
  int &picked = scalars[1];
  int &mine = scalars[threadIdx.x];
  int &field = p->b;
  int &global = g[blockIdx.x];
  int local = 0;
  int &alias = local;
  if (threadIdx.x == 7) {
    picked = threadIdx.x;
    field = threadIdx.x;
    global = threadIdx.x;
  }
  if (threadIdx.x % 2)
    alias = 1;
  __syncthreads();
  probe(picked);                   // 0: one cell of the block's memory
  probe(mine);                     // 1: each thread's own cell
  probe(field);                    // 2
  probe(global);                   // 3
  probe(alias);                    // 4: the thread's own local
  probe(local);                    // 5: written through alias
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, FieldsOfAnObjectAreValuesOfTheirOwn) {
  // A member function keeps the fields of `*this` apart: a per-lane field
  // leaves a counter every lane updates alike warp-uniform, inside the
  // function and in the object after the call; a use of `this` that lets a
  // field out (its address stored) puts them together again.
  Snippet S(R"cu(
struct Base { int tile; };
struct Counter : Base {
  __device__ explicit Counter(int first) : lane(threadIdx.x % 32), count(0) {
    tile = first;
  }
  __device__ void add(bool keep) {
    int &c = count;
    c += __popc(__ballot_sync(0xffffffffu, keep));
    probe(count);                  // add 0: as uniform as the count was
    probe(lane);                   // add 1
  }
  __device__ void leak(int **out) { *out = &count; }
  int lane;
  int count;
};
__global__ void k(const int *in) {
  Counter c(blockIdx.x);
  c.add(in[threadIdx.x] > 0);
  probe(c.count);                  // k 0: warp-uniform after the call
  probe(c.lane);                   // k 1: per lane
  probe(c.tile);                   // k 2: the block's, from the constructor
}
__global__ void leaks(const int *in) {
  Counter c(blockIdx.x);
  c.add(in[threadIdx.x] > 0);
  int *p = nullptr;
  c.leak(&p);
  probe(c.count);                  // leaks 0: the object as one value
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_NE(S.divergence("Counter::add").thisFieldExits(), nullptr);
  EXPECT_EQ(S.divergence("Counter::leak").thisFieldExits(), nullptr);
  // Inside: the fields' own symbols (uniform until a caller binds them).
  EXPECT_TRUE(S.probe("Counter::add", 0).isUniformAt(Scope::Warp));
  EXPECT_NE(S.probe("Counter::add", 0).symbols(), 0u);
  EXPECT_NE(S.probe("Counter::add", 0).symbols(),
            S.probe("Counter::add", 1).symbols());
  EXPECT_TRUE(S.probe("k", 0).isUniformAt(Scope::Warp));
  EXPECT_FALSE(S.probe("k", 0).isUniformAt(Scope::Block));
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_TRUE(S.probe("k", 2).isUniformAt(Scope::Block));
  EXPECT_EQ(S.probe("leaks", 0).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, MemoryLoads) {
  Snippet S(R"cu(
__constant__ int table[16];
__global__ void k(const int *cfg, int *data, volatile int *flag) {
  __shared__ int s_flag;
  __shared__ int s_buf[256];
  probe(cfg[blockIdx.x]);          // 0: block-uniform address
  probe(data[threadIdx.x]);        // 1
  probe(cfg[0]);                   // 2
  probe(s_flag);                   // 3: one copy per block
  probe(s_buf[threadIdx.x]);       // 4
  probe(table[3]);                 // 5
  probe(*flag);                    // 6: volatile
  probe(atomicAdd(data, 1));       // 7
  probe(*(cfg + blockIdx.y));      // 8
  __shared__ volatile int s_done;
  probe(s_done);                   // 9: written by the block only
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 3).origin().Kind, OriginKind::SharedMemory);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).origin().Kind, OriginKind::VolatileLoad);
  EXPECT_EQ(S.probe("k", 7).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 7).origin().Kind, OriginKind::AtomicResult);
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 9).scope(), Scope::Block);
}

TEST(DivergenceAnalysis, WarpIntrinsics) {
  Snippet S(R"cu(
__global__ void k(int *data) {
  int v = data[threadIdx.x];
  int b = blockIdx.x;
  probe(__ballot_sync(0xffffffffu, v > 0));       // 0
  probe(__activemask());                          // 1
  probe(__shfl_sync(0xffffffffu, v, 0));          // 2: broadcast of lane 0
  probe(__shfl_down_sync(0xffffffffu, v, 1));     // 3
  probe(__shfl_down_sync(0xffffffffu, b, 1));     // 4: every lane has b
  probe(__shfl_sync(0xffffffffu, v, v & 31));     // 5: varying source
  probe(__reduce_add_sync(0xffffffffu, v));       // 6
  probe(__syncthreads_count(v > 0));              // 7
  probe((int)clock());                            // 8
  probe(__shfl_sync(0xffffffffu, v, 0, 16));      // 9: 16-lane segments
  probe(__all_sync(0xffffffffu, v));              // 10
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 7).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Thread);
  Uniformity Segment = S.probe("k", 9);
  EXPECT_TRUE(Segment.isUniformWithinTile(16));
  EXPECT_FALSE(Segment.isUniformWithinTile(32));
  EXPECT_EQ(S.probe("k", 10).scope(), Scope::Warp);
}

TEST(DivergenceAnalysis, WholeWarpVotesOfLanePeriodicValues) {
  Snippet S(R"cu(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int allOf(int x) { return __all_sync(0xffffffffu, x); }
__global__ void k(int *data) {
  __shared__ int perLane[32];
  __shared__ int perThread[1024];
  int tid = threadIdx.x;
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  probe(tid % 32);                                       // 0
  probe(perLane[tid % 32]);                              // 1
  probe(__all_sync(0xffffffffu, perLane[tid % 32]));     // 2
  probe(__any_sync(0xffffffffu, perThread[tid]));        // 3
  probe(__ballot_sync(0x0000ffffu, perLane[tid & 31]));  // 4: half a warp
  probe(allOf(perLane[tid % 32]));                       // 5
  probe(allOf(perThread[tid]));                          // 6
  probe(tile.all(perLane[tile.thread_rank()]));          // 7
  probe(__reduce_add_sync(0xffffffffu, data[tid % 32])); // 8
  probe(__all_sync(0xffffffffu, perLane[tid % 64]));     // 9
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).laneLevel(), Level::grid());
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 1).laneLevel(), Level::block());
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 7).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Grid)
      << "global memory at the lane: every warp of the grid reads the same";
  EXPECT_EQ(S.probe("k", 9).scope(), Scope::Warp)
      << "tid % 64 differs between the two warps of a 64-thread pair";
}

TEST(DivergenceAnalysis, InlineAssemblySpecialRegisters) {
  Snippet S(R"cu(
__global__ void k(int n) {
  unsigned lane, cta, warp, sum;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  probe(lane);                                              // 0
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(cta));
  probe(cta);                                               // 1
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  probe(warp);                                              // 2
  asm("add.u32 %0, %1, %2;" : "=r"(sum) : "r"(cta), "r"(n));
  probe(sum);                                               // 3: arithmetic
  int any;
  asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %1, 0;"
               " bar.red.or.pred q, 1, %2, p; selp.s32 %0, 1, 0, q; }"
               : "=r"(any) : "r"((int)threadIdx.x), "r"(64));
  probe(any);                                               // 4: barrier reduction
  unsigned loaded;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(loaded) : "l"(&n));
  probe(loaded);                                            // 5: a load
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 0).origin().Kind, OriginKind::InlineAsm);
  EXPECT_TRUE(S.probe("k", 0).isLaneLinear())
      << "%laneid is the linear thread index modulo 32";
  EXPECT_EQ(S.probe("k", 0).laneSpanLog2(), 5u);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Warp)
      << "every thread of a barrier reduction gets the same result; with a "
         "thread count the threads taking part are whole warps";
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, NarrowingAtAJoinKeepsWhatHoldsOnEveryPath) {
  // A multiple of 32 picked by a block-uniform branch: block-uniform, still
  // a multiple of 32.
  Uniformity Bound;
  Bound.setKnownAlignLog2(5);
  Bound.narrowByPathChoice(Uniformity::at(Level::block(), ValueOrigin{}));
  EXPECT_EQ(Bound.level(), Level::block());
  EXPECT_EQ(Bound.knownAlignLog2(), 5u);
  // The lane plus an offset picked per block: lane-linear, offset per block.
  Uniformity Lane = Uniformity::varying(ValueOrigin{});
  Lane.setLaneLinear(Level::grid(), 5);
  Lane.narrowByPathChoice(Uniformity::at(Level::block(), ValueOrigin{}));
  EXPECT_TRUE(Lane.isLaneLinear());
  EXPECT_EQ(Lane.laneOffsetLevel(), Level::block());
  EXPECT_EQ(Lane.laneOffsetAlignLog2(), 5u);
  // Picked per thread: no lane-linear form is left.
  Uniformity PerThread = Uniformity::varying(ValueOrigin{});
  PerThread.setLaneLinear(Level::grid(), 5);
  PerThread.narrowByPathChoice(Uniformity::at(Level::thread(), ValueOrigin{}));
  EXPECT_FALSE(PerThread.isLaneLinear());
  EXPECT_EQ(PerThread.level(), Level::thread());
}

TEST(DivergenceAnalysis, LaneIdAssemblyIsRecognised) {
  EXPECT_TRUE(isLaneIdRead("mov.u32 %0, %%laneid;"));
  EXPECT_TRUE(isLaneIdRead("  mov.s32 %0, %%laneid"));
  EXPECT_FALSE(isLaneIdRead("mov.u32 %0, %%warpid;"));
  EXPECT_FALSE(isLaneIdRead("mov.u32 %1, %%laneid;"));
  EXPECT_FALSE(isLaneIdRead("mov.u32 %0, %%laneid; add.u32 %0, %0, 1;"));
}

/// Block barriers are barriers; a call of `syncing` synchronizes an unknown
/// number of times.
static SyncKind classifyForTest(const CallExpr *Call) {
  if (std::optional<BarrierCall> B = asBarrierCall(Call))
    return B->BarrierScope == Scope::Block ? SyncKind::Barrier
                                           : SyncKind::None;
  const FunctionDecl *F = Call->getDirectCallee();
  if (F && F->getIdentifier() && F->getName() == "syncing")
    return SyncKind::Unknown;
  return SyncKind::None;
}

TEST(RoleSplits, ExactBarrierCounts) {
  Snippet S(R"cu(
__device__ void syncing();
__device__ void straight(int n, int *p) {
  __syncthreads();
  if (n > 0) { p[0] = 1; __syncthreads(); } else { __syncthreads(); }
  for (int i = 0; i < n; ++i) p[i] = i;
}
__device__ void inALoop(int n) { for (int i = 0; i < n; ++i) __syncthreads(); }
__device__ void afterAReturn(int n) { if (n) return; __syncthreads(); }
__device__ void unequalArms(int n) { if (n) __syncthreads(); }
__device__ void underConditional(int n) { n > 0 ? (__syncthreads(), 0) : 0; }
__device__ void viaCall() { syncing(); }
__device__ void breakInLoop(int n, int *p) {
  for (int i = 0; i < n; ++i) { if (p[i]) break; p[i] = 1; }
  __syncthreads();
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  auto Count = [&](llvm::StringRef Name) {
    return exactBarrierCount(S.function(Name)->getBody(), classifyForTest);
  };
  EXPECT_EQ(Count("straight"), std::optional<unsigned>(2));
  EXPECT_EQ(Count("inALoop"), std::nullopt);
  EXPECT_EQ(Count("afterAReturn"), std::nullopt);
  EXPECT_EQ(Count("unequalArms"), std::nullopt);
  EXPECT_EQ(Count("underConditional"), std::nullopt);
  EXPECT_EQ(Count("viaCall"), std::nullopt);
  EXPECT_EQ(Count("breakInLoop"), std::optional<unsigned>(1))
      << "a break that stays inside the loop leaves nothing early";
}

TEST(RoleSplits, WarpAlignedRolesWithMatchingCounts) {
  Snippet S(R"cu(
__global__ void roles(int *p) {
  if (threadIdx.x < 64) { p[0] = 1; __syncthreads(); __syncthreads(); return; }
  __syncthreads();
  p[threadIdx.x] = 2;
  __syncthreads();
}
__global__ void arms(int *p) {
  if (threadIdx.x / 32 == 1) { __syncthreads(); } else { __syncthreads(); }
}
__global__ void insideAWarp(int *p) {
  if (threadIdx.x < 48) { __syncthreads(); } else { __syncthreads(); }
}
__global__ void unequal(int *p) {
  if (threadIdx.x < 64) { __syncthreads(); return; }
  __syncthreads();
  __syncthreads();
}
__global__ void afterAnEarlierExit(int *p) {
  if (p[threadIdx.x] > 0) return;
  if (threadIdx.x < 64) { __syncthreads(); return; }
  __syncthreads();
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  auto Matched = [&](llvm::StringRef Kernel, unsigned Barrier) {
    std::vector<const CallExpr *> Barriers = S.callsOf(Kernel, "__syncthreads");
    EXPECT_LT(Barrier, Barriers.size());
    const FunctionDivergence &D = S.divergence(Kernel);
    std::optional<DivergenceReason> Reason =
        D.divergenceAt(Barriers[Barrier], Scope::Block);
    EXPECT_TRUE(Reason.has_value()) << Kernel.str() << " " << Barrier;
    return Reason && isMatchedRoleSplit(D, *Reason, classifyForTest);
  };
  EXPECT_TRUE(Matched("roles", 0));
  EXPECT_TRUE(Matched("roles", 1));
  EXPECT_TRUE(Matched("roles", 2)) << "the staying role's first barrier";
  EXPECT_TRUE(Matched("roles", 3));
  EXPECT_TRUE(Matched("arms", 0));
  EXPECT_TRUE(Matched("arms", 1));
  EXPECT_FALSE(Matched("insideAWarp", 0)) << "warp 1 is cut in two";
  EXPECT_FALSE(Matched("unequal", 0));
  EXPECT_FALSE(Matched("unequal", 1));
  EXPECT_FALSE(Matched("afterAnEarlierExit", 0))
      << "the split is reached by part of the block only";
}

TEST(DivergenceAnalysis, CooperativeGroupsValues) {
  Snippet S(R"cu(
__global__ void k(float x) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  auto tile16 = cg::tiled_partition<16>(block);
  probe(block.thread_rank());                        // 0
  probe(tile.meta_group_rank());                     // 1
  probe(tile16.meta_group_rank());                   // 2
  probe(cg::reduce(tile, x * threadIdx.x, cg::plus<float>()));  // 3
  probe(block.group_index().x);                      // 4
  probe(tile.thread_rank());                         // 5
  probe(tile.shfl(x * threadIdx.x, 0));              // 6
  probe(tile16.ballot(threadIdx.x & 1));             // 7
  probe(block.size());                               // 8
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Warp);
  EXPECT_TRUE(S.probe("k", 2).isUniformWithinTile(16));
  EXPECT_FALSE(S.probe("k", 2).isUniformWithinTile(32));
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Warp);
  EXPECT_TRUE(S.probe("k", 7).isUniformWithinTile(16));
  EXPECT_FALSE(S.probe("k", 7).isUniformWithinTile(32));
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Grid);
}

//===----------------------------------------------------------------------===//
// Propagation, sync and temporal divergence
//===----------------------------------------------------------------------===//

TEST(DivergenceAnalysis, AssignmentsFollowTheFlow) {
  Snippet S(R"cu(
__global__ void k(int n) {
  int x = threadIdx.x;
  probe(x);          // 0
  x = blockIdx.x;
  probe(x);          // 1: overwritten
  x += n;
  probe(x);          // 2
  x++;
  probe(x);          // 3
  int y = x > 3 ? 1 : 2;
  probe(y);          // 4
  int z = threadIdx.x > 3 ? 1 : 2;
  probe(z);          // 5
  bool both = n > 0 && threadIdx.x < 5;
  probe(both);       // 6
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, SyncDivergenceAtJoins) {
  Snippet S(R"cu(
__global__ void k(int n) {
  int tid = threadIdx.x;
  int x;
  if (tid < 4) x = 1; else x = 2;
  probe(x);                      // 0: constants, chosen per thread
  int w;
  if (tid / 32 == 0) w = 1; else w = 2;
  probe(w);                      // 1: chosen per warp
  int b = 0;
  if (blockIdx.x == 0) b = 1;
  probe(b);                      // 2: chosen per block
  int u = 0;
  if (n > 4) u = 1;
  probe(u);                      // 3: chosen for the grid
  int inside = 0;
  if (tid < 4) { inside = 7; probe(inside); }  // 4: same for the threads here
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 0).origin().Kind, OriginKind::SyncDivergence);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Grid);
}

TEST(DivergenceAnalysis, TemporalDivergenceAfterLoops) {
  Snippet S(R"cu(
__global__ void k(const int *data, int n) {
  int v = data[threadIdx.x];
  int steps = 0;
  while (v > 0) { v >>= 1; ++steps; probe(steps); }  // 0: lockstep inside
  probe(steps);                                       // 1: live out
  int i = 0;
  for (; i < n; ++i) {}
  probe(i);                                           // 2: uniform trip count
  int k = 0;
  for (; k < n; ++k)
    if (data[threadIdx.x] == k) break;
  probe(k);                                           // 3: varying break
  int r = 0;
  for (int j = 0; j < n; ++j) { if (threadIdx.x == j) continue; r += 2; }
  probe(r);                                           // 4: varying continue
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 1).origin().Kind, OriginKind::TemporalDivergence);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
}

TEST(DivergenceAnalysis, AggregatesAndEscapes) {
  Snippet S(R"cu(
__device__ void setTo(int *p, int v) { *p = v; }
struct Pair { int a; int b; };
__global__ void k() {
  int arr[4] = {0, 0, 0, 0};
  arr[0] = blockIdx.x;
  probe(arr[1]);             // 0: coarse, whole array
  arr[threadIdx.x % 4] = 0;
  probe(arr[0]);             // 1: a varying element was written
  Pair p = {1, 2};
  p.a = blockIdx.y;
  probe(p.b);                // 2: a field of its own, still the constant
  int x = 0;
  int *px = &x;
  *px = threadIdx.x;
  probe(x);                  // 3: written through a pointer
  int y = blockIdx.x;
  setTo(&y, threadIdx.x);
  probe(y);                  // 4: written by a callee
  int z = 0;
  int &rz = z;
  rz = threadIdx.x;
  probe(z);                  // 5: written through a reference
}
__global__ void constant() {
  int w = blockIdx.x;
  setTo(&w, 5);
  probe(w);                  // 0: the callee stores a constant
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_TRUE(S.probe("k", 2).isTop());
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("constant", 0).scope(), Scope::Block);
}

TEST(DivergenceAnalysis, FieldsOfLocalObjectsAreValuesOfTheirOwn) {
  Snippet S(R"cu(
struct Pair { int a; int b; };
struct Rows { int r[4]; int n; };
__device__ void bump(Pair &p) { p.b += threadIdx.x; }
__global__ void k(Pair in) {
  Pair p;
  p.a = threadIdx.x;
  p.b = blockIdx.x;
  probe(p.b);                // 0: block
  probe(p.a);                // 1: thread
  probe(p.a + p.b);          // 2: thread
  Pair q = p;
  probe(q.b);                // 3: a copy of the whole object: thread
  Pair r = {1, (int)blockIdx.y};
  probe(r.b);                // 4: from the initializer list: block
  if (threadIdx.x < 3)
    r.a = 5;
  probe(r.a);                // 5: set under a per-thread branch: thread
  probe(r.b);                // 6: untouched there: block
  Rows w;
  w.n = blockIdx.x;
  w.r[threadIdx.x % 4] = 0;
  probe(w.n);                // 7: block
  probe(w.r[0]);             // 8: thread
  Pair s = {0, (int)blockIdx.x};
  bump(s);
  probe(s.b);                // 9: written per thread by the callee
  probe(in.a);               // 10: a kernel's by-value parameter: grid
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 7).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 8).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 9).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 10).scope(), Scope::Grid);
}

TEST(DivergenceAnalysis, ShufflesAgreeAcrossWarpsLaneByLane) {
  // Blocks of whole warps in x, so that threadIdx.x % 32 is the lane.
  AnalysisOptions Options;
  Options.AssumeBlockDimXMultipleOf32 = true;
  Snippet S(R"cu(
__global__ void k(const int *sizes) {
  int lane = threadIdx.x % 32;
  int v = sizes[blockIdx.x * 32 + lane];   // the same at a lane of any warp
  int t = sizes[threadIdx.x];              // each warp its own
  probe(__shfl_sync(0xffffffffu, v, 31));         // 0: block
  probe(__shfl_sync(0xffffffffu, t, 31));         // 1: warp
  probe(__shfl_sync(0xffffffffu, v, threadIdx.x / 32)); // 2: warp
  int up = __shfl_up_sync(0xffffffffu, v, 1);
  probe(__shfl_sync(0xffffffffu, up, 0));         // 3: block
  int byWarp = __shfl_down_sync(0xffffffffu, v, threadIdx.x / 32);
  probe(__shfl_sync(0xffffffffu, byWarp, 0));     // 4: warp
  int scan = v;
  if (lane >= 1)
    scan += up;
  probe(__shfl_sync(0xffffffffu, scan, 31));      // 5: block
}
)cu",
            Options);
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Warp);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Block);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

TEST(DivergenceAnalysis, ReturnValuesFollowArguments) {
  Snippet S(R"cu(
__device__ int laneId() { return threadIdx.x & 31; }
__device__ int twice(int x) { return 2 * x; }
__device__ int pick(int a) { if (threadIdx.x < 3) return a; return 0; }
__device__ int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
__device__ float sq(float f) { return f * f; }
__global__ void k(int n) {
  probe(laneId());           // 0
  probe(twice(blockIdx.x));  // 1
  probe(twice(n));           // 2
  probe(twice(threadIdx.x)); // 3
  probe(pick(n));            // 4: the callee's own branch decides
  probe(fact(n));            // 5: recursion is conservative
  probe(sqrtf(sq(n)));       // 6: math is a function of its inputs
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 0).origin().Kind, OriginKind::CallResult);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 4).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 5).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 6).scope(), Scope::Grid);
}

TEST(DivergenceAnalysis, CallsRecordWhatTheyPassEveryParameter) {
  // `tid` decides only a branch of the callee: not its return value, its
  // stores or a barrier. The call still records what it passes there, for
  // the checks that ask how the callee diverges as this call calls it.
  Snippet S(R"cu(
__device__ void settle(int tid, int n) {
  if (tid < n)
    __syncwarp();
}
struct Voter {
  __device__ void vote(int first, int limit) const {
    if (first < limit)
      __syncwarp();
  }
};
__global__ void k(int n, Voter v) {
  settle(threadIdx.x, n);
  settle(blockIdx.x, n);
  v.vote(threadIdx.x % 32, n);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  const FunctionDivergence &D = S.divergence("k");
  std::vector<const CallExpr *> Settles = S.callsOf("k", "settle");
  std::vector<const CallExpr *> Votes = S.callsOf("k", "vote");
  ASSERT_EQ(Settles.size(), 2u);
  ASSERT_EQ(Votes.size(), 1u);
  EXPECT_EQ(D.symbolValueAtCall(Settles[0], 0).scope(), Scope::Thread);
  EXPECT_EQ(D.symbolValueAtCall(Settles[0], 1).scope(), Scope::Grid);
  EXPECT_EQ(D.symbolValueAtCall(Settles[1], 0).scope(), Scope::Block);
  // A member call: parameter 0 is the first argument after the object.
  EXPECT_EQ(D.symbolValueAtCall(Votes[0], 0).scope(), Scope::Thread);
  EXPECT_EQ(D.symbolValueAtCall(Votes[0], 1).scope(), Scope::Grid);
}

TEST(DivergenceAnalysis, LambdasBindCapturesAtTheCall) {
  Snippet S(R"cu(
__global__ void k(int n) {
  auto addN = [&](int v) { return v + n; };
  probe(addN(threadIdx.x));  // 0
  probe(addN(blockIdx.x));   // 1
  int t = threadIdx.x;
  auto getT = [=]() { return t; };
  probe(getT());             // 2
  int b = blockIdx.x;
  auto getB = [&]() { return b; };
  probe(getB());             // 3
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Block);
  EXPECT_EQ(S.probe("k", 2).scope(), Scope::Thread);
  EXPECT_EQ(S.probe("k", 3).scope(), Scope::Block);
}

TEST(DivergenceAnalysis, ConstexprLocalsAreUniformInEveryInstance) {
  Snippet S(R"cu(
__device__ int lanes(int x) { return x + threadIdx.x; }
template <int N> __global__ void k() {
  constexpr int rows = N > 2 ? 4 : 8;
  probe(rows);
  const int notConstant = lanes(N);
  probe(notConstant);
}
template __global__ void k<4>();
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_TRUE(S.probe("k", 0).isTop());
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Thread);
}

// A short-circuit condition branches once per operand: the operands after a
// uniform first one still decide whether the body runs.
TEST(DivergenceControl, EveryOperandOfAShortCircuitConditionDecides) {
  Snippet S(R"cu(
__global__ void andThen(int n) { if (n > 1 && threadIdx.x < 16) mark(1); }
__global__ void orElse(int n) { if (false || threadIdx.x < 16) mark(1); }
__global__ void loop(int n) { while (n > 1 && threadIdx.x < 16) { mark(1); --n; } }
__global__ void nested(int n) { if (n > 1 && (n < 5 || threadIdx.x < 16)) mark(1); }
__global__ void ternary(int n, int *p) { p[0] = (n > 1 && threadIdx.x < 16) ? 1 : 2; mark(1); }
__global__ void uniform(int n) { if (n > 1 && blockIdx.x < 16) mark(1); }
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  for (const char *Kernel : {"andThen", "orElse", "loop", "nested"}) {
    auto R = S.divergenceAt(Kernel, 1, Scope::Block);
    ASSERT_TRUE(R) << Kernel;
    EXPECT_EQ(S.text(R->Condition), "threadIdx.x < 16") << Kernel;
  }
  EXPECT_EQ(S.divergenceAt("loop", 1, Scope::Block)->Kind,
            DivergenceKind::LoopTripCount);
  EXPECT_FALSE(S.divergenceAt("ternary", 1, Scope::Block));
  EXPECT_FALSE(S.divergenceAt("uniform", 1, Scope::Block));
}

TEST(DivergenceAnalysis, TemplateParametersAreUniform) {
  Snippet S(R"cu(
template <int Tile>
__global__ void k(int n) {
  probe(Tile * n);                 // 0
  probe(threadIdx.x / Tile);       // 1
}
template __global__ void k<32>(int);
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Grid);
  EXPECT_EQ(S.probe("k", 1).scope(), Scope::Warp);
}

//===----------------------------------------------------------------------===//
// Control: where threads can disagree about reaching a point
//===----------------------------------------------------------------------===//

TEST(DivergenceControl, BranchOnAThreadIndexVariable) {
  Snippet S(R"cu(
__global__ void k(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { mark(1); }
  mark(2);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  auto R = S.divergenceAt("k", 1, Scope::Block);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Kind, DivergenceKind::Branch);
  EXPECT_EQ(S.text(R->Condition), "i < n");
  ASSERT_NE(R->Via, nullptr);
  EXPECT_EQ(R->Via->getName(), "i");
  EXPECT_EQ(R->Origin.Kind, OriginKind::HardwareIndex);
  EXPECT_EQ(S.text(R->Origin.Where), "threadIdx.x");
  EXPECT_FALSE(S.divergenceAt("k", 2, Scope::Block));
  EXPECT_FALSE(S.divergence("k").controlUniformity(S.mark("k", 2))
                   .dependsOnSymbols());
}

TEST(DivergenceControl, EarlyExitBreakContinueAndGoto) {
  Snippet S(R"cu(
__global__ void early(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  mark(1);
}
__global__ void brk(const int *data, int n) {
  for (int k = 0; k < n; ++k) {
    if (data[threadIdx.x] < k) break;
    mark(1);
  }
  mark(2);
}
__global__ void cont(const int *data, int n) {
  for (int k = 0; k < n; ++k) {
    mark(3);
    if (data[threadIdx.x] < k) continue;
    mark(1);
  }
}
__global__ void jump(int n) {
  if (threadIdx.x < 4) goto skip;
  mark(1);
skip:
  mark(2);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  auto Early = S.divergenceAt("early", 1, Scope::Block);
  ASSERT_TRUE(Early);
  EXPECT_EQ(Early->Kind, DivergenceKind::EarlyExit);
  EXPECT_TRUE(Early->Exit && isa<ReturnStmt>(Early->Exit));
  EXPECT_EQ(S.text(Early->Condition), "i >= n");

  auto Break = S.divergenceAt("brk", 1, Scope::Block);
  ASSERT_TRUE(Break);
  EXPECT_EQ(Break->Kind, DivergenceKind::EarlyExit);
  EXPECT_TRUE(Break->Exit && isa<BreakStmt>(Break->Exit));
  EXPECT_FALSE(S.divergenceAt("brk", 2, Scope::Block));

  auto Continue = S.divergenceAt("cont", 1, Scope::Block);
  ASSERT_TRUE(Continue);
  EXPECT_EQ(Continue->Kind, DivergenceKind::EarlyExit);
  EXPECT_TRUE(Continue->Exit && isa<ContinueStmt>(Continue->Exit));
  EXPECT_FALSE(S.divergenceAt("cont", 3, Scope::Block))
      << "every thread starts every iteration";

  auto Goto = S.divergenceAt("jump", 1, Scope::Block);
  ASSERT_TRUE(Goto);
  EXPECT_EQ(Goto->Kind, DivergenceKind::Goto);
  EXPECT_FALSE(S.divergenceAt("jump", 2, Scope::Block));
}

TEST(DivergenceControl, LoopsAndSwitches) {
  Snippet S(R"cu(
__global__ void stride(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) { mark(1); }
  for (int t = blockIdx.x; t < n; t += gridDim.x) { mark(2); }
}
__global__ void loaded(const int *data) {
  int v = data[threadIdx.x];
  while (v > 0) { mark(1); v >>= 1; }
}
__global__ void sw() {
  switch (threadIdx.x % 4) {
  case 0: mark(1); break;
  default: break;
  }
  mark(2);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  auto Stride = S.divergenceAt("stride", 1, Scope::Block);
  ASSERT_TRUE(Stride);
  EXPECT_EQ(Stride->Kind, DivergenceKind::LoopTripCount);
  EXPECT_EQ(S.text(Stride->Condition), "i < n");
  EXPECT_FALSE(S.divergenceAt("stride", 2, Scope::Block))
      << "a per-block loop is uniform within the block";
  auto Grid = S.divergenceAt("stride", 2, Scope::Grid);
  ASSERT_TRUE(Grid);
  EXPECT_EQ(Grid->Kind, DivergenceKind::LoopTripCount);

  auto Loaded = S.divergenceAt("loaded", 1, Scope::Block);
  ASSERT_TRUE(Loaded);
  EXPECT_EQ(Loaded->Kind, DivergenceKind::LoopTripCount);
  ASSERT_NE(Loaded->Via, nullptr);
  EXPECT_EQ(Loaded->Via->getName(), "v");

  auto Switch = S.divergenceAt("sw", 1, Scope::Block);
  ASSERT_TRUE(Switch);
  EXPECT_EQ(Switch->Kind, DivergenceKind::Switch);
  EXPECT_FALSE(S.divergenceAt("sw", 2, Scope::Block));
}

TEST(DivergenceControl, TreeReductionStaysConvergentAtTheBarrier) {
  Snippet S(R"cu(
__global__ void reduce(float *out, const float *in) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  mark(1);
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) { s[tid] += s[tid + st]; mark(2); }
    mark(3);
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_FALSE(S.divergenceAt("reduce", 1, Scope::Block));
  EXPECT_TRUE(S.divergenceAt("reduce", 2, Scope::Block));
  EXPECT_FALSE(S.divergenceAt("reduce", 3, Scope::Block));
}

TEST(DivergenceControl, ScopesOfConditions) {
  Snippet S(R"cu(
__global__ void k(int n) {
  int warp = threadIdx.x / 32;
  if (warp == 0) mark(1);
  if (blockIdx.x % 2 == 0) mark(2);
  if (n > 3) mark(3);
  __shared__ int flag;
  if (threadIdx.x == 0) flag = n * 2;
  __syncthreads();
  if (flag) mark(4);
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  if (tile.meta_group_rank() == 0) mark(5);
  if (threadIdx.x == 0) { if (n > 1) mark(6); }
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_TRUE(S.divergenceAt("k", 1, Scope::Block));
  EXPECT_FALSE(S.divergenceAt("k", 1, Scope::Warp));
  EXPECT_FALSE(S.divergenceAt("k", 2, Scope::Block));
  auto Grid = S.divergenceAt("k", 2, Scope::Grid);
  ASSERT_TRUE(Grid);
  EXPECT_EQ(Grid->Origin.Kind, OriginKind::HardwareIndex);
  EXPECT_FALSE(S.divergenceAt("k", 3, Scope::Grid));
  EXPECT_FALSE(S.divergenceAt("k", 4, Scope::Block));
  EXPECT_TRUE(S.divergenceAt("k", 4, Scope::Grid));
  const FunctionDivergence &D = S.divergence("k");
  EXPECT_FALSE(D.divergenceWithinTile(S.mark("k", 5), 16));
  EXPECT_TRUE(D.divergenceWithinTile(S.mark("k", 5), 32));
  auto Nested = S.divergenceAt("k", 6, Scope::Block);
  ASSERT_TRUE(Nested) << "divergence of an enclosing branch carries in";
  EXPECT_EQ(S.text(Nested->Condition), "threadIdx.x == 0");
}

TEST(DivergenceControl, DivergenceSinceAPoint) {
  Snippet S(R"cu(
__global__ void k(int n) {
  int lane = threadIdx.x % 32;
  mark(1);
  if (lane < 8) { mark(2); mark(3); }
  if (lane < 4) return;
  mark(4);
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  const FunctionDivergence &D = S.divergence("k");
  auto Since = D.divergenceSince(S.mark("k", 1), S.mark("k", 2), Level::warp());
  ASSERT_TRUE(Since);
  EXPECT_EQ(S.text(Since->Condition), "lane < 8");
  EXPECT_FALSE(D.divergenceSince(S.mark("k", 2), S.mark("k", 3),
                                 Level::warp()));
  auto Exit = D.divergenceSince(S.mark("k", 1), S.mark("k", 4), Level::warp());
  ASSERT_TRUE(Exit);
  EXPECT_EQ(Exit->Kind, DivergenceKind::EarlyExit);
}

TEST(DivergenceControl, DeviceFunctionInputsAreSymbols) {
  Snippet S(R"cu(
__device__ void f(int k) {
  if (k < 4) mark(1);
}
__global__ void caller() { f(threadIdx.x); f(blockIdx.x); }
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  const FunctionDivergence &D = S.divergence("f");
  const CallExpr *Mark = S.mark("f", 1);
  EXPECT_FALSE(D.divergenceAt(Mark, Scope::Block))
      << "inputs read as uniform inside the function";
  EXPECT_TRUE(D.controlUniformity(Mark).dependsOnSymbols());
  auto Bound = D.divergenceAt(Mark, Level::block(), [](unsigned) {
    return Uniformity::varying({});
  });
  ASSERT_TRUE(Bound);
  ASSERT_NE(Bound->Via, nullptr);
  EXPECT_EQ(Bound->Via->getName(), "k");
}

//===----------------------------------------------------------------------===//
// Summaries
//===----------------------------------------------------------------------===//

TEST(CallSummaries, BarriersPropagateUpTheCallGraph) {
  Snippet S(R"cu(
__device__ void bar() { __syncthreads(); }
__device__ void outer() { bar(); }
__device__ void plain(int *p) { *p = 1; }
__device__ void gridWide() { cg::this_grid().sync(); }
__device__ void cond(int k) { if (k > 0) __syncthreads(); }
__global__ void k(int *p) {
  if (threadIdx.x < 4) outer();   // call 0 of outer
  outer();
  cond(threadIdx.x);
  cond(blockIdx.x);
  plain(p);
  gridWide();
}
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  AnalysisManager &M = S.manager();
  const CallSummary *Bar = M.summary(S.function("bar"));
  ASSERT_TRUE(Bar);
  EXPECT_EQ(Bar->requiredConvergence(), Scope::Block);
  const CallSummary *Outer = M.summary(S.function("outer"));
  ASSERT_TRUE(Outer);
  ASSERT_EQ(Outer->Barriers.size(), 1u);
  EXPECT_EQ(Outer->Barriers[0].Spelling, "__syncthreads()");
  EXPECT_EQ(Outer->Barriers[0].Function, S.function("bar"));
  EXPECT_FALSE(M.summary(S.function("plain"))->requiredConvergence());
  EXPECT_EQ(M.summary(S.function("gridWide"))->requiredConvergence(),
            Scope::Grid);

  const FunctionDivergence &K = S.divergence("k");
  std::vector<const CallExpr *> OuterCalls = S.callsOf("k", "outer");
  ASSERT_EQ(OuterCalls.size(), 2u);
  auto Under = callSiteDivergence(K, OuterCalls[0], *Outer, M);
  ASSERT_TRUE(Under);
  EXPECT_EQ(Under->Reason.Kind, DivergenceKind::Branch);
  EXPECT_FALSE(callSiteDivergence(K, OuterCalls[1], *Outer, M));

  const CallSummary *Cond = M.summary(S.function("cond"));
  std::vector<const CallExpr *> CondCalls = S.callsOf("k", "cond");
  ASSERT_EQ(CondCalls.size(), 2u);
  auto Via = callSiteDivergence(K, CondCalls[0], *Cond, M);
  ASSERT_TRUE(Via);
  EXPECT_EQ(Via->Reason.Kind, DivergenceKind::ViaCall);
  EXPECT_EQ(S.text(Via->Reason.Condition), "k > 0");
  EXPECT_EQ(S.text(Via->Argument), "threadIdx.x");
  EXPECT_FALSE(callSiteDivergence(K, CondCalls[1], *Cond, M));
}

TEST(CallSummaries, RecursionIsConservativeAndTerminates) {
  Snippet S(R"cu(
__device__ int ping(int n);
__device__ int pong(int n) { return n > 0 ? ping(n - 1) : 0; }
__device__ int ping(int n) { __syncthreads(); return n > 0 ? pong(n - 1) : 1; }
__global__ void k(int n) { probe(ping(n)); }
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("k", 0).scope(), Scope::Thread);
  const CallSummary *Ping = S.manager().summary(S.function("ping"));
  ASSERT_TRUE(Ping);
  EXPECT_EQ(Ping->requiredConvergence(), Scope::Block);
}

TEST(AnalysisManager, CachesPerFunctionAndPerContext) {
  Snippet S(R"cu(
__global__ void k() { probe(threadIdx.x); }
)cu");
  ASSERT_TRUE(S.parsedCleanly());
  const FunctionDecl *K = S.function("k");
  EXPECT_EQ(S.manager().divergence(K), S.manager().divergence(K));
  AnalysisManager &A = AnalysisManager::forContext(S.context(), {});
  AnalysisManager &B = AnalysisManager::forContext(S.context(), {});
  EXPECT_EQ(&A, &B);
  AnalysisOptions Rows;
  Rows.AssumeBlockDimXMultipleOf32 = true;
  EXPECT_NE(&AnalysisManager::forContext(S.context(), Rows), &A);
  EXPECT_EQ(A.divergence(K), A.divergence(K));
}

TEST(AnalysisManager, LargeFunctionsStayTractable) {
  // 400 sequential divergent ifs, each assigning the same variable, and 40
  // nested ones: paths are 2^400, blocks a few thousand.
  std::string Code = "__global__ void big(const int *d) {\n  int x = 0;\n";
  for (int I = 0; I < 400; ++I)
    Code += "  if (d[threadIdx.x] > " + std::to_string(I) + ") x += " +
            std::to_string(I) + ";\n";
  for (int I = 0; I < 40; ++I)
    Code += "  if (threadIdx.x != " + std::to_string(I) + ") {\n";
  Code += "  mark(1);\n";
  for (int I = 0; I < 40; ++I)
    Code += "  }\n";
  Code += "  probe(x);\n}\n";
  Snippet S(Code);
  ASSERT_TRUE(S.parsedCleanly());
  EXPECT_EQ(S.probe("big", 0).scope(), Scope::Thread);
  auto R = S.divergenceAt("big", 1, Scope::Block);
  ASSERT_TRUE(R);
  EXPECT_EQ(S.text(R->Condition), "threadIdx.x != 39") << "innermost first";
}

} // namespace
} // namespace clang::tidy::cuda::analysis
