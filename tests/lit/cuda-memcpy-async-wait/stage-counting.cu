// RUN: %check_cuda_tidy %s cuda-memcpy-async-wait %t
// Stage counting: a commit with no copy on its path is still a stage (the
// wait counts stay right), and many paths through copies and waits do not
// blur which copy is the newest. Quiet throughout, except the last kernel,
// whose wait_prior<1> leaves the copy it then reads in flight.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

__global__ void emptyCommitCounts(const float *in, float *out, int n) {
  __shared__ float first[256], second[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&first[threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  if (n > 0)
    cuda::memcpy_async(&second[threadIdx.x], &in[256 + threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<1>(pipe);
  out[threadIdx.x] = first[threadIdx.x];
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  out[256 + threadIdx.x] = second[threadIdx.x];
}

__global__ void manyPaths(const float *in, float *out, int n) {
  __shared__ float a[256], b[256];
  cg::thread_block block = cg::this_thread_block();
  float acc = 0.0f;
  if (n > 0) {
    cg::memcpy_async(block, a, in + 0, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 256, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 1) {
    cg::memcpy_async(block, a, in + 512, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 768, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 2) {
    cg::memcpy_async(block, a, in + 1024, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 1280, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 3) {
    cg::memcpy_async(block, a, in + 1536, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 1792, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 4) {
    cg::memcpy_async(block, a, in + 2048, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 2304, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 5) {
    cg::memcpy_async(block, a, in + 2560, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 2816, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 6) {
    cg::memcpy_async(block, a, in + 3072, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 3328, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 7) {
    cg::memcpy_async(block, a, in + 3584, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 3840, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 8) {
    cg::memcpy_async(block, a, in + 4096, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 4352, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 9) {
    cg::memcpy_async(block, a, in + 4608, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 4864, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 10) {
    cg::memcpy_async(block, a, in + 5120, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 5376, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  if (n > 11) {
    cg::memcpy_async(block, a, in + 5632, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
    cg::memcpy_async(block, b, in + 5888, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += a[threadIdx.x];
  }
  cg::wait(block);
  out[threadIdx.x] = acc + b[threadIdx.x];
}

__global__ void newestReadAfterManyPaths(const float *in, float *out, int n) {
  __shared__ float a[256], b[256];
  cg::thread_block block = cg::this_thread_block();
  float acc = 0.0f;
  if (n > 0) {
    cg::memcpy_async(block, a, in, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
  }
  if (n > 1) {
    cg::memcpy_async(block, a, in, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
  }
  if (n > 2) {
    cg::memcpy_async(block, a, in, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
  }
  if (n > 3) {
    cg::memcpy_async(block, a, in, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    acc += b[threadIdx.x];
  }
  cg::memcpy_async(block, b, in, sizeof(float) * 256);
  cg::wait_prior<1>(block);
  out[threadIdx.x] = acc + b[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: read of 'b' while the cooperative_groups::memcpy_async into it may still be in flight: the wait before it completes older stages and leaves this copy's stage in flight [cuda-memcpy-async-wait]
  cg::wait(block);
}
