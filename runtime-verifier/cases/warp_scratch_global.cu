// cuda-implicit-warp-sync, lanes of one warp exchanging partial sums through
// a global-memory scratch buffer. VIOLATING; twin: warp_scratch_global_ok.cu.
//
// Each warp sums its 32 values with a butterfly: every step, a lane stores
// its partial sum at Scratch[Gid] and loads its partner's at
// Scratch[Gid ^ Step], with no __syncwarp() between the partner's store and
// this lane's load (nor between this step's load and the next step's store).
// The partner is always a lane of the same warp (Gid ^ Step stays in the
// warp's 32-element segment of a warp-aligned block), so only a warp barrier
// is missing. Since Volta the lanes of a warp are scheduled independently:
// nothing orders one lane's STG before another lane's LDG. The scratch
// buffer is filled with NaN first, so a load that overtakes its store shows.
#include "rv.cuh"
#include <cmath>
#include <vector>

constexpr int kThreads = 256;

__global__ void warpSums(const float *In, float *Scratch, float *Out) {
  const int Gid = blockIdx.x * blockDim.x + threadIdx.x;
  float V = In[Gid];
  for (int Step = 1; Step < 32; Step <<= 1) {
    Scratch[Gid] = V;
    V += Scratch[Gid ^ Step]; // FLAGGED(cuda-implicit-warp-sync)
  }
  if ((threadIdx.x & 31) == 0)
    Out[Gid / 32] = V;
}

int main() {
  const int Blocks = 4096, N = Blocks * kThreads, Warps = N / 32;
  std::vector<float> In(N), Out(Warps);
  for (int I = 0; I < N; ++I)
    In[I] = static_cast<float>(I % 5 + 1);
  std::vector<float> Nan(N, std::nanf(""));
  float *DIn, *DScratch, *DOut;
  RV_CHECK(cudaMalloc(&DIn, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DScratch, N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Warps * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  RV_CHECK(cudaMemcpy(DScratch, Nan.data(), N * sizeof(float),
                      cudaMemcpyHostToDevice));
  warpSums<<<Blocks, kThreads>>>(DIn, DScratch, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, Warps * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int W = 0; W < Warps; ++W) {
    double Ref = 0;
    for (int L = 0; L < 32; ++L)
      Ref += In[W * 32 + L];
    Wrong += Out[W] != Ref;
  }
  rv::detail("%d of %d warp sums differ from the CPU reference", Wrong, Warps);
  rv::finish(Wrong == 0);
}
