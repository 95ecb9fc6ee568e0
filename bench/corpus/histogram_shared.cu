// Per-block privatized histogram in shared memory, merged into global
// memory with atomics.
#include <cuda_runtime.h>
#include <cstdint>

template <int BINS>
__global__ void histogram(const uint8_t *__restrict__ Data, size_t N,
                          unsigned *__restrict__ Global) {
  __shared__ unsigned Local[BINS];
  for (int Bin = threadIdx.x; Bin < BINS; Bin += blockDim.x)
    Local[Bin] = 0;
  __syncthreads();
  const size_t Stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t I = blockIdx.x * blockDim.x + threadIdx.x; I < N; I += Stride)
    atomicAdd(&Local[Data[I] % BINS], 1u);
  __syncthreads();
  for (int Bin = threadIdx.x; Bin < BINS; Bin += blockDim.x)
    if (Local[Bin])
      atomicAdd(&Global[Bin], Local[Bin]);
}

// Warp-aggregated increments for skewed data: the lanes that hit the same
// bin elect a leader.
__device__ void aggregatedIncrement(unsigned *Bins, unsigned Bin) {
  unsigned Active = __activemask();
  unsigned Peers = __match_any_sync(Active, Bin);
  int Leader = __ffs(Peers) - 1;
  if ((threadIdx.x & 31) == Leader)
    atomicAdd(&Bins[Bin], __popc(Peers));
}

__global__ void skewedHistogram(const unsigned *Keys, size_t N, unsigned *Bins,
                                unsigned BinCount) {
  size_t I = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (I < N)
    aggregatedIncrement(Bins, Keys[I] % BinCount);
}

void buildHistogram(const uint8_t *Data, size_t N, unsigned *Bins,
                    cudaStream_t Stream) {
  int Device = 0, Sms = 0;
  cudaGetDevice(&Device);
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Device);
  cudaMemsetAsync(Bins, 0, 256 * sizeof(unsigned), Stream);
  histogram<256><<<Sms * 4, 512, 0, Stream>>>(Data, N, Bins);
}
