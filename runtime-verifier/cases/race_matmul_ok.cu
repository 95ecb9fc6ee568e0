// cuda-shared-memory-race, loop-carried. COMPLIANT; twin: race_matmul.cu.
//
// The tiled matmul with both barriers: the one after the loads and the one
// at the end of the k-loop, so no thread stores the next tiles while another
// still reads these.
#include "rv.cuh"
#include <vector>

constexpr int kTile = 16;

__global__ void matmul(const float *A, const float *B, float *C, int N) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int Tx = threadIdx.x, Ty = threadIdx.y;
  const int Row = blockIdx.y * kTile + Ty, Col = blockIdx.x * kTile + Tx;
  float Sum = 0.0f;
  for (int K = 0; K < N / kTile; ++K) {
    As[Ty][Tx] = A[Row * N + K * kTile + Tx];
    Bs[Ty][Tx] = B[(K * kTile + Ty) * N + Col];
    __syncthreads();
    for (int J = 0; J < kTile; ++J)
      Sum += As[Ty][J] * Bs[J][Tx];
    __syncthreads();
  }
  C[Row * N + Col] = Sum;
}

int main() {
  const int N = 512;
  std::vector<float> A(N * N), B(N * N), C(N * N);
  for (int I = 0; I < N * N; ++I) {
    A[I] = static_cast<float>(I % 7);
    B[I] = static_cast<float>(I % 5);
  }
  float *DA, *DB, *DC;
  RV_CHECK(cudaMalloc(&DA, N * N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DB, N * N * sizeof(float)));
  RV_CHECK(cudaMalloc(&DC, N * N * sizeof(float)));
  RV_CHECK(cudaMemcpy(DA, A.data(), N * N * sizeof(float),
                      cudaMemcpyHostToDevice));
  RV_CHECK(cudaMemcpy(DB, B.data(), N * N * sizeof(float),
                      cudaMemcpyHostToDevice));
  matmul<<<dim3(N / kTile, N / kTile), dim3(kTile, kTile)>>>(DA, DB, DC, N);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(C.data(), DC, N * N * sizeof(float),
                      cudaMemcpyDeviceToHost));
  int Wrong = 0;
  for (int R = 0; R < N; ++R)
    for (int Q = 0; Q < N; ++Q) {
      double Ref = 0;
      for (int K = 0; K < N; ++K)
        Ref += double(A[R * N + K]) * double(B[K * N + Q]);
      Wrong += C[R * N + Q] != Ref;
    }
  rv::detail("%d of %d outputs differ from the CPU reference", Wrong, N * N);
  rv::finish(Wrong == 0);
}
