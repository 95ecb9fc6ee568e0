// Shared-memory tiled SGEMM, C = alpha * A * B + beta * C, row major.
#include <cuda_runtime.h>

template <int TILE>
__global__ void sgemmTiled(int M, int N, int K, float Alpha,
                           const float *__restrict__ A,
                           const float *__restrict__ B, float Beta,
                           float *__restrict__ C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int Row = blockIdx.y * TILE + threadIdx.y;
  const int Col = blockIdx.x * TILE + threadIdx.x;
  float Acc = 0.0f;
  for (int T = 0; T < (K + TILE - 1) / TILE; ++T) {
    const int ACol = T * TILE + threadIdx.x;
    const int BRow = T * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = Row < M && ACol < K ? A[Row * K + ACol] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = BRow < K && Col < N ? B[BRow * N + Col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int I = 0; I < TILE; ++I)
      Acc += As[threadIdx.y][I] * Bs[I][threadIdx.x];
    __syncthreads();
  }
  if (Row < M && Col < N)
    C[Row * N + Col] = Alpha * Acc + Beta * C[Row * N + Col];
}

// Register-blocked variant: each thread computes a 4x1 strip.
template <int TILE>
__global__ void sgemmStrip(int M, int N, int K, const float *A, const float *B,
                           float *C) {
  __shared__ float As[4 * TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int Col = blockIdx.x * TILE + threadIdx.x;
  const int RowBase = blockIdx.y * 4 * TILE;
  float Acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int T = 0; T < K; T += TILE) {
    for (int R = 0; R < 4; ++R) {
      int Row = RowBase + R * TILE + threadIdx.y;
      As[R * TILE + threadIdx.y][threadIdx.x] =
          Row < M && T + threadIdx.x < K ? A[Row * K + T + threadIdx.x] : 0.f;
    }
    Bs[threadIdx.y][threadIdx.x] =
        T + threadIdx.y < K && Col < N ? B[(T + threadIdx.y) * N + Col] : 0.f;
    __syncthreads();
    for (int I = 0; I < TILE; ++I)
      for (int R = 0; R < 4; ++R)
        Acc[R] += As[R * TILE + threadIdx.y][I] * Bs[I][threadIdx.x];
    __syncthreads();
  }
  for (int R = 0; R < 4; ++R) {
    int Row = RowBase + R * TILE + threadIdx.y;
    if (Row < M && Col < N)
      C[Row * N + Col] = Acc[R];
  }
}

void sgemm(int M, int N, int K, const float *A, const float *B, float *C) {
  dim3 Block(16, 16);
  dim3 Grid((N + 15) / 16, (M + 15) / 16);
  sgemmTiled<16><<<Grid, Block>>>(M, N, K, 1.0f, A, B, 0.0f, C);
  dim3 StripGrid((N + 15) / 16, (M + 63) / 64);
  sgemmStrip<16><<<StripGrid, Block>>>(M, N, K, A, B, C);
}
