// Scaled dot-product attention scores for one head: a block computes a
// TILE x TILE block of Q K^T from tiles of Q and K in shared memory.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <int TILE, int HEAD_DIM>
__global__ void qkScores(const __half *Q, const __half *K, float *Scores,
                         int SeqLen, float Scale) {
  __shared__ float Qs[TILE][HEAD_DIM + 1];
  __shared__ float Ks[TILE][HEAD_DIM + 1];
  int QRow = blockIdx.y * TILE + threadIdx.y;
  int KRow = blockIdx.x * TILE + threadIdx.y;
  for (int D = threadIdx.x; D < HEAD_DIM; D += TILE) {
    Qs[threadIdx.y][D] = QRow < SeqLen ? __half2float(Q[QRow * HEAD_DIM + D]) : 0.f;
    Ks[threadIdx.y][D] = KRow < SeqLen ? __half2float(K[KRow * HEAD_DIM + D]) : 0.f;
  }
  __syncthreads();
  int Col = blockIdx.x * TILE + threadIdx.x;
  if (QRow < SeqLen && Col < SeqLen) {
    float Dot = 0.0f;
#pragma unroll 16
    for (int D = 0; D < HEAD_DIM; ++D)
      Dot += Qs[threadIdx.y][D] * Ks[threadIdx.x][D];
    // Causal mask.
    Scores[QRow * SeqLen + Col] = Col <= QRow ? Dot * Scale : -INFINITY;
  }
}

void attentionScores(const __half *Q, const __half *K, float *Scores,
                     int SeqLen) {
  constexpr int Tile = 16, HeadDim = 64;
  dim3 Block(Tile, Tile);
  dim3 Grid((SeqLen + Tile - 1) / Tile, (SeqLen + Tile - 1) / Tile);
  qkScores<Tile, HeadDim><<<Grid, Block>>>(Q, K, Scores, SeqLen,
                                           0.125f);
}
