// Row-wise numerically stable softmax: one warp per row for short rows,
// one block per row for long rows.
#include <cuda_runtime.h>
#include <cfloat>

__device__ __forceinline__ float warpAllMax(float V) {
  for (int M = 16; M > 0; M >>= 1)
    V = fmaxf(V, __shfl_xor_sync(0xffffffffu, V, M));
  return V;
}
__device__ __forceinline__ float warpAllSum(float V) {
  for (int M = 16; M > 0; M >>= 1)
    V += __shfl_xor_sync(0xffffffffu, V, M);
  return V;
}

__global__ void softmaxWarpPerRow(const float *X, float *Y, int Rows, int Cols) {
  int Row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int Lane = threadIdx.x % 32;
  if (Row >= Rows)
    return;
  const float *In = X + Row * Cols;
  float Max = -FLT_MAX;
  for (int C = Lane; C < Cols; C += 32)
    Max = fmaxf(Max, In[C]);
  Max = warpAllMax(Max);
  float Sum = 0.0f;
  for (int C = Lane; C < Cols; C += 32)
    Sum += __expf(In[C] - Max);
  Sum = warpAllSum(Sum);
  for (int C = Lane; C < Cols; C += 32)
    Y[Row * Cols + C] = __expf(In[C] - Max) / Sum;
}

__global__ void softmaxBlockPerRow(const float *X, float *Y, int Cols) {
  __shared__ float Partial[32];
  __shared__ float Shared;
  const float *In = X + blockIdx.x * Cols;
  int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  float Max = -FLT_MAX;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Max = fmaxf(Max, In[C]);
  Max = warpAllMax(Max);
  if (Lane == 0)
    Partial[Warp] = Max;
  __syncthreads();
  if (Warp == 0) {
    float V = Lane < blockDim.x / 32 ? Partial[Lane] : -FLT_MAX;
    V = warpAllMax(V);
    if (Lane == 0)
      Shared = V;
  }
  __syncthreads();
  Max = Shared;
  float Sum = 0.0f;
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Sum += __expf(In[C] - Max);
  Sum = warpAllSum(Sum);
  __syncthreads();
  if (Lane == 0)
    Partial[Warp] = Sum;
  __syncthreads();
  if (Warp == 0) {
    float V = Lane < blockDim.x / 32 ? Partial[Lane] : 0.0f;
    V = warpAllSum(V);
    if (Lane == 0)
      Shared = V;
  }
  __syncthreads();
  for (int C = threadIdx.x; C < Cols; C += blockDim.x)
    Y[blockIdx.x * Cols + C] = __expf(In[C] - Max) / Shared;
}

void softmax(const float *X, float *Y, int Rows, int Cols) {
  if (Cols <= 1024)
    softmaxWarpPerRow<<<(Rows + 7) / 8, 256>>>(X, Y, Rows, Cols);
  else
    softmaxBlockPerRow<<<Rows, 512>>>(X, Y, Cols);
}
