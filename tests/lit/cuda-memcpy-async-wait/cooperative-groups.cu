// RUN: %check_cuda_tidy %s cuda-memcpy-async-wait %t
// cg::memcpy_async and its waits: a read or a write of the destination before
// cg::wait, a wait on one path only, wait_prior<N> leaving the newest N
// copies in flight, a loop whose copy for the next iteration is read at the
// top before the wait, a copy read through a local pointer, in a __device__
// function. Quiet: the read after the wait, a helper that waits, the older
// stages after wait_prior<N>, another constant row than the one copied, a
// ring of stages indexed by the loop (which slot a staged copy fills is a
// runtime value), a wait on the tile that copied.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
#define N 256

__global__ void readBeforeWait(const float *in, float *out) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * N, sizeof(float) * N);
  float v = tile[(threadIdx.x + 1) % N];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: read of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  cg::wait(block);
  out[threadIdx.x] = v;
}

__global__ void readAfterWait(const float *in, float *out) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * N, sizeof(float) * N);
  cg::wait(block);
  out[threadIdx.x] = tile[(threadIdx.x + 1) % N];
}

__global__ void writeBeforeWait(const float *in, float *out) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * N);
  tile[threadIdx.x] = 0.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  cg::wait(block);
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void waitOnOnePath(const float *in, float *out, int n) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * N);
  if (n > 4)
    cg::wait(block);
  out[threadIdx.x] = tile[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  cg::wait(block);
}

__global__ void olderStageAfterWaitPrior(const float *in, float *out) {
  __shared__ float first[N], second[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, first, in, sizeof(float) * N);
  cg::memcpy_async(block, second, in + N, sizeof(float) * N);
  cg::wait_prior<1>(block);
  float a = first[threadIdx.x];
  cg::wait(block);
  out[threadIdx.x] = a + second[threadIdx.x];
}

__global__ void newestStageAfterWaitPrior(const float *in, float *out) {
  __shared__ float first[N], second[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, first, in, sizeof(float) * N);
  cg::memcpy_async(block, second, in + N, sizeof(float) * N);
  cg::wait_prior<1>(block);
  out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: read of 'second' while the cooperative_groups::memcpy_async into it may still be in flight: the wait before it completes older stages and leaves this copy's stage in flight [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the copy into 'second'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: this wait leaves the newest stages in flight (a wait on N keeps the last N)
  cg::wait(block);
}

__global__ void threeStagesKeepTwo(const float *in, float *out) {
  __shared__ float a[N], b[N], c[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, a, in, sizeof(float) * N);
  cg::memcpy_async(block, b, in + N, sizeof(float) * N);
  cg::memcpy_async(block, c, in + 2 * N, sizeof(float) * N);
  cg::wait_prior<2>(block);
  float x = a[threadIdx.x];
  float y = b[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: read of 'b' while the cooperative_groups::memcpy_async into it may still be in flight: the wait before it completes older stages and leaves this copy's stage in flight [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: the copy into 'b'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  // CHECK-NOTES: :[[@LINE-5]]:3: note: this wait leaves the newest stages in flight (a wait on N keeps the last N)
  cg::wait(block);
  out[threadIdx.x] = x + y + c[threadIdx.x];
}

__global__ void copyInLoopReadBeforeWait(const float *in, float *out, int steps) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  float acc = 0.0f;
  for (int s = 0; s < steps; ++s) {
    cg::memcpy_async(block, tile, in + s * N, sizeof(float) * N);
    acc += tile[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
    cg::wait(block);
    block.sync();
  }
  out[threadIdx.x] = acc;
}

__global__ void nextIterationReadsEarly(const float *in, float *out, int steps) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  float acc = 0.0f;
  for (int s = 0; s < steps; ++s) {
    acc += tile[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: read of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
    // CHECK-NOTES: :[[@LINE+2]]:5: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
    block.sync();
    cg::memcpy_async(block, tile, in + s * N, sizeof(float) * N);
  }
  cg::wait(block);
  out[threadIdx.x] = acc;
}

__global__ void otherConstantRow(const float *in, float *out) {
  __shared__ float rows[2][N];
  cg::thread_block block = cg::this_thread_block();
  rows[1][threadIdx.x] = 1.0f;
  cg::memcpy_async(block, rows[0], in, sizeof(float) * N);
  float b = rows[1][threadIdx.x];
  cg::wait(block);
  out[threadIdx.x] = rows[0][threadIdx.x] + b;
}

__global__ void ringOfStages(const float *in, float *out, int steps) {
  __shared__ float ring[2][N];
  cg::thread_block block = cg::this_thread_block();
  float acc = 0.0f;
  cg::memcpy_async(block, ring[0], in, sizeof(float) * N);
  for (int s = 0; s < steps; ++s) {
    if (s + 1 < steps) {
      cg::memcpy_async(block, ring[(s + 1) % 2], in + (s + 1) * N, sizeof(float) * N);
      cg::wait_prior<1>(block);
    } else {
      cg::wait(block);
    }
    acc += ring[s % 2][threadIdx.x];
    block.sync();
  }
  out[threadIdx.x] = acc;
}

__device__ void finishCopies(const cg::thread_block &block) { cg::wait(block); }

__global__ void helperWaits(const float *in, float *out) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * N);
  finishCopies(block);
  out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void throughLocalPointer(const float *in, float *out) {
  __shared__ float tile[N];
  float *view = tile + 0;
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * N);
  out[threadIdx.x] = view[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  cg::wait(block);
}

__device__ float stageAndSum(const cg::thread_block &block, float *buffer,
                             const float *in) {
  cg::memcpy_async(block, buffer, in, sizeof(float) * N);
  float v = buffer[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: read of 'buffer' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the copy into 'buffer'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
  cg::wait(block);
  return v;
}

__global__ void callsStageAndSum(const float *in, float *out) {
  __shared__ float tile[N];
  out[threadIdx.x] = stageAndSum(cg::this_thread_block(), tile, in);
}

__global__ void waitOnTheTile(const float *in, float *out) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float *mine = &tile[warp.meta_group_rank() * 32];
  cg::memcpy_async(warp, mine, in + warp.meta_group_rank() * 32, sizeof(float) * 32);
  cg::wait(warp);
  out[threadIdx.x] = mine[warp.thread_rank()];
}

// A loop with no condition and a break: its CFG has an edge to nothing.
__global__ void foreverLoopWithBreak(const float *in, float *out, int n) {
  __shared__ float tile[N];
  cg::thread_block block = cg::this_thread_block();
  for (int step = blockIdx.x;; step += gridDim.x) {
    if (step >= n)
      break;
    cg::memcpy_async(block, tile, in + step * N, sizeof(float) * N);
    out[step * N + threadIdx.x] = tile[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:35: warning: read of 'tile' while the cooperative_groups::memcpy_async into it may still be in flight: no wait completes the copy on a path from it to here [cuda-memcpy-async-wait]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the copy into 'tile'; it is complete after cooperative_groups::wait(group) or wait_prior<N>(group)
    cg::wait(block);
  }
}
