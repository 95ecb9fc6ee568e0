// 1-D stencil with halo cells staged in shared memory.
#include <cuda_runtime.h>

constexpr int RADIUS = 3;
constexpr int BLOCK = 256;

__constant__ float Weights[2 * RADIUS + 1];

__global__ void stencil1d(const float *In, float *Out, int N) {
  __shared__ float Tile[BLOCK + 2 * RADIUS];
  int Global = blockIdx.x * blockDim.x + threadIdx.x;
  int Local = threadIdx.x + RADIUS;
  Tile[Local] = Global < N ? In[Global] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int Left = Global - RADIUS;
    int Right = Global + BLOCK;
    Tile[Local - RADIUS] = Left >= 0 ? In[Left] : 0.0f;
    Tile[Local + BLOCK] = Right < N ? In[Right] : 0.0f;
  }
  __syncthreads();
  if (Global >= N)
    return;
  float Sum = 0.0f;
#pragma unroll
  for (int Offset = -RADIUS; Offset <= RADIUS; ++Offset)
    Sum += Weights[Offset + RADIUS] * Tile[Local + Offset];
  Out[Global] = Sum;
}

void runStencil(const float *In, float *Out, int N, const float *HostWeights) {
  cudaMemcpyToSymbol(Weights, HostWeights, sizeof(float) * (2 * RADIUS + 1));
  stencil1d<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(In, Out, N);
}
