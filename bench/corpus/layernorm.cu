// LayerNorm forward with Welford's online mean/variance merged across a
// warp and then across the block.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

struct Welford {
  float Mean, M2, Count;
  __device__ static Welford empty() { return {0.0f, 0.0f, 0.0f}; }
  __device__ void add(float X) {
    Count += 1.0f;
    float Delta = X - Mean;
    Mean += Delta / Count;
    M2 += Delta * (X - Mean);
  }
  __device__ static Welford merge(const Welford &A, const Welford &B) {
    Welford R = empty();
    R.Count = A.Count + B.Count;
    if (R.Count == 0.0f)
      return R;
    float Delta = B.Mean - A.Mean;
    R.Mean = A.Mean + Delta * B.Count / R.Count;
    R.M2 = A.M2 + B.M2 + Delta * Delta * A.Count * B.Count / R.Count;
    return R;
  }
};

__device__ Welford warpMerge(const cg::thread_block_tile<32> &Warp, Welford W) {
  for (int Offset = 16; Offset > 0; Offset /= 2) {
    Welford Other = Welford::empty();
    Other.Mean = Warp.shfl_down(W.Mean, Offset);
    Other.M2 = Warp.shfl_down(W.M2, Offset);
    Other.Count = Warp.shfl_down(W.Count, Offset);
    W = Welford::merge(W, Other);
  }
  return W;
}

__global__ void layerNorm(const float *X, const float *Gamma, const float *Beta,
                          float *Y, int Cols, float Epsilon) {
  __shared__ Welford Partials[32];
  __shared__ float Stats[2];
  cg::thread_block Block = cg::this_thread_block();
  cg::thread_block_tile<32> Warp = cg::tiled_partition<32>(Block);
  const float *Row = X + blockIdx.x * Cols;
  Welford W = Welford::empty();
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    W.add(Row[C]);
  W = warpMerge(Warp, W);
  if (Warp.thread_rank() == 0)
    Partials[Warp.meta_group_rank()] = W;
  Block.sync();
  if (Warp.meta_group_rank() == 0) {
    Welford Mine = Warp.thread_rank() < Warp.meta_group_size()
                       ? Partials[Warp.thread_rank()]
                       : Welford::empty();
    Mine = warpMerge(Warp, Mine);
    if (Warp.thread_rank() == 0) {
      Stats[0] = Mine.Mean;
      Stats[1] = rsqrtf(Mine.M2 / Mine.Count + Epsilon);
    }
  }
  Block.sync();
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Y[blockIdx.x * Cols + C] = (Row[C] - Stats[0]) * Stats[1] * Gamma[C] + Beta[C];
}
