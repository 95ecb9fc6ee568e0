// cuda-divergent-barrier, split barrier. COMPLIANT; twin of barrier_split.cu.
//
// The one change: a single barrier after the if/else, reached by every thread.
// synccheck reports nothing, with -O3 and with -G.
#include "rv.cuh"
#include <vector>

constexpr int kThreads = 256;

__global__ void scaleHead(const float *In, float *Out) {
  __shared__ float Stage[kThreads];
  const int X = threadIdx.x;
  if (X < 48)
    Stage[X] = 2.0f * In[X];
  else
    Stage[X] = In[X];
  __syncthreads();
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
