// Warp-level primitives: reductions, broadcasts and votes with the
// *_sync intrinsics, and a kernel that uses them per row.
#include <cuda_runtime.h>

__device__ __forceinline__ float warpSum(float V) {
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    V += __shfl_xor_sync(0xffffffffu, V, Offset);
  return V;
}

__device__ __forceinline__ float warpMax(float V) {
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    V = fmaxf(V, __shfl_xor_sync(0xffffffffu, V, Offset));
  return V;
}

__device__ __forceinline__ int warpCountIf(bool Predicate) {
  return __popc(__ballot_sync(0xffffffffu, Predicate));
}

// One warp per row; every lane runs the same number of iterations.
__global__ void rowStats(const float *Matrix, int Rows, int Cols,
                         float *Sums, float *Maxima, int *Positives) {
  const int Warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int Lane = threadIdx.x % 32;
  if (Warp >= Rows)
    return;
  const float *Row = Matrix + static_cast<size_t>(Warp) * Cols;
  float Sum = 0.0f, Max = -INFINITY;
  int Count = 0;
  for (int Base = 0; Base < Cols; Base += 32) {
    int Col = Base + Lane;
    float V = Col < Cols ? Row[Col] : 0.0f;
    Sum += V;
    Max = fmaxf(Max, Col < Cols ? V : -INFINITY);
    Count += warpCountIf(Col < Cols && V > 0.0f);
  }
  Sum = warpSum(Sum);
  Max = warpMax(Max);
  if (Lane == 0) {
    Sums[Warp] = Sum;
    Maxima[Warp] = Max;
    Positives[Warp] = Count;
  }
}

// Broadcast the first lane's value to the warp.
__global__ void broadcastFirst(const int *In, int *Out) {
  int V = In[blockIdx.x * blockDim.x + threadIdx.x];
  Out[blockIdx.x * blockDim.x + threadIdx.x] = __shfl_sync(0xffffffffu, V, 0);
}

void launchRowStats(const float *M, int Rows, int Cols, float *S, float *X,
                    int *P) {
  const int WarpsPerBlock = 8;
  dim3 Block(32 * WarpsPerBlock);
  dim3 Grid((Rows + WarpsPerBlock - 1) / WarpsPerBlock);
  rowStats<<<Grid, Block>>>(M, Rows, Cols, S, X, P);
}
