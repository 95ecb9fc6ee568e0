// The seed's day-28 measurement, our own version: the sum of 4,194,915 floats
// as two ordinary launches and as one cooperative launch with a grid barrier,
// each checked against a CPU double reference, plus the cooperative launch's
// limits (blocks that fit, is_valid() under <<<>>> and cooperatively, the
// error one block over) and the mean time of each route.
#include "../cases/rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>
#include <cstdint>
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

// Route 1, used twice: Out[b] = sum of block b's grid-stride share of In.
__global__ void partialSums(const float *In, float *Out, int N) {
  cg::thread_block Block = cg::this_thread_block();
  float V = 0.0f;
  for (long long I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x)
    V += In[I];
  V = blockSum(Block, V);
  if (Block.thread_rank() == 0)
    Out[blockIdx.x] = V;
}

// Route 2: one launch. Partial sums, a grid barrier, then block 0 adds the
// partials. Guarded with is_valid(): under an ordinary launch the grid group
// is not valid, and the kernel records that and leaves before the barrier.
__global__ void reduceCooperativeGrid(const float *In, float *Partial,
                                      float *Out, int N, int *Valid) {
  cg::grid_group Grid = cg::this_grid();
  cg::thread_block Block = cg::this_thread_block();
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *Valid = Grid.is_valid();
  if (!Grid.is_valid())
    return;
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
  uint32_t State = 12345u;
  for (int I = 0; I < N; ++I) {
    State = State * 1664525u + 1013904223u;
    In[I] = static_cast<float>(State >> 8) * (1.75f / 16777216.0f);
    Ref += In[I];
  }

  int CoopAttr = 0, PerSm = 0, Sms = 0;
  RV_CHECK(cudaDeviceGetAttribute(&CoopAttr, cudaDevAttrCooperativeLaunch, 0));
  RV_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &PerSm, reduceCooperativeGrid, kThreads, 0));
  RV_CHECK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0));
  int CoopBlocks = PerSm * Sms;
  const int DataBlocks = (N + kThreads - 1) / kThreads;
  rv::measure("cooperative_launch_attr", "%d", CoopAttr);
  rv::measure("per_sm", "%d", PerSm);
  rv::measure("sms", "%d", Sms);
  rv::measure("coop_blocks", "%d", CoopBlocks);
  rv::measure("data_blocks", "%d", DataBlocks);

  float *DIn, *DPartial, *DOut;
  int *DValid;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DPartial, DataBlocks * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, sizeof(float)));
  RV_CHECK(cudaMalloc(&DValid, sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  void *Args[] = {&DIn, &DPartial, &DOut, &N, &DValid};
  int Valid = -1;

  // is_valid() under an ordinary launch of the cooperative grid size. The
  // rule cuda-grid-sync-launch applies here, on purpose: this launch exists to
  // read is_valid(), and the kernel leaves before its grid barrier.
  RV_CHECK(cudaMemset(DValid, 0xff, sizeof(int)));
  reduceCooperativeGrid<<<CoopBlocks, kThreads>>>(DIn, DPartial, DOut, N, DValid); // FLAGGED(cuda-grid-sync-launch)
  RV_SYNC();
  RV_CHECK(cudaMemcpy(&Valid, DValid, sizeof(int), cudaMemcpyDeviceToHost));
  rv::measure("is_valid_plain", "%d", Valid);

  // The same kernel and grid, launched cooperatively.
  RV_CHECK(cudaMemset(DValid, 0xff, sizeof(int)));
  RV_CHECK(cudaLaunchCooperativeKernel((void *)reduceCooperativeGrid, CoopBlocks, kThreads, Args, 0, 0));
  RV_SYNC();
  RV_CHECK(cudaMemcpy(&Valid, DValid, sizeof(int), cudaMemcpyDeviceToHost));
  rv::measure("is_valid_coop", "%d", Valid);

  // One block over the limit: refused at the launch, nothing runs.
  const int OverBlocks = CoopBlocks + 1;
  cudaError_t Over = cudaLaunchCooperativeKernel((void *)reduceCooperativeGrid, OverBlocks, kThreads, Args, 0, 0);
  rv::measure("over_blocks", "%d", OverBlocks);
  rv::measure("over_error", "%s", cudaGetErrorName(Over));
  (void)cudaGetLastError();
  RV_CHECK(cudaDeviceSynchronize());

  // Timing: mean of 10 runs after 3 warm-ups, copies excluded.
  cudaEvent_t Start, Stop;
  RV_CHECK(cudaEventCreate(&Start));
  RV_CHECK(cudaEventCreate(&Stop));
  const int WarmUps = 3, Runs = 10;
  double TwoMs = 0, CoopMs = 0;
  float SumTwo = 0, SumCoop = 0;
  for (int R = 0; R < WarmUps + Runs; ++R) {
    float Ms = 0;
    RV_CHECK(cudaEventRecord(Start));
    partialSums<<<DataBlocks, kThreads>>>(DIn, DPartial, N);
    partialSums<<<1, 1024>>>(DPartial, DOut, DataBlocks);
    RV_CHECK(cudaEventRecord(Stop));
    RV_CHECK(cudaEventSynchronize(Stop));
    RV_CHECK(cudaGetLastError());
    RV_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    if (R >= WarmUps)
      TwoMs += Ms;
  }
  RV_CHECK(cudaMemcpy(&SumTwo, DOut, sizeof(float), cudaMemcpyDeviceToHost));
  for (int R = 0; R < WarmUps + Runs; ++R) {
    float Ms = 0;
    RV_CHECK(cudaEventRecord(Start));
    RV_CHECK(cudaLaunchCooperativeKernel((void *)reduceCooperativeGrid, CoopBlocks, kThreads, Args, 0, 0));
    RV_CHECK(cudaEventRecord(Stop));
    RV_CHECK(cudaEventSynchronize(Stop));
    RV_CHECK(cudaGetLastError());
    RV_CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    if (R >= WarmUps)
      CoopMs += Ms;
  }
  RV_CHECK(cudaMemcpy(&SumCoop, DOut, sizeof(float), cudaMemcpyDeviceToHost));

  const double RelTwo = std::fabs(SumTwo - Ref) / Ref;
  const double RelCoop = std::fabs(SumCoop - Ref) / Ref;
  rv::measure("reference_sum", "%.6f", Ref);
  rv::measure("sum_two_launches", "%.6f", SumTwo);
  rv::measure("sum_cooperative", "%.6f", SumCoop);
  rv::measure("rel_error_two_launches", "%.3g", RelTwo);
  rv::measure("rel_error_cooperative", "%.3g", RelCoop);
  rv::measure("ms_two_launches", "%.4f", TwoMs / Runs);
  rv::measure("ms_cooperative", "%.4f", CoopMs / Runs);
  rv::measure("timing_runs", "%d after %d warm-ups", Runs, WarmUps);
  // Float sums in a different order than the CPU's: a match is agreement to
  // 1e-6 relative (the float result has about 7 significant digits).
  const bool Ok = RelTwo <= 1e-6 && RelCoop <= 1e-6 && Valid == 1;
  rv::detail("two launches %.6f, cooperative %.6f, CPU double %.6f", SumTwo,
             SumCoop, Ref);
  rv::finish(Ok);
}
