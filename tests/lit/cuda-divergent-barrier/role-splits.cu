// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A block split by whole warps into roles, each running its own copy of the
// block's barriers: the k-th barrier of one role completes with the k-th of
// the other (bar.sync counts arrivals). Matched counts on a warp-aligned
// split are fine; a count that differs, or a split inside a warp (which
// synccheck reports and -G builds hang on, on an H200), is not.

// Fillers (the first 256 threads, eight whole warps) run two barriers and
// leave; the others run two barriers in the rest of the function.
template <int Fillers>
__device__ void fillThenCount(int *out, int *counts, int n) {
  __shared__ int total[1];
  if (threadIdx.x < Fillers) {
    for (int i = threadIdx.x; i < n; i += Fillers)
      out[i] = -1;
    __syncthreads();
    __syncthreads();
    return;
  }
  int t = threadIdx.x - Fillers;
  if (t == 0)
    total[0] = 0;
  __syncthreads();
  atomicAdd(&total[0], counts[t]);
  __syncthreads();
  if (t == 0)
    out[0] = total[0];
}

__global__ void fillThenCountKernel(int *out, int *counts, int n) {
  fillThenCount<256>(out, counts, n);
}

// The same roles written as if/else in a kernel: one barrier each.
__global__ void producerConsumer(float *out, const float *in) {
  __shared__ float stage[128];
  const int warp = threadIdx.x / 32;
  if (warp < 4) {
    stage[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
  } else {
    __syncthreads();
    out[threadIdx.x] = stage[threadIdx.x - 128];
  }
}

// An if/else inside one role that runs one barrier on either arm keeps the
// count exact.
__global__ void equalArms(int *out, int mode) {
  if (threadIdx.x < 64) {
    if (mode > 0) {
      out[threadIdx.x] = 1;
      __syncthreads();
    } else {
      __syncthreads();
    }
    return;
  }
  __syncthreads();
  out[threadIdx.x] = 2;
}

// Counts differ: the first eight warps run one barrier, the others two.
__global__ void unequalCounts(int *out) {
  // One cause, one finding (GroupByCause): the first barrier, with a note
  // at the condition and one at each of the other two.
  if (threadIdx.x < 256) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-4]]:7: note: the same divergence also reaches 2 more barriers; this finding stands for all of them (GroupByCause)
    // CHECK-NOTES: :[[@LINE+2]]:5: note: '__syncthreads()' is also reached under it
  } else {
    __syncthreads();
    out[threadIdx.x] = 1;
    // CHECK-NOTES: :[[@LINE+1]]:5: note: '__syncthreads()' is also reached under it
    __syncthreads();
  }
}

// Equal counts, but the split cuts warp 1 in two (threadIdx.x < 48): one
// warp runs two barrier instructions. The probe of this shape reports
// "Divergent thread(s) in block" under synccheck at -O3 and hangs at -G.
__global__ void splitInsideAWarp(float *out) {
  if (threadIdx.x < 48) {
    out[threadIdx.x] = 1.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the same divergence also reaches 1 more barrier; this finding stands for all of them (GroupByCause)
    // CHECK-NOTES: :[[@LINE+2]]:5: note: '__syncthreads()' is also reached under it
  } else {
    __syncthreads();
  }
}

// A barrier in a loop of one role runs a data-dependent number of times:
// no exact count, still reported. (The barrier after the return is the
// potential tier's: the leavers exit for good and nobody reads what they
// wrote.)
__global__ void loopInOneRole(int *out, int n) {
  if (threadIdx.x < 128) {
    for (int i = 0; i < n; ++i)
      __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    return;
  }
  __syncthreads();
  out[threadIdx.x] = n;
}

// A second exit inside the staying role: its threads leave having run no
// barrier, so the counts are not exact.
__global__ void earlyExitInsideARole(int *out, int n) {
  if (threadIdx.x < 32) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    return;
  }
  if (out[threadIdx.x] > n)
    return;
  __syncthreads();
}
