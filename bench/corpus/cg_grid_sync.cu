// A persistent kernel that synchronizes the whole grid between phases, and
// its launches: a cooperative one, and a plain <<<>>> one that is a bug.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void persistentJacobi(float *U, float *V, int N, int Iterations) {
  cg::grid_group Grid = cg::this_grid();
  for (int K = 0; K < Iterations; ++K) {
    for (int I = Grid.thread_rank(); I < N; I += Grid.size())
      if (I > 0 && I + 1 < N)
        V[I] = 0.5f * (U[I - 1] + U[I + 1]);
    Grid.sync();
    float *T = U;
    U = V;
    V = T;
  }
}

__device__ void phaseBarrier(cg::grid_group &Grid) { Grid.sync(); }

__global__ void histogramThenNormalize(const int *Keys, int N, float *Bins,
                                       int BinCount) {
  cg::grid_group Grid = cg::this_grid();
  for (int I = Grid.thread_rank(); I < N; I += Grid.size())
    atomicAdd(&Bins[Keys[I] % BinCount], 1.0f);
  phaseBarrier(Grid);
  for (int B = Grid.thread_rank(); B < BinCount; B += Grid.size())
    Bins[B] /= static_cast<float>(N);
}

cudaError_t runJacobi(float *U, float *V, int N, int Iterations) {
  int Device = 0, Sms = 0, PerSm = 0;
  cudaGetDevice(&Device);
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, persistentJacobi, 256,
                                                0);
  void *Args[] = {&U, &V, &N, &Iterations};
  return cudaLaunchCooperativeKernel((void *)persistentJacobi,
                                     dim3(Sms * PerSm), dim3(256), Args, 0,
                                     nullptr);
}

void runHistogram(const int *Keys, int N, float *Bins, int BinCount) {
  histogramThenNormalize<<<132, 256>>>(Keys, N, Bins, BinCount);
}
