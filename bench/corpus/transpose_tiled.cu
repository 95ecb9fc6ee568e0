// Tiled matrix transpose through shared memory with a padded tile to avoid
// bank conflicts; TILE x ROWS threads move a TILE x TILE tile.
#include <cuda_runtime.h>

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transposeTiled(float *__restrict__ Out,
                               const float *__restrict__ In, int Width,
                               int Height) {
  __shared__ float Tile[TILE][TILE + 1];
  int X = blockIdx.x * TILE + threadIdx.x;
  int Y = blockIdx.y * TILE + threadIdx.y;
  for (int J = 0; J < TILE; J += ROWS)
    if (X < Width && Y + J < Height)
      Tile[threadIdx.y + J][threadIdx.x] = In[(Y + J) * Width + X];
  __syncthreads();
  X = blockIdx.y * TILE + threadIdx.x;
  Y = blockIdx.x * TILE + threadIdx.y;
  for (int J = 0; J < TILE; J += ROWS)
    if (X < Height && Y + J < Width)
      Out[(Y + J) * Height + X] = Tile[threadIdx.x][threadIdx.y + J];
}

__global__ void copyBaseline(float *Out, const float *In, int Width,
                             int Height) {
  int X = blockIdx.x * TILE + threadIdx.x;
  int Y = blockIdx.y * TILE + threadIdx.y;
  for (int J = 0; J < TILE; J += ROWS)
    if (X < Width && Y + J < Height)
      Out[(Y + J) * Width + X] = In[(Y + J) * Width + X];
}

void transpose(float *Out, const float *In, int Width, int Height,
               cudaStream_t Stream) {
  dim3 Grid((Width + TILE - 1) / TILE, (Height + TILE - 1) / TILE);
  dim3 Block(TILE, ROWS);
  transposeTiled<<<Grid, Block, 0, Stream>>>(Out, In, Width, Height);
}
