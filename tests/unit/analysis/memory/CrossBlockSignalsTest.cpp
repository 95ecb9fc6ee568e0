//===--- CrossBlockSignalsTest.cpp - data handed to other blocks ----------===//
//
// The facts cuda-missing-fence reports (CrossBlockSignals.h): which atomics
// and stores are signals (and which are accumulators), their orders and
// scopes, the fences and waits, and the two findings: a signal with stores
// before it and no fence (or no barrier for other threads' stores), and a
// read after a wait with no fence.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/memory/CrossBlockSignals.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Decl.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

namespace clang::tidy::cuda::analysis {
namespace {

struct Found {
  ParsedCuda P;
  AnalysisManager Manager;
  std::unique_ptr<CrossBlockSignalAnalysis> A;
  Found(llvm::StringRef Code, llvm::StringRef Kernel)
      : P(("#include <cuda/atomic>\n#include <cooperative_groups.h>\n" +
           Code)
              .str()),
        Manager(P.context(), AnalysisOptions()) {
    if (const FunctionDecl *K = P.function(Kernel))
      A = std::make_unique<CrossBlockSignalAnalysis>(K, P.context(), Manager);
  }
};

constexpr const char *LastBlock = R"cu(
__device__ unsigned count = 0;
__global__ void k(float *partial, float *out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    FENCE_W
    unsigned t = atomicInc(&count, gridDim.x);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    FENCE_R
    out[0] = partial[0] + partial[1];
  }
}
)cu";

std::string lastBlock(bool FenceW, bool FenceR) {
  std::string S = LastBlock;
  auto Put = [&](const std::string &Key, bool On) {
    S.replace(S.find(Key), Key.size(), On ? "__threadfence();" : "");
  };
  Put("FENCE_W", FenceW);
  Put("FENCE_R", FenceR);
  return S;
}

TEST(CrossBlockSignals, TicketIsASignalWithItsStoreAndReader) {
  Found X(lastBlock(false, false), "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_TRUE(X.A);
  ASSERT_EQ(X.A->signals().size(), 1u);
  const CrossBlockSignal &S = X.A->signals()[0];
  EXPECT_EQ(S.K, CrossBlockSignal::Atomic);
  EXPECT_EQ(S.Name, "atomicInc");
  EXPECT_EQ(S.Base->getName(), "count");
  EXPECT_EQ(S.Order, MemoryOrder::Relaxed);
  EXPECT_EQ(S.Scope, ThreadScope::Device);
  EXPECT_FALSE(S.releases());
  ASSERT_EQ(X.A->stores().size(), 2u) << "the partial and the result";
  std::set<std::string> Bases;
  for (const GlobalStore &St : X.A->stores())
    Bases.insert(St.Base->getNameAsString());
  EXPECT_EQ(Bases, (std::set<std::string>{"partial", "out"}));
  // `last && threadIdx.x == 0`: the CFG branches on `last` and on the `&&`.
  ASSERT_FALSE(X.A->waits().empty());
  for (const SignalWait &W : X.A->waits())
    EXPECT_EQ(W.Signal, 0);
  ASSERT_EQ(X.A->unfencedReleases().size(), 1u);
  const UnfencedRelease &U = X.A->unfencedReleases()[0];
  EXPECT_TRUE(U.MissingFence);
  EXPECT_FALSE(U.MissingBarrier) << "thread 0 stores and signals";
  ASSERT_GE(U.Reader, 0);
  EXPECT_EQ(X.A->reads()[U.Reader].Base->getName(), "partial");
  EXPECT_EQ(X.A->unacquiredReads().size(), 2u) << "partial[0], partial[1]";
  EXPECT_NE(X.A->fenceInsertionPoint(0), nullptr);
}

TEST(CrossBlockSignals, FencesOnBothSidesAreQuiet) {
  Found X(lastBlock(true, true), "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_EQ(X.A->fences().size(), 2u);
  EXPECT_TRUE(X.A->unfencedReleases().empty());
  EXPECT_TRUE(X.A->unacquiredReads().empty());
}

TEST(CrossBlockSignals, EachSideAlone) {
  Found W(lastBlock(true, false), "k");
  EXPECT_TRUE(W.A->unfencedReleases().empty());
  EXPECT_EQ(W.A->unacquiredReads().size(), 2u);
  Found R(lastBlock(false, true), "k");
  EXPECT_EQ(R.A->unfencedReleases().size(), 1u);
  EXPECT_TRUE(R.A->unacquiredReads().empty());
}

TEST(CrossBlockSignals, OtherThreadsStoresNeedABarrier) {
  std::string Code = R"cu(
__global__ void k(float *partial, unsigned *counter, float *out) {
  partial[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    if (atomicAdd(counter, 1u) == gridDim.x - 1) {
      __threadfence();
      out[0] = partial[0];
    }
  }
}
)cu";
  Found With(Code, "k");
  ASSERT_TRUE(With.P.parsedCleanly());
  EXPECT_TRUE(With.A->unfencedReleases().empty());
  Code.replace(Code.find("__syncthreads();"), 16, "");
  Found Without(Code, "k");
  ASSERT_EQ(Without.A->unfencedReleases().size(), 1u);
  EXPECT_TRUE(Without.A->unfencedReleases()[0].MissingBarrier);
  EXPECT_FALSE(Without.A->unfencedReleases()[0].MissingFence);
}

TEST(CrossBlockSignals, AtomicRefOrdersAndScopes) {
  Found X(R"cu(
__global__ void k(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 7;
      ready.store(1, cuda::std::memory_order_release);
    }
  } else if (threadIdx.x == 0) {
    while (ready.load(cuda::std::memory_order_acquire) == 0) {
    }
    out[0] = data[0];
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.A->signals().size(), 1u);
  const CrossBlockSignal &S = X.A->signals()[0];
  EXPECT_EQ(S.K, CrossBlockSignal::AtomicRef);
  EXPECT_EQ(S.Name, "store");
  EXPECT_EQ(S.Base->getName(), "flag");
  EXPECT_EQ(S.Order, MemoryOrder::Release);
  EXPECT_EQ(S.Scope, ThreadScope::Device);
  EXPECT_TRUE(S.releases());
  ASSERT_EQ(X.A->waits().size(), 1u);
  EXPECT_TRUE(X.A->waits()[0].Acquires);
  EXPECT_TRUE(X.A->unfencedReleases().empty());
  EXPECT_TRUE(X.A->unacquiredReads().empty());
}

TEST(CrossBlockSignals, BlockScopeAtomicRefIsNoSignal) {
  Found X(R"cu(
__global__ void k(int *data, int *count, int *out) {
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 1;
    cuda::atomic_ref<int, cuda::thread_scope_block> t(*count);
    if (t.fetch_add(1, cuda::std::memory_order_relaxed) == 7)
      out[0] = data[0];
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.A->signals().empty());
  EXPECT_TRUE(X.A->unfencedReleases().empty());
}

TEST(CrossBlockSignals, HistogramAtomicsAreNoSignals) {
  Found X(R"cu(
__global__ void k(const int *keys, unsigned *bins, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = keys[i];
    atomicAdd(&bins[keys[i] & 255], 1u);
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_TRUE(X.A->signals().empty());
  EXPECT_TRUE(X.A->waits().empty());
}

TEST(CrossBlockSignals, VolatileFlagAndSpin) {
  Found X(R"cu(
__global__ void k(float *data, volatile int *flag, float *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
      *flag = 1;
  } else {
    if (threadIdx.x == 0)
      while (*flag == 0) {
      }
    __syncthreads();
    out[threadIdx.x] = data[threadIdx.x];
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.A->signals().size(), 1u);
  EXPECT_EQ(X.A->signals()[0].K, CrossBlockSignal::FlagStore);
  EXPECT_EQ(X.A->signals()[0].Name, "volatile store");
  ASSERT_EQ(X.A->waits().size(), 1u);
  EXPECT_EQ(X.A->waits()[0].Signal, -1) << "a spin on the flag's value";
  EXPECT_EQ(X.A->waits()[0].Base->getName(), "flag");
  ASSERT_EQ(X.A->unfencedReleases().size(), 1u);
  EXPECT_TRUE(X.A->unfencedReleases()[0].MissingFence);
  EXPECT_FALSE(X.A->unfencedReleases()[0].MissingBarrier);
  ASSERT_EQ(X.A->unacquiredReads().size(), 1u);
  // The unbraced `if` body: no single place for a second statement.
  EXPECT_EQ(X.A->fenceInsertionPoint(0), nullptr);
}

TEST(CrossBlockSignals, GridSyncIsFenceAndBarrier) {
  Found X(R"cu(
__global__ void k(float *partial, unsigned *count, float *out) {
  partial[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  cooperative_groups::this_grid().sync();
  if (threadIdx.x == 0 && atomicAdd(count, 1u) == gridDim.x - 1)
    out[0] = partial[0];
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_EQ(X.A->fences().size(), 1u);
  EXPECT_TRUE(X.A->unfencedReleases().empty());
}

TEST(CrossBlockSignals, FenceInHelperAndAsm) {
  Found X(R"cu(
__device__ void fence() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
__global__ void k(float *partial, unsigned *count, float *out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    fence();
    if (atomicInc(count, gridDim.x) == gridDim.x - 1) {
      asm volatile("membar.gl;" ::: "memory");
      out[0] = partial[0];
    }
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  EXPECT_EQ(X.A->fences().size(), 2u);
  EXPECT_TRUE(X.A->unfencedReleases().empty());
  EXPECT_TRUE(X.A->unacquiredReads().empty());
}

TEST(CrossBlockSignals, SpinOnlyAtomicIsAWaitNotASignal) {
  Found X(R"cu(
__global__ void k(float *total, int *lock, const float *in) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    total[0] = total[0] + in[blockIdx.x];
    atomicExch(lock, 0);
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.A->signals().size(), 1u);
  EXPECT_EQ(X.A->signals()[0].Name, "atomicExch");
  ASSERT_EQ(X.A->unfencedReleases().size(), 1u) << "the unlock is relaxed";
  EXPECT_TRUE(X.A->unacquiredReads().empty());
}


TEST(CrossBlockSignals, CasRetryAndWorkCounterAreNoWaits) {
  Found Retry(R"cu(
__global__ void k(volatile int *parent, int *queue, int *tail, const int *n) {
  int node = n[threadIdx.x];
  int val;
  do {
    val = parent[node];
  } while (val < 0 && atomicCAS((int *)&parent[node], val, 1) != val);
  if (val < 0)
    queue[atomicAdd(tail, 1)] = node;
}
)cu",
              "k");
  ASSERT_TRUE(Retry.P.parsedCleanly());
  EXPECT_TRUE(Retry.A->waits().empty()) << "the CAS's expected value varies";
  Found Work(R"cu(
__global__ void k(float *rows, int *next, int end) {
  __shared__ int ind;
  if (threadIdx.x == 0)
    ind = atomicAdd(next, 1);
  __syncthreads();
  while (ind < end) {
    rows[ind * blockDim.x + threadIdx.x] += 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
      ind = atomicAdd(next, 1);
    __syncthreads();
  }
}
)cu",
             "k");
  ASSERT_TRUE(Work.P.parsedCleanly());
  EXPECT_TRUE(Work.A->waits().empty()) << "a bound on a work counter";
  EXPECT_TRUE(Work.A->signals().empty());
}

TEST(CrossBlockSignals, StoresBeforeALockAreNotItsRelease) {
  Found X(R"cu(
__global__ void k(float *before, float *total, int *lock) {
  before[blockIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    total[0] += before[blockIdx.x];
    atomicExch(lock, 0);
  }
}
)cu",
          "k");
  ASSERT_TRUE(X.P.parsedCleanly());
  ASSERT_EQ(X.A->unfencedReleases().size(), 1u);
  EXPECT_EQ(X.A->stores()[X.A->unfencedReleases()[0].Store].Base->getName(),
            "total")
      << "the critical section's store, not the one before the lock";
}

} // namespace
} // namespace clang::tidy::cuda::analysis
