// CSR sparse matrix-vector product: scalar (thread per row) and vector
// (warp per row) kernels.
#include <cuda_runtime.h>

__global__ void spmvScalar(int Rows, const int *RowPtr, const int *ColIdx,
                           const float *Vals, const float *X, float *Y) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Rows) {
    float Dot = 0.0f;
    for (int J = RowPtr[Row]; J < RowPtr[Row + 1]; ++J)
      Dot += Vals[J] * X[ColIdx[J]];
    Y[Row] = Dot;
  }
}

__global__ void spmvVector(int Rows, const int *RowPtr, const int *ColIdx,
                           const float *Vals, const float *X, float *Y) {
  int Warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int Lane = threadIdx.x & 31;
  if (Warp >= Rows)
    return;
  float Dot = 0.0f;
  for (int J = RowPtr[Warp] + Lane; J < RowPtr[Warp + 1]; J += 32)
    Dot += Vals[J] * X[ColIdx[J]];
  for (int Offset = 16; Offset > 0; Offset >>= 1)
    Dot += __shfl_down_sync(0xffffffffu, Dot, Offset);
  if (Lane == 0)
    Y[Warp] = Dot;
}

// A variant written with the mask computed inside the row loop: lanes past
// the row's end left the loop, so the full mask names exited lanes.
__global__ void spmvVectorPartial(int Rows, const int *RowPtr,
                                  const int *ColIdx, const float *Vals,
                                  const float *X, float *Y) {
  int Warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int Lane = threadIdx.x & 31;
  if (Warp >= Rows)
    return;
  float Dot = 0.0f;
  for (int J = RowPtr[Warp] + Lane; J < RowPtr[Warp + 1]; J += 32) {
    Dot += Vals[J] * X[ColIdx[J]];
    if (J + 32 >= RowPtr[Warp + 1])
      Dot += __shfl_down_sync(0xffffffffu, Dot, 1);
  }
  if (Lane == 0)
    Y[Warp] = Dot;
}

void spmv(int Rows, const int *RowPtr, const int *ColIdx, const float *Vals,
          const float *X, float *Y, bool Vector) {
  if (Vector)
    spmvVector<<<(Rows * 32 + 255) / 256, 256>>>(Rows, RowPtr, ColIdx, Vals, X,
                                                 Y);
  else
    spmvScalar<<<(Rows + 255) / 256, 256>>>(Rows, RowPtr, ColIdx, Vals, X, Y);
}
