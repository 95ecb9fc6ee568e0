// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// Blocks of 4 x 8 x n threads: a warp is one z-plane, four lanes per row.
// threadIdx.z is then the same in the whole warp, and threadIdx.x is the
// lane mod 4. A loop `for (r = threadIdx.x; r < blockDim.z; r += 4)` gives
// every lane the same trip count when blockDim.z is a multiple of 4; here
// the launch makes it 768/32 or 1024/32, a multiple of 8, so the full-mask
// shuffles in it are fine. The same kernel launched with a z extent of
// unknown factor, or in 4 x 4 planes (two planes per warp), is found.

#include <cassert>

template <int Rows>
__global__ void planeSums(float *out, const float *partial) {
  assert(blockDim.x == 4);
  assert(blockDim.y == Rows);
  const int lane = threadIdx.x;
  const int row = threadIdx.y;
  float sum = 0.f;
  for (int k = threadIdx.z; k < 8; k += blockDim.z) {
    for (int r = lane; r < blockDim.z; r += 4) {
      float v = partial[(k * 32 + r) * Rows + row];
      v += __shfl_down_sync(0xffffffff, v, 1, 4);
      v += __shfl_down_sync(0xffffffff, v, 2, 4);
      sum += v;
    }
  }
  if (lane == 0)
    out[blockIdx.x * Rows + row] = sum;
}

__global__ void anyDepth(float *out, const float *partial) {
  assert(blockDim.x == 4);
  assert(blockDim.y == 8);
  float sum = 0.f;
  for (int r = threadIdx.x; r < blockDim.z; r += 4)
    sum += __shfl_down_sync(0xffffffff, partial[r], 1, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
  out[threadIdx.x] = sum;
}

__global__ void halfPlanes(float *out, const float *partial) {
  assert(blockDim.x == 4);
  assert(blockDim.y == 4);
  float sum = 0.f;
  for (int k = threadIdx.z; k < 8; k += blockDim.z)
    sum += __shfl_down_sync(0xffffffff, partial[k], 1, 4);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
  out[threadIdx.x] = sum;
}

void launch(float *out, const float *partial, int planes, bool wide) {
  const int blockSize = wide ? 1024 : 768;
  dim3 block = {4, 8, (unsigned)blockSize / 32};
  planeSums<8><<<planes, block>>>(out, partial);
  anyDepth<<<planes, dim3(4, 8, planes)>>>(out, partial);
  halfPlanes<<<planes, dim3(4, 4, 8)>>>(out, partial);
}
