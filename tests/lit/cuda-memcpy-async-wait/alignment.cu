// RUN: %check_cuda_tidy %s cuda-memcpy-async-wait %t
// cuda::aligned_size_t<N> promises N-byte aligned pointers. Flagged: a
// constant offset into an alignas(N) buffer that is not a multiple of N.
// Quiet: offsets that are (constants, and thread-dependent ones whose factor
// makes them so), offsets the tool cannot tell, and buffers not declared
// aligned (their own address decides).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

__global__ void pipelineOffsets(const float4 *src, float *out) {
  __shared__ alignas(16) float s[4][64];
  __shared__ float plain[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[0][1], src, cuda::aligned_size_t<16>(16), pipe);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::aligned_size_t<16> promises 16-byte aligned pointers, but the destination is 4 bytes past a 16-byte boundary: the copy is undefined [cuda-memcpy-async-wait]
  cuda::memcpy_async(&s[1][4], src, cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&s[2][threadIdx.x * 4], src + threadIdx.x, cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&s[3][threadIdx.x], src, cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&plain[1], src, cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 4][threadIdx.x % 64] + plain[threadIdx.x];
}

__global__ void groupOffset(const float *in, float *out) {
  __shared__ alignas(16) float tile[258];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile + 2, in, cuda::aligned_size_t<16>(sizeof(float) * 256));
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: cuda::aligned_size_t<16> promises 16-byte aligned pointers, but the destination is 8 bytes past a 16-byte boundary: the copy is undefined [cuda-memcpy-async-wait]
  cg::memcpy_async(block, tile, in, cuda::aligned_size_t<16>(sizeof(float) * 256));
  cg::wait(block);
  out[threadIdx.x] = tile[threadIdx.x];
}
