// Segmented reduction: one block per segment, offsets from a CSR-style
// array; empty segments produce the identity.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <int BLOCK_THREADS>
__global__ void segmentSums(const float *Values, const int *Offsets,
                            float *Sums) {
  __shared__ float WarpSums[BLOCK_THREADS / 32];
  cg::thread_block Block = cg::this_thread_block();
  auto Warp = cg::tiled_partition<32>(Block);
  const int Begin = Offsets[blockIdx.x], End = Offsets[blockIdx.x + 1];
  float Local = 0.0f;
  for (int I = Begin + threadIdx.x; I < End; I += BLOCK_THREADS)
    Local += Values[I];
  Local = cg::reduce(Warp, Local, cg::plus<float>());
  if (Warp.thread_rank() == 0)
    WarpSums[Warp.meta_group_rank()] = Local;
  Block.sync();
  if (threadIdx.x < 32) {
    float V = threadIdx.x < BLOCK_THREADS / 32 ? WarpSums[threadIdx.x] : 0.0f;
    V = cg::reduce(Warp, V, cg::plus<float>());
    if (threadIdx.x == 0)
      Sums[blockIdx.x] = V;
  }
}

// Empty segments skip the block: the whole block leaves together, the
// barrier is never reached by part of it.
template <int BLOCK_THREADS>
__global__ void segmentMeans(const float *Values, const int *Offsets,
                             float *Means) {
  __shared__ float Partial[BLOCK_THREADS];
  const int Begin = Offsets[blockIdx.x], End = Offsets[blockIdx.x + 1];
  if (Begin == End) {
    if (threadIdx.x == 0)
      Means[blockIdx.x] = 0.0f;
    return;
  }
  float Local = 0.0f;
  for (int I = Begin + threadIdx.x; I < End; I += BLOCK_THREADS)
    Local += Values[I];
  Partial[threadIdx.x] = Local;
  __syncthreads();
  for (int S = BLOCK_THREADS / 2; S > 0; S >>= 1) {
    if (threadIdx.x < S)
      Partial[threadIdx.x] += Partial[threadIdx.x + S];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Means[blockIdx.x] = Partial[0] / float(End - Begin);
}

void reduceSegments(const float *V, const int *Offsets, float *Sums,
                    float *Means, int Segments) {
  segmentSums<256><<<Segments, 256>>>(V, Offsets, Sums);
  segmentMeans<256><<<Segments, 256>>>(V, Offsets, Means);
}
