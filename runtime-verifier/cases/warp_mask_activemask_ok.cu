// cuda-warp-mask-mismatch, a shuffle reduction's mask computed before the
// branch with __ballot_sync. COMPLIANT; twin: warp_mask_activemask.cu.
//
// The lanes a data-dependent flag keeps sum their values: each lane the
// mask names broadcasts its value in turn with a shuffle. The mask is
// the ballot of the flag, taken by the whole warp before the branch: exactly
// the kept lanes, however unevenly they arrive.
#include "rv.cuh"
#include <vector>

constexpr int Threads = 256;

__global__ void keptSums(const float *In, const int *Keep, float *Out) {
  const int I = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned Kept = __ballot_sync(0xffffffff, Keep[I] != 0);
  if (Keep[I]) {
    float V = In[I], Spin = V;
    for (int K = 0; K < (threadIdx.x % 7) * 30; ++K)
      Spin = Spin * 1.0000001f + 1e-9f; // uneven arrival
    if (Spin < 0.0f) // never: the inputs are not negative
      V = Spin;
    unsigned Mask = Kept;
    // Every lane the mask names broadcasts its value in turn.
    float Sum = 0.0f;
    for (int L = 0; L < 32; ++L)
      if (Mask & (1u << L))
        Sum += __shfl_sync(Mask, V, L);
    Out[I] = Sum;
  }
}

int main() {
  const int Blocks = 256, Total = Blocks * Threads;
  std::vector<float> In(Total), Out(Total), Ref(Total, 0.0f);
  std::vector<int> Keep(Total);
  for (int I = 0; I < Total; ++I) {
    In[I] = static_cast<float>(I % 9);
    Keep[I] = ((I * 2654435761u) >> 7) % 3 != 0;
  }
  for (int W = 0; W < Total / 32; ++W) {
    float S = 0;
    for (int L = 0; L < 32; ++L)
      if (Keep[W * 32 + L])
        S += In[W * 32 + L];
    for (int L = 0; L < 32; ++L)
      Ref[W * 32 + L] = S;
  }
  float *DIn, *DOut;
  int *DKeep;
  RV_CHECK(cudaMalloc(&DIn, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, Total * sizeof(float)));
  RV_CHECK(cudaMalloc(&DKeep, Total * sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Total * sizeof(float),
                      cudaMemcpyHostToDevice));
  RV_CHECK(cudaMemcpy(DKeep, Keep.data(), Total * sizeof(int),
                      cudaMemcpyHostToDevice));
  int Worst = 0;
  for (int Run = 0; Run < 20; ++Run) {
    RV_CHECK(cudaMemset(DOut, 0, Total * sizeof(float)));
    keptSums<<<Blocks, Threads>>>(DIn, DKeep, DOut);
    RV_SYNC();
    RV_CHECK(cudaMemcpy(Out.data(), DOut, Total * sizeof(float),
                        cudaMemcpyDeviceToHost));
    int Wrong = 0;
    for (int I = 0; I < Total; ++I)
      if (Keep[I] && Out[I] != Ref[I]) {
        if (Wrong < 2 && Worst == 0)
          rv::detail("run %d, lane %d of warp %d: GPU %g, CPU reference %g",
                     Run, I % 32, I / 32, Out[I], Ref[I]);
        ++Wrong;
      }
    if (Wrong > Worst)
      Worst = Wrong;
  }
  rv::detail("worst of 20 runs: %d kept lanes' sums differ from the CPU "
             "reference",
             Worst);
  rv::finish(Worst == 0);
}
