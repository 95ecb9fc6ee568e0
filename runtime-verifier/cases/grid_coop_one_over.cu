// cuda-grid-sync-launch, cooperative launch one block over the limit.
// VIOLATING at run time; twin: grid_sync_coop.cu.
//
// The one change: one block more than the occupancy query allows. The launch
// is refused with cudaErrorCooperativeLaunchTooLarge. The grid size is still
// computed from the occupancy query, so the static rule (which accepts any
// grid derived from that query) is not expected to see this one: it is here
// to show where the runtime draws the line.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

constexpr int kThreads = 256;

// Sum of V over the block, returned to every thread.
__device__ float blockSum(const cg::thread_block &Block, float V) {
  __shared__ float WarpSums[32];
  auto Tile = cg::tiled_partition<32>(Block);
  V = cg::reduce(Tile, V, cg::plus<float>());
  if (Tile.thread_rank() == 0)
    WarpSums[Tile.meta_group_rank()] = V;
  Block.sync();
  V = Tile.thread_rank() < Tile.meta_group_size() ? WarpSums[Tile.thread_rank()]
                                                  : 0.0f;
  V = cg::reduce(Tile, V, cg::plus<float>());
  Block.sync();
  return V;
}

__global__ void gridSum(const float *In, float *Partial, float *Out, int N) {
  cg::grid_group Grid = cg::this_grid();
  cg::thread_block Block = cg::this_thread_block();
  float V = 0.0f;
  for (long long I = Grid.thread_rank(); I < N; I += Grid.num_threads())
    V += In[I];
  V = blockSum(Block, V);
  if (Block.thread_rank() == 0)
    Partial[blockIdx.x] = V;
  Grid.sync();
  if (blockIdx.x == 0) {
    V = 0.0f;
    for (unsigned B = Block.thread_rank(); B < gridDim.x; B += blockDim.x)
      V += Partial[B];
    V = blockSum(Block, V);
    if (Block.thread_rank() == 0)
      *Out = V;
  }
}

int main() {
  int N = 4194915;
  std::vector<float> In(N);
  double Ref = 0;
  for (int I = 0; I < N; ++I)
    Ref += In[I] = static_cast<float>(I % 8);
  int PerSm = 0, Sms = 0;
  RV_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, gridSum,
                                                         kThreads, 0));
  RV_CHECK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0));
  int Blocks = PerSm * Sms + 1;
  rv::measure("per_sm", "%d", PerSm);
  rv::measure("sms", "%d", Sms);
  rv::measure("blocks", "%d", Blocks);
  float *DIn, *DPartial, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DPartial, Blocks * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  void *Args[] = {&DIn, &DPartial, &DOut, &N};
  RV_CHECK(cudaLaunchCooperativeKernel((void *)gridSum, Blocks, kThreads, Args, 0, 0));
  RV_SYNC();
  float Sum = 0;
  RV_CHECK(cudaMemcpy(&Sum, DOut, sizeof(float), cudaMemcpyDeviceToHost));
  rv::detail("%d blocks (%d per SM x %d SMs): GPU %.1f, CPU reference %.1f",
             Blocks, PerSm, Sms, Sum, Ref);
  rv::finish(Sum == Ref);
}
