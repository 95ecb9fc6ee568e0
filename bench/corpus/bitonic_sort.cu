// Bitonic sort of one tile per block in shared memory.
#include <cuda_runtime.h>

template <int N>
__global__ void bitonicSortTile(float *Keys) {
  __shared__ float S[N];
  float *Tile = Keys + blockIdx.x * N;
  for (int I = threadIdx.x; I < N; I += blockDim.x)
    S[I] = Tile[I];
  __syncthreads();
  for (int Size = 2; Size <= N; Size <<= 1) {
    for (int Stride = Size / 2; Stride > 0; Stride >>= 1) {
      for (int I = threadIdx.x; I < N; I += blockDim.x) {
        int Partner = I ^ Stride;
        if (Partner > I) {
          bool Ascending = (I & Size) == 0;
          if ((S[I] > S[Partner]) == Ascending) {
            float T = S[I];
            S[I] = S[Partner];
            S[Partner] = T;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int I = threadIdx.x; I < N; I += blockDim.x)
    Tile[I] = S[I];
}

void sortTiles(float *Keys, int Tiles) {
  bitonicSortTile<1024><<<Tiles, 256>>>(Keys);
}
