// The seeds' reference reductions, our own versions, each checked against a
// CPU double reference. One process per reduction: `reductions tree|shuffle|
// cg|tile`.
//
//   tree    - shared-memory tree reduction, barrier after every step
//   shuffle - warp-shuffle reduction (hand-written __shfl_down_sync loop),
//             then the first warp adds the warps' sums
//   cg      - cg::reduce over warp tiles, then over the tiles' sums
//   tile    - one cg::reduce per 32-thread tile (no block step)
//
// Inputs are small integers, so every block and tile sum is exact in float and
// the comparison with the CPU reference is exact.
#include "../cases/rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstring>
#include <vector>
namespace cg = cooperative_groups;

constexpr int kThreads = 256;

__global__ void reduceTree(const float *In, float *Out, int N) {
  __shared__ float Partial[kThreads];
  const int T = threadIdx.x;
  const int I = blockIdx.x * blockDim.x + T;
  Partial[T] = I < N ? In[I] : 0.0f;
  __syncthreads();
  for (int S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Partial[T] += Partial[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Partial[0];
}

// Sum over the 32 lanes of a converged warp; the result is in lane 0.
__device__ float warpReduceSum(float V) {
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    V += __shfl_down_sync(0xffffffff, V, Offset); // FLAGGED(cuda-prefer-tile-collectives)
  return V;
}

__global__ void reduceShuffle(const float *In, float *Out, int N) {
  __shared__ float WarpSums[32];
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = I < N ? In[I] : 0.0f;
  V = warpReduceSum(V);
  const int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  if (Lane == 0)
    WarpSums[Warp] = V;
  __syncthreads();
  const int Warps = blockDim.x / 32;
  V = threadIdx.x < Warps ? WarpSums[Lane] : 0.0f;
  if (Warp == 0)
    V = warpReduceSum(V);
  if (threadIdx.x == 0)
    Out[blockIdx.x] = V;
}

__global__ void reduceCG(const float *In, float *Out, int N) {
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  __shared__ float WarpSums[32];
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = I < N ? In[I] : 0.0f;
  V = cg::reduce(Warp, V, cg::plus<float>());
  if (Warp.thread_rank() == 0)
    WarpSums[Warp.meta_group_rank()] = V;
  Block.sync();
  if (Warp.meta_group_rank() == 0) {
    V = Warp.thread_rank() < Warp.meta_group_size()
            ? WarpSums[Warp.thread_rank()]
            : 0.0f;
    V = cg::reduce(Warp, V, cg::plus<float>());
    if (Warp.thread_rank() == 0)
      Out[blockIdx.x] = V;
  }
}

__device__ float tileReduceSum(float V) {
  auto Block = cg::this_thread_block();
  auto Tile = cg::tiled_partition<32>(Block);
  return cg::reduce(Tile, V, cg::plus<float>());
}

__global__ void reduceTiles(const float *In, float *Out, int N) {
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const float S = tileReduceSum(I < N ? In[I] : 0.0f);
  if (threadIdx.x % 32 == 0)
    Out[I / 32] = S;
}

int main(int Argc, char **Argv) {
  const char *Which = Argc > 1 ? Argv[1] : "";
  const int N = (1 << 16) + 77;
  const int Blocks = (N + kThreads - 1) / kThreads;
  const bool PerTile = !std::strcmp(Which, "tile");
  const int Chunk = PerTile ? 32 : kThreads;
  const int Outs = PerTile ? Blocks * kThreads / 32 : Blocks;
  std::vector<float> In(N), Out(Outs);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>((I * 7) % 13);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Outs * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  if (!std::strcmp(Which, "tree"))
    reduceTree<<<Blocks, kThreads>>>(DIn, DOut, N);
  else if (!std::strcmp(Which, "shuffle"))
    reduceShuffle<<<Blocks, kThreads>>>(DIn, DOut, N);
  else if (!std::strcmp(Which, "cg"))
    reduceCG<<<Blocks, kThreads>>>(DIn, DOut, N);
  else if (PerTile)
    reduceTiles<<<Blocks, kThreads>>>(DIn, DOut, N);
  else {
    std::printf("usage: reductions tree|shuffle|cg|tile\n");
    return 2;
  }
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Outs * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  double Total = 0, RefTotal = 0;
  for (int K = 0; K < Outs; ++K) {
    double Ref = 0;
    for (int I = K * Chunk; I < N && I < (K + 1) * Chunk; ++I)
      Ref += In[I];
    Wrong += Out[K] != Ref;
    Total += Out[K];
    RefTotal += Ref;
  }
  rv::measure("sum", "%.1f", Total);
  rv::measure("reference", "%.1f", RefTotal);
  rv::detail("%s: %d of %d partial sums differ from the CPU reference; total "
             "%.1f vs %.1f",
             Which, Wrong, Outs, Total, RefTotal);
  rv::finish(Wrong == 0 && Total == RefTotal);
}
