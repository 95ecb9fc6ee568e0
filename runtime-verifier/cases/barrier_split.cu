// cuda-divergent-barrier, split barrier. VIOLATING; twin: barrier_split_ok.cu.
//
// Threads below 48 scale their element, the others copy it, and each side of
// the branch has its own __syncthreads(). Two barriers are not one: the Guide
// allows a barrier in conditional code only where the condition is the same
// for the whole block. Built with -O3 on Hopper the two barriers happen to
// release together and the result is right, but compute-sanitizer's synccheck
// reports the divergence; built with -G (barrier_split_g case) the block hangs.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void scaleHead(const float *In, float *Out) {
  __shared__ float Stage[kThreads];
  const int X = threadIdx.x;
  if (X < 48) {
    Stage[X] = 2.0f * In[X];
    __syncthreads(); // FLAGGED(cuda-divergent-barrier)
  } else {
    Stage[X] = In[X];
    __syncthreads(); // FLAGGED(cuda-divergent-barrier)
  }
  Out[X] = Stage[(X + 1) % kThreads];
}

int main() {
  std::vector<float> In(kThreads), Out(kThreads);
  for (int I = 0; I < kThreads; ++I)
    In[I] = static_cast<float>(I % 11);
  float *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, kThreads * sizeof(float)));
  RV_CHECK(cudaMalloc(&DOut, kThreads * sizeof(float)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), kThreads * sizeof(float),
                      cudaMemcpyHostToDevice));
  scaleHead<<<1, kThreads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, kThreads * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int X = 0; X < kThreads; ++X) {
    int Next = (X + 1) % kThreads;
    double Ref = Next < 48 ? 2.0 * In[Next] : double(In[Next]);
    Wrong += Out[X] != Ref;
  }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong,
             kThreads);
  rv::finish(Wrong == 0);
}
