// cuda-group-by-value. VIOLATING; twin: group_by_value_ok.cu.
//
// tileSum() takes its thread_block_tile<32> by value; the Guide says to pass
// group handles by reference only. __noinline__ keeps the call (and so the
// copy of the handle) in the machine code. On an H200 the result is the same
// either way: the runner records the registers, stack frame and instruction
// count of tileSum() and of the kernel (cuobjdump) for both twins instead.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

__device__ __noinline__ float tileSum(cg::thread_block_tile<32> Tile, float V) { // FLAGGED(cuda-group-by-value)
  return cg::reduce(Tile, V, cg::plus<float>());
}

__global__ void tileSums(const float *In, float *Out) {
  auto Tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const float S = tileSum(Tile, In[I]);
  if (Tile.thread_rank() == 0)
    Out[I / 32] = S;
}

int main() {
  const int Blocks = 4, Threads = 128, Total = Blocks * Threads;
  std::vector<float> In(Total), Out(Total / 32);
  for (int I = 0; I < Total; ++I)
    In[I] = static_cast<float>(I % 10);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Out.size() * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(float),
                      cudaMemcpyHostToDevice));
  tileSums<<<Blocks, Threads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Out.size() * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (size_t W = 0; W < Out.size(); ++W) {
    double Ref = 0;
    for (int L = 0; L < 32; ++L)
      Ref += In[W * 32 + L];
    Wrong += Out[W] != Ref;
  }
  rv::detail("%d of %zu tile sums differ from the CPU reference", Wrong,
             Out.size());
  rv::finish(Wrong == 0);
}
