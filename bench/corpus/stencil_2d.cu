// 2-D five-point Jacobi sweep with a shared-memory tile and halo; the
// buggy variant returns early for the boundary threads before the barrier.
#include <cuda_runtime.h>

constexpr int BX = 32;
constexpr int BY = 8;

__global__ void jacobiStep(const float *__restrict__ U, float *__restrict__ V,
                           int Nx, int Ny) {
  __shared__ float S[BY + 2][BX + 2];
  int I = blockIdx.x * BX + threadIdx.x;
  int J = blockIdx.y * BY + threadIdx.y;
  int Li = threadIdx.x + 1, Lj = threadIdx.y + 1;
  bool Inside = I < Nx && J < Ny;
  S[Lj][Li] = Inside ? U[J * Nx + I] : 0.0f;
  if (threadIdx.x == 0)
    S[Lj][0] = I > 0 && J < Ny ? U[J * Nx + I - 1] : 0.0f;
  if (threadIdx.x == BX - 1)
    S[Lj][BX + 1] = I + 1 < Nx && J < Ny ? U[J * Nx + I + 1] : 0.0f;
  if (threadIdx.y == 0)
    S[0][Li] = J > 0 && I < Nx ? U[(J - 1) * Nx + I] : 0.0f;
  if (threadIdx.y == BY - 1)
    S[BY + 1][Li] = J + 1 < Ny && I < Nx ? U[(J + 1) * Nx + I] : 0.0f;
  __syncthreads();
  if (Inside && I > 0 && J > 0 && I + 1 < Nx && J + 1 < Ny)
    V[J * Nx + I] =
        0.25f * (S[Lj][Li - 1] + S[Lj][Li + 1] + S[Lj - 1][Li] + S[Lj + 1][Li]);
}

__global__ void jacobiStepEarlyExit(const float *U, float *V, int Nx, int Ny) {
  __shared__ float S[BY][BX];
  int I = blockIdx.x * BX + threadIdx.x;
  int J = blockIdx.y * BY + threadIdx.y;
  if (I >= Nx || J >= Ny)
    return;
  S[threadIdx.y][threadIdx.x] = U[J * Nx + I];
  __syncthreads();
  if (threadIdx.x > 0 && threadIdx.x < BX - 1 && threadIdx.y > 0 &&
      threadIdx.y < BY - 1)
    V[J * Nx + I] = 0.25f * (S[threadIdx.y][threadIdx.x - 1] +
                             S[threadIdx.y][threadIdx.x + 1] +
                             S[threadIdx.y - 1][threadIdx.x] +
                             S[threadIdx.y + 1][threadIdx.x]);
}

void sweep(float *U, float *V, int Nx, int Ny, int Iterations) {
  dim3 Block(BX, BY), Grid((Nx + BX - 1) / BX, (Ny + BY - 1) / BY);
  for (int K = 0; K < Iterations; ++K) {
    jacobiStep<<<Grid, Block>>>(U, V, Nx, Ny);
    float *T = U;
    U = V;
    V = T;
  }
}
