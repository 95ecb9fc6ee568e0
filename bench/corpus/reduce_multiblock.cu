// Two-stage sum reduction across the grid: blocks write partials, the last
// block to finish (by an atomic ticket) reduces them.
#include <cuda_runtime.h>

__device__ unsigned RetirementCount = 0;

template <unsigned BLOCK>
__device__ float blockSum(float V, float *Shared) {
  Shared[threadIdx.x] = V;
  __syncthreads();
  for (unsigned S = BLOCK / 2; S > 0; S >>= 1) {
    if (threadIdx.x < S)
      Shared[threadIdx.x] += Shared[threadIdx.x + S];
    __syncthreads();
  }
  return Shared[0];
}

template <unsigned BLOCK>
__global__ void reduceSinglePass(const float *In, float *Partials, float *Out,
                                 unsigned N) {
  __shared__ float Shared[BLOCK];
  __shared__ bool IsLast;
  float V = 0.0f;
  for (unsigned I = blockIdx.x * BLOCK + threadIdx.x; I < N;
       I += BLOCK * gridDim.x)
    V += In[I];
  float Sum = blockSum<BLOCK>(V, Shared);
  if (threadIdx.x == 0) {
    Partials[blockIdx.x] = Sum;
    __threadfence();
    unsigned Ticket = atomicInc(&RetirementCount, gridDim.x);
    IsLast = Ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (IsLast) {
    float W = 0.0f;
    for (unsigned I = threadIdx.x; I < gridDim.x; I += BLOCK)
      W += Partials[I];
    float Total = blockSum<BLOCK>(W, Shared);
    if (threadIdx.x == 0) {
      *Out = Total;
      RetirementCount = 0;
    }
  }
}

void sum(const float *In, float *Partials, float *Out, unsigned N) {
  reduceSinglePass<512><<<128, 512>>>(In, Partials, Out, N);
}
