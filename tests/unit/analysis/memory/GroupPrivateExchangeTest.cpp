//===--- GroupPrivateExchangeTest.cpp - exchanges inside groups of threads -===//
//
// groupPrivateExchange answers whether every exit before a barrier leaves
// by whole groups of W threads (threadIdx.x / W) and every __shared__ access
// stays in the accessing thread's group, and which exit bounds keep groups
// whole only as multiples of W. Shapes of our own, after the classes met in
// real code (docs/accuracy.md, "The ninth measurement").
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/GroupPrivateExchange.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/Expr.h"

namespace clang::tidy::cuda::analysis {
namespace {

/// The answer for the last __syncthreads() call of kernel \p Name.
std::optional<GroupPrivateExchange> groupsOf(ParsedCuda &P,
                                             llvm::StringRef Name) {
  const FunctionDecl *F = P.function(Name);
  if (!F) {
    ADD_FAILURE() << "no kernel " << Name.str();
    return std::nullopt;
  }
  std::vector<const CallExpr *> Barriers = P.callsOf(F, "__syncthreads");
  const Stmt *Barrier = Barriers.empty() ? nullptr : Barriers.back();
  if (!Barrier) {
    ADD_FAILURE() << "no barrier in " << Name.str();
    return std::nullopt;
  }
  return groupPrivateExchange(F, Barrier, P.context());
}

TEST(GroupPrivateExchange, RowsOfAGroupAndExitsOfWholeGroups) {
  ParsedCuda P(R"cu(
// One group of `points` threads per item, four items per block; the item's
// row of each array is the group's.
__global__ void rows(int items, int points, const float *in, float *out) {
  const int per_item = points;
  int item = blockIdx.x * 4 + threadIdx.x / per_item;
  int point = threadIdx.x % per_item;
  if (point >= points) return;
  if (item >= items) return;
  __shared__ float tile[4][64];
  __shared__ int count[4];
  int g = threadIdx.x / per_item;
  if (point == 0) count[g] = 0;
  tile[g][point] = in[item * points + point];
  __syncthreads();
  float sum = 0;
  for (int k = 0; k < count[g]; ++k) sum += tile[g][k];
  out[item] = sum;
}
// A flat buffer: each thread writes its own element and reads its group's
// W elements; the block's tail past the last whole group leaves, and so do
// the threads past `size`.
__global__ void flat(const long *in, long *out, int size) {
  extern __shared__ long buf[];
  int w = 5;
  int per_block = blockDim.x / w * w;
  const unsigned idx = per_block * blockIdx.x + threadIdx.x;
  if (threadIdx.x >= per_block) return;
  if (idx >= size) return;
  int start = (threadIdx.x / w) * w;
  buf[threadIdx.x] = in[idx];
  __syncthreads();
  long r = 0;
  int j;
  for (j = 0; j < w; j++) r ^= buf[start + j];
  out[idx] = r;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  auto G = groupsOf(P, "rows");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Width, "per_item");
  EXPECT_TRUE(G->Preconditions.empty());
  G = groupsOf(P, "flat");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Width, "w");
  // idx >= size keeps groups whole only for a size that is a multiple of w.
  ASSERT_EQ(G->Preconditions.size(), 1u);
  EXPECT_EQ(G->Preconditions[0].Bound, "size");
}

TEST(GroupPrivateExchange, ConstantWidthsAndMultiplesNeedNoFact) {
  ParsedCuda P(R"cu(
__global__ void powerOfTwo(const float *in, float *out, int groups) {
  __shared__ float s[256];
  if ((blockIdx.x * blockDim.x + threadIdx.x) / 8 >= groups) return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x >> 3) * 8 + threadIdx.x % 8];
}
__global__ void multiple(const float *in, float *out, int n) {
  __shared__ float s[256];
  const int base = blockIdx.x * 64;
  if (base + threadIdx.x >= n * 16) return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 16 * 16 + threadIdx.x % 16];
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  // The first exit tests a global thread index divided by 8: a group of 8
  // threads of a block shares it only when the block's start is a multiple
  // of 8, which the tool does not know; no answer.
  EXPECT_FALSE(groupsOf(P, "powerOfTwo"));
  auto G = groupsOf(P, "multiple");
  ASSERT_TRUE(G);
  EXPECT_EQ(G->Width, "16");
  EXPECT_TRUE(G->Preconditions.empty());
}

TEST(GroupPrivateExchange, NoAnswerWhenAnythingCrossesAGroup) {
  ParsedCuda P(R"cu(
// A neighbour's element: the last thread of a group reads the next group's.
__global__ void neighbour(const float *in, float *out, int items) {
  __shared__ float s[256];
  if (blockIdx.x * 8 + threadIdx.x / 32 >= items) return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}
// An exit on the thread's place in its group splits every group.
__global__ void place(const float *in, float *out, int n) {
  __shared__ float s[8][32];
  int lane = threadIdx.x % 32;
  if (lane >= n) return;
  s[threadIdx.x / 32][lane] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 32][31 - lane];
}
// Two ways of indexing one array.
__global__ void mixed(const float *in, float *out, int items) {
  __shared__ float s[256];
  if (blockIdx.x * 8 + threadIdx.x / 32 >= items) return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 32];
}
// A loop counter that runs past the group.
__global__ void longLoop(const float *in, float *out, int items) {
  __shared__ float s[256];
  if (blockIdx.x * 8 + threadIdx.x / 32 >= items) return;
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float r = 0;
  for (int j = 0; j < 33; ++j) r += s[threadIdx.x / 32 * 32 + j];
  out[threadIdx.x] = r;
}
// A condition read from __shared__ memory, and a call.
__device__ int pick(int);
__global__ void sharedFlag(const float *in, float *out, int items) {
  __shared__ float s[8][32];
  __shared__ int flag;
  if (flag) return;
  s[threadIdx.x / 32][threadIdx.x % 32] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 32][0];
}
__global__ void called(const float *in, float *out, int items) {
  __shared__ float s[8][32];
  if (pick(threadIdx.x / 32) >= items) return;
  s[threadIdx.x / 32][threadIdx.x % 32] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 32][0];
}
// A return inside a loop.
__global__ void inLoop(const float *in, float *out, int items) {
  __shared__ float s[8][32];
  for (int i = 0; i < 2; ++i)
    if (blockIdx.x * 8 + threadIdx.x / 32 >= items) return;
  s[threadIdx.x / 32][threadIdx.x % 32] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 32][0];
}
// A callee of the project's own, after the exit: its reduction over the
// block reads what exited threads never wrote.
__device__ float reduceBlock(float v) {
  __shared__ float partial[256];
  partial[threadIdx.x] = v;
  __syncthreads();
  return partial[(threadIdx.x + 128) % 256];
}
__global__ void callsReduction(const float *in, float *out, int items) {
  __shared__ float s[8][32];
  if (blockIdx.x * 8 + threadIdx.x / 32 >= items) return;
  s[threadIdx.x / 32][threadIdx.x % 32] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = reduceBlock(s[threadIdx.x / 32][0]);
}
// threadIdx.y: a 2-D block's groups are not threadIdx.x / W.
__global__ void rowsOf2D(const float *in, float *out, int items) {
  __shared__ float s[8][32];
  if (threadIdx.y >= items) return;
  s[threadIdx.x / 32][threadIdx.x % 32] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x / 32][0];
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  for (const char *Name :
       {"neighbour", "place", "mixed", "longLoop", "sharedFlag", "called",
        "inLoop", "callsReduction", "rowsOf2D"})
    EXPECT_FALSE(groupsOf(P, Name)) << Name;
}

} // namespace
} // namespace clang::tidy::cuda::analysis
