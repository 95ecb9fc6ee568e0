// Tensor-core GEMM tile with the WMMA API: each warp computes one 16x16
// tile of C from half-precision A and B.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmmaGemm(const __half *A, const __half *B, float *C, int M,
                         int N, int K) {
  int WarpM = (blockIdx.y * blockDim.y + threadIdx.y);
  int WarpN = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> AFrag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> BFrag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> Acc;
  wmma::fill_fragment(Acc, 0.0f);
  for (int Kk = 0; Kk < K; Kk += 16) {
    int ARow = WarpM * 16, BCol = WarpN * 16;
    if (ARow < M && BCol < N) {
      wmma::load_matrix_sync(AFrag, A + ARow * K + Kk, K);
      wmma::load_matrix_sync(BFrag, B + BCol * K + Kk, K);
      wmma::mma_sync(Acc, AFrag, BFrag, Acc);
    }
  }
  int CRow = WarpM * 16, CCol = WarpN * 16;
  if (CRow < M && CCol < N)
    wmma::store_matrix_sync(C + CRow * N + CCol, Acc, N, wmma::mem_row_major);
}

void gemm(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 Block(128, 4);
  dim3 Grid((N + 63) / 64, (M + 63) / 64);
  wmmaGemm<<<Grid, Block>>>(A, B, C, M, N, K);
}
