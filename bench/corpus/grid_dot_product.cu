// A dot product that finishes with a grid-wide sync: launched both the
// right way and, from a convenience wrapper, the wrong way.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void dotGridSync(const float *X, const float *Y, float *Partials,
                            float *Out, int N) {
  cg::grid_group Grid = cg::this_grid();
  cg::thread_block Block = cg::this_thread_block();
  auto Warp = cg::tiled_partition<32>(Block);
  float V = 0.0f;
  for (int I = Grid.thread_rank(); I < N; I += Grid.size())
    V += X[I] * Y[I];
  V = cg::reduce(Warp, V, cg::plus<float>());
  if (Warp.thread_rank() == 0)
    atomicAdd(&Partials[blockIdx.x], V);
  Grid.sync();
  if (Grid.thread_rank() == 0) {
    float Total = 0.0f;
    for (unsigned B = 0; B < gridDim.x; ++B)
      Total += Partials[B];
    *Out = Total;
  }
}

cudaError_t dot(const float *X, const float *Y, float *Partials, float *Out,
                int N) {
  void *Args[] = {&X, &Y, &Partials, &Out, &N};
  return cudaLaunchCooperativeKernel((void *)dotGridSync, dim3(132), dim3(256),
                                     Args, 0, nullptr);
}

void dotQuick(const float *X, const float *Y, float *Partials, float *Out,
              int N) {
  dotGridSync<<<132, 256>>>(X, Y, Partials, Out, N);
}
