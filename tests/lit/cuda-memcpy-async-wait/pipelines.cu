// RUN: %check_cuda_tidy %s cuda-memcpy-async-wait %t
// cuda::memcpy_async through a cuda::pipeline or a cuda::barrier, and the
// __pipeline primitives. A thread-scope pipeline's waits complete only the
// calling thread's copies: a read of a cell another thread copied also needs
// a block barrier after the wait. Flagged: that read without the barrier, a
// read before the commit and the wait, the newest stage after
// pipeline_consumer_wait_prior<1>, the stage consumer_wait() did not
// complete, a read before arrive_and_wait(), the primitives read before
// __pipeline_wait_prior. Quiet: the same after the wait and the barrier, a
// thread reading the cell it copied itself, the oldest stage after
// consumer_wait(), the barrier's copy after arrive_and_wait().
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#define T 16

__global__ void waitThenBarrier(const float *a, float *out) {
  __shared__ float As[T][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int tx = threadIdx.x, ty = threadIdx.y;
  pipe.producer_acquire();
  cuda::memcpy_async(&As[ty][tx], &a[ty * T + tx], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < T; ++k)
    sum += As[ty][k];
  pipe.consumer_release();
  out[ty * T + tx] = sum;
}

__global__ void waitWithoutBarrier(const float *a, float *out) {
  __shared__ float As[T][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int tx = threadIdx.x, ty = threadIdx.y;
  pipe.producer_acquire();
  cuda::memcpy_async(&As[ty][tx], &a[ty * T + tx], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  float sum = 0.0f;
  for (int k = 0; k < T; ++k)
    sum += As[ty][k];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of 'As' may touch a cell another thread copied: the wait completes only this thread's copies, and no block barrier follows it [cuda-memcpy-async-wait]
    // CHECK-NOTES: :[[@LINE-7]]:3: note: the copy into 'As'; it is complete after producer_commit() then consumer_wait() on the pipeline
    // CHECK-NOTES: :[[@LINE-6]]:3: note: a __syncthreads() after this wait makes every thread's copies visible
  pipe.consumer_release();
  out[ty * T + tx] = sum;
}

__global__ void readsOwnCell(const float *a, float *out) {
  __shared__ float As[T][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&As[threadIdx.y][threadIdx.x], &a[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<0>(pipe);
  out[threadIdx.x] = As[threadIdx.y][threadIdx.x] * 2.0f;
}

__global__ void readBeforeCommit(const float *a, float *out) {
  __shared__ float s[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float), pipe);
  float early = s[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: read of 's' while the cuda::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the copy into 's'; it is complete after producer_commit() then consumer_wait() on the pipeline
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = early + s[threadIdx.x];
}

__global__ void waitPriorKeepsNewest(const float *a, float *out) {
  __shared__ float first[256], second[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&first[threadIdx.x], &a[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&second[threadIdx.x], &a[256 + threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  cuda::pipeline_consumer_wait_prior<1>(pipe);
  out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: read of 'second' while the cuda::memcpy_async into it may still be in flight: the wait before it completes older stages and leaves this copy's stage in flight [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the copy into 'second'; it is complete after producer_commit() then consumer_wait() on the pipeline
  // CHECK-NOTES: :[[@LINE-4]]:3: note: this wait leaves the newest stages in flight (a wait on N keeps the last N)
}

__global__ void consumerWaitIsOldestOnly(const float *a, float *out) {
  __shared__ float first[256], second[256];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&first[threadIdx.x], &a[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.producer_acquire();
  cuda::memcpy_async(&second[threadIdx.x], &a[256 + threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  float x = first[threadIdx.x];
  float y = second[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: read of 'second' while the cuda::memcpy_async into it may still be in flight: the wait before it completes older stages and leaves this copy's stage in flight [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the copy into 'second'; it is complete after producer_commit() then consumer_wait() on the pipeline
  // CHECK-NOTES: :[[@LINE-5]]:3: note: this wait leaves the newest stages in flight (a wait on N keeps the last N)
  pipe.consumer_release();
  out[threadIdx.x] = x + y;
}

__device__ float barrierCopy(cuda::barrier<cuda::thread_scope_block> &bar,
                             float *s, const float *a, bool early) {
  cuda::memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float), bar);
  float v = early ? s[threadIdx.x] : 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: read of 's' while the cuda::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the copy into 's'; it is complete after arrive_and_wait() on the barrier
  bar.arrive_and_wait();
  return v + s[(threadIdx.x + 1) % 256];
}

__global__ void primitivesWaited(const float *a, float *out) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void primitivesReadEarly(const float *a, float *out) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float));
  __pipeline_commit();
  float v = s[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: read of 's' while the __pipeline_memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the copy into 's'; it is complete after __pipeline_commit() then __pipeline_wait_prior(0)
  __pipeline_wait_prior(0);
  out[threadIdx.x] = v;
}

__global__ void primitivesNeighbour(const float *a, float *out) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of 's' may touch a cell another thread copied: the wait completes only this thread's copies, and no block barrier follows it [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the copy into 's'; it is complete after __pipeline_commit() then __pipeline_wait_prior(0)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a __syncthreads() after this wait makes every thread's copies visible
}

__global__ void primitivesNeighbourSynced(const float *a, float *out) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &a[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 1) % 256];
}
