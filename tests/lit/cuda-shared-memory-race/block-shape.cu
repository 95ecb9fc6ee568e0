// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// The block the cells are evaluated in: the launches' extents are kept as
// they are (a 32 x 16 block stays 32 x 16, not halved to the 256 threads a
// guessed block gets), and a conflict that shows only in a guessed extent
// and not in one half as large is not reported: a fill loop that steps by
// the block's size spelled as a constant (k * 32 in a dim3(32, k) block)
// writes each cell once in the real block.
template <int Rows>
__global__ void stridedFill(const float *in, float *out, int rows_arg) {
  const int rows = Rows == 0 ? rows_arg : Rows;
  __shared__ float cache[64 * 64];
  const int flat = threadIdx.x + threadIdx.y * blockDim.x;
  for (int base = 0; base < 64 * 64; base += rows * 32) {
    const int cell = base + flat;
    if (cell < 64 * 64)
      cache[cell] = in[cell];
  }
  __syncthreads();
  out[flat] = cache[4095 - flat];
}
void launchFill(const float *in, float *out, int rows) {
  dim3 block(32, rows);
  if (rows == 6)
    stridedFill<6><<<1, block>>>(in, out, rows);
  else
    stridedFill<0><<<1, block>>>(in, out, rows);
}
__global__ void rowsOfWarps(float *out, const float *in) {
  __shared__ float tile[16][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = in[ty * 32 + tx];
  out[ty * 32 + tx] = tile[(ty + 1) % 16][tx];
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: data race on __shared__ 'tile': thread (0, 0) reads tile[1][0] while thread (0, 1) writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
void launchRows(float *out, const float *in) {
  rowsOfWarps<<<1, dim3(32, 16)>>>(out, in);
}
// No launch in the file, but a float[4][4] tile subscripted by threadIdx.x
// and threadIdx.y directly: the block is at most 4 x 4, one warp, and the
// in-place swap is the warp-level rule's.
__global__ void smallTileSwap(float *out) {
  __shared__ float tile[4][4];
  int x = threadIdx.x, y = threadIdx.y;
  tile[x][y] = out[y * 4 + x];
  __syncthreads();
  tile[x][y] = tile[y][x];
  __syncthreads();
  out[y * 4 + x] = tile[x][y];
}
// The owner of a cell writes it in step k only when it is 0 and cell k of
// its row is not. The owner of cell k would need its cell to be 0 and not 0:
// no store of a step meets a read of it (8 x 8 from the tile's extents).
__global__ void claimColumns(int *out) {
  __shared__ int owner[8][8];
  int x = threadIdx.x, y = threadIdx.y;
  owner[y][x] = out[y * 8 + x];
  __syncthreads();
  for (int k = 0; k < 8; ++k) {
    if (owner[y][x] == 0)
      if (owner[y][k] != 0)
        owner[y][x] = k + 1;
    __syncthreads();
  }
  out[y * 8 + x] = owner[y][x];
}
// Asking the next row instead, nothing contradicts: its owners may store it.
__global__ void claimFromNextRow(int *out) {
  __shared__ int owner[8][8];
  int x = threadIdx.x, y = threadIdx.y;
  owner[y][x] = out[y * 8 + x];
  __syncthreads();
  for (int k = 0; k < 8; ++k) {
    if (owner[y][x] == 0)
      if (owner[(y + 1) % 8][x] != 0)
        owner[y][x] = k + 1;
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: data race on __shared__ 'owner': thread (0, 0) writes owner[0][0] while thread (0, 7) reads it, with no block barrier between the two accesses [cuda-shared-memory-race]
    __syncthreads();
  }
  out[y * 8 + x] = owner[y][x];
}
void launchClaims(int *out) {
  claimColumns<<<1, dim3(8, 8)>>>(out);
  claimFromNextRow<<<1, dim3(8, 8)>>>(out);
}
