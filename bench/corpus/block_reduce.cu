// Block-wide reduction in the style of cub::BlockReduce: a template class
// whose TempStorage lives in shared memory, warp shuffles first, then one
// warp reduces the warp partials.
#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

template <typename T, int BLOCK_THREADS> class BlockReduce {
public:
  static constexpr int WARPS = (BLOCK_THREADS + 31) / 32;
  struct TempStorage {
    T WarpAggregates[WARPS];
  };

  __device__ explicit BlockReduce(TempStorage &Storage)
      : Storage(Storage), Lane(threadIdx.x % 32), Warp(threadIdx.x / 32) {}

  template <typename Op> __device__ T Reduce(T Input, Op ReductionOp) {
    T Partial = WarpReduce(Input, ReductionOp);
    if (Lane == 0)
      Storage.WarpAggregates[Warp] = Partial;
    __syncthreads();
    T Aggregate = Partial;
    if (Warp == 0) {
      Aggregate = Lane < WARPS ? Storage.WarpAggregates[Lane] : T();
      Aggregate = WarpReduce(Aggregate, ReductionOp);
    }
    return Aggregate;
  }

  __device__ T Sum(T Input) {
    return Reduce(Input, [](T A, T B) { return A + B; });
  }

private:
  template <typename Op> __device__ T WarpReduce(T Value, Op ReductionOp) {
#pragma unroll
    for (int Offset = 16; Offset > 0; Offset /= 2)
      Value = ReductionOp(Value, __shfl_down_sync(0xffffffffu, Value, Offset));
    return Value;
  }

  TempStorage &Storage;
  unsigned Lane;
  unsigned Warp;
};

template <int BLOCK_THREADS>
__global__ void sumKernel(const float *__restrict__ In, float *__restrict__ Out,
                          int N) {
  using Reduce = BlockReduce<float, BLOCK_THREADS>;
  __shared__ typename Reduce::TempStorage Storage;
  float Thread = 0.0f;
  for (int I = blockIdx.x * BLOCK_THREADS + threadIdx.x; I < N;
       I += gridDim.x * BLOCK_THREADS)
    Thread += In[I];
  float Block = Reduce(Storage).Sum(Thread);
  if (threadIdx.x == 0)
    atomicAdd(Out, Block);
}

template <int BLOCK_THREADS>
__global__ void maxKernel(const int32_t *In, int32_t *Out, int N) {
  using Reduce = BlockReduce<int32_t, BLOCK_THREADS>;
  __shared__ typename Reduce::TempStorage Storage;
  int I = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  int32_t Value = I < N ? In[I] : INT32_MIN;
  int32_t Block = Reduce(Storage).Reduce(
      Value, [](int32_t A, int32_t B) { return A > B ? A : B; });
  if (threadIdx.x == 0)
    atomicMax(Out, Block);
}

void launchSum(const float *In, float *Out, int N, cudaStream_t Stream) {
  int Blocks = (N + 255) / 256;
  if (Blocks > 1024)
    Blocks = 1024;
  sumKernel<256><<<Blocks, 256, 0, Stream>>>(In, Out, N);
  maxKernel<128><<<(N + 127) / 128, 128, 0, Stream>>>(
      reinterpret_cast<const int32_t *>(In), reinterpret_cast<int32_t *>(Out),
      N);
}
