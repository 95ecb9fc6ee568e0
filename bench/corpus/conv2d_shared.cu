// 2-D convolution with the input tile (and apron) in shared memory and the
// filter in constant memory.
#include <cuda_runtime.h>

constexpr int FILTER_RADIUS = 2;
constexpr int FILTER = 2 * FILTER_RADIUS + 1;
constexpr int OUT_TILE = 16;
constexpr int IN_TILE = OUT_TILE + 2 * FILTER_RADIUS;

__constant__ float Filter[FILTER][FILTER];

__global__ void conv2d(const float *In, float *Out, int Width, int Height) {
  __shared__ float Tile[IN_TILE][IN_TILE];
  int Col = blockIdx.x * OUT_TILE + threadIdx.x - FILTER_RADIUS;
  int Row = blockIdx.y * OUT_TILE + threadIdx.y - FILTER_RADIUS;
  Tile[threadIdx.y][threadIdx.x] =
      Row >= 0 && Row < Height && Col >= 0 && Col < Width
          ? In[Row * Width + Col]
          : 0.0f;
  __syncthreads();
  int TileCol = threadIdx.x - FILTER_RADIUS;
  int TileRow = threadIdx.y - FILTER_RADIUS;
  if (Col >= 0 && Col < Width && Row >= 0 && Row < Height && TileCol >= 0 &&
      TileCol < OUT_TILE && TileRow >= 0 && TileRow < OUT_TILE) {
    float Sum = 0.0f;
    for (int Fy = 0; Fy < FILTER; ++Fy)
      for (int Fx = 0; Fx < FILTER; ++Fx)
        Sum += Filter[Fy][Fx] * Tile[TileRow + Fy][TileCol + Fx];
    Out[Row * Width + Col] = Sum;
  }
}

void convolve(const float *In, float *Out, int Width, int Height,
              const float *HostFilter) {
  cudaMemcpyToSymbol(Filter, HostFilter, sizeof(float) * FILTER * FILTER);
  dim3 Block(IN_TILE, IN_TILE);
  dim3 Grid((Width + OUT_TILE - 1) / OUT_TILE, (Height + OUT_TILE - 1) / OUT_TILE);
  conv2d<<<Grid, Block>>>(In, Out, Width, Height);
}
