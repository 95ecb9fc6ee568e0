// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// Real idioms with and without their barriers: Hillis-Steele scans (double
// buffered, and in place, where the read of tid - offset and that thread's
// update meet in one step), a tile transpose, a 1-D convolution with halo
// cells written by the edge threads, a bitonic sort, a softmax row whose
// maximum thread 0 publishes, and a cooperative-groups block reduction.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define B 256
// Hillis-Steele scan, double-buffered with barriers: quiet.
__global__ void scanDouble(float *out, const float *in) {
  __shared__ float buf[2][B];
  int tid = threadIdx.x;
  int pout = 0, pin = 1;
  buf[pout][tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < B; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    else
      buf[pout][tid] = buf[pin][tid];
    __syncthreads();
  }
  out[tid] = buf[pout][tid];
}
// In-place scan with one barrier per step: the read of tid - offset races
// with that thread's write in the same step.
__global__ void scanInPlace(float *out, const float *in) {
  __shared__ float s[B];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < B; offset *= 2) {
    float v = tid >= offset ? s[tid - offset] : 0.0f;
    s[tid] += v;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: data race on __shared__ 's': thread 0 updates s[0] while thread 32 reads it, with no block barrier between the two accesses [cuda-shared-memory-race]
    __syncthreads();
  }
  out[tid] = s[tid];
}
// The fixed in-place scan: a barrier between the read and the write.
__global__ void scanInPlaceFixed(float *out, const float *in) {
  __shared__ float s[B];
  int tid = threadIdx.x;
  s[tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < B; offset *= 2) {
    float v = tid >= offset ? s[tid - offset] : 0.0f;
    __syncthreads();
    s[tid] += v;
    __syncthreads();
  }
  out[tid] = s[tid];
}
#define TD 32
#define RB 8
// Transpose through a tile: the column read needs the barrier.
__global__ void transposeNoBarrier(float *out, const float *in, int w) {
  __shared__ float tile[TD][TD + 1];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += RB)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  x = blockIdx.y * TD + threadIdx.x;
  y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += RB)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: data race on __shared__ 'tile': thread (1, 0) reads tile[1][0] while thread (0, 1) writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void transpose(float *out, const float *in, int w) {
  __shared__ float tile[TD][TD + 1];
  int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
  for (int j = 0; j < TD; j += RB)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TD + threadIdx.x;
  y = blockIdx.x * TD + threadIdx.y;
  for (int j = 0; j < TD; j += RB)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}
void launchTranspose(float *o, const float *i, int w) {
  transposeNoBarrier<<<dim3(w / TD, w / TD), dim3(TD, RB)>>>(o, i, w);
  transpose<<<dim3(w / TD, w / TD), dim3(TD, RB)>>>(o, i, w);
}
#define R 3
// 1-D convolution with halo: the halo cells are written by the edge threads.
__global__ void convNoBarrier(float *out, const float *in, const float *k) {
  __shared__ float s[B + 2 * R];
  int tid = threadIdx.x, g = blockIdx.x * B + tid;
  s[tid + R] = in[g];
  if (tid < R) {
    s[tid] = g >= R ? in[g - R] : 0.0f;
    s[tid + B + R] = in[g + B];
  }
  float acc = 0;
  for (int j = -R; j <= R; ++j)
    acc += k[j + R] * s[tid + R + j];
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: data race on __shared__ 's': thread 29 reads s[35] while thread 32 writes it, with no block barrier between the two accesses (2 conflicting pairs of accesses to 's' in this barrier interval) [cuda-shared-memory-race]
  out[g] = acc;
}
__global__ void conv(float *out, const float *in, const float *k) {
  __shared__ float s[B + 2 * R];
  int tid = threadIdx.x, g = blockIdx.x * B + tid;
  s[tid + R] = in[g];
  if (tid < R) {
    s[tid] = g >= R ? in[g - R] : 0.0f;
    s[tid + B + R] = in[g + B];
  }
  __syncthreads();
  float acc = 0;
  for (int j = -R; j <= R; ++j)
    acc += k[j + R] * s[tid + R + j];
  out[g] = acc;
}
// Bitonic sort step with and without the barrier.
__global__ void bitonic(float *data) {
  __shared__ float s[B];
  unsigned tid = threadIdx.x;
  s[tid] = data[tid];
  __syncthreads();
  for (unsigned k = 2; k <= B; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        bool up = (tid & k) == 0;
        float a = s[tid], b = s[ixj];
        if ((a > b) == up) { s[tid] = b; s[ixj] = a; }
      }
      __syncthreads();
    }
  data[tid] = s[tid];
}
__global__ void bitonicNoBarrier(float *data) {
  __shared__ float s[B];
  unsigned tid = threadIdx.x;
  s[tid] = data[tid];
  __syncthreads();
  for (unsigned k = 2; k <= B; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        bool up = (tid & k) == 0;
        float a = s[tid], b = s[ixj];
        if ((a > b) == up) { s[tid] = b; s[ixj] = a; }
        // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: data race on __shared__ 's': thread 0 writes s[32] while thread 32 reads it, with no block barrier between the two accesses (in different iterations of the loop: it has no barrier on its way back) (6 conflicting pairs of accesses to 's' in this barrier interval) [cuda-shared-memory-race]
      }
    }
  data[tid] = s[tid];
}
// Softmax row: warp partial maxima through shared memory.
__global__ void softmaxRow(float *out, const float *in, int n) {
  __shared__ float partial[B / 32];
  __shared__ float rowMax;
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  float m = -1e30f;
  for (int i = tid; i < n; i += B) m = fmaxf(m, in[blockIdx.x * n + i]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0) partial[warp] = m;
  __syncthreads();
  if (tid == 0) {
    float r = partial[0];
    for (int w = 1; w < B / 32; ++w) r = fmaxf(r, partial[w]);
    rowMax = r;
  }
  __syncthreads();
  for (int i = tid; i < n; i += B) out[blockIdx.x * n + i] = __expf(in[blockIdx.x * n + i] - rowMax);
}
__global__ void softmaxRowNoBarrier(float *out, const float *in, int n) {
  __shared__ float partial[B / 32];
  __shared__ float rowMax;
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  float m = -1e30f;
  for (int i = tid; i < n; i += B) m = fmaxf(m, in[blockIdx.x * n + i]);
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
  if (lane == 0) partial[warp] = m;
  __syncthreads();
  if (tid == 0) {
    float r = partial[0];
    for (int w = 1; w < B / 32; ++w) r = fmaxf(r, partial[w]);
    rowMax = r;
  }
  for (int i = tid; i < n; i += B) out[blockIdx.x * n + i] = __expf(in[blockIdx.x * n + i] - rowMax);
  // CHECK-MESSAGES: :[[@LINE-1]]:94: warning: data race on __shared__ 'rowMax': thread 32 reads rowMax while thread 0 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
// Layernorm mean through a CG block reduction: quiet.
__global__ void layerMean(float *out, const float *in, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float sum[B];
  sum[threadIdx.x] = in[blockIdx.x * B + threadIdx.x];
  block.sync();
  for (int s = B / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) sum[threadIdx.x] += sum[threadIdx.x + s];
    block.sync();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sum[0] / B;
}
// The right halo is read by the block's last threads: the launch gives B.
void launchConv(float *out, const float *in, const float *k, int n) {
  convNoBarrier<<<n / B, B>>>(out, in, k);
}
