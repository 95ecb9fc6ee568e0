// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Barriers inside branches whose condition differs between the threads of a
// block. Each kernel is one shape; the notes name the condition and where
// its thread-dependent value comes from.

// The shape measured on an H200: completes, synccheck reports nothing; the
// threads outside the branch are counted as arrived and the tile read after
// the barrier is stale for them.
__global__ void guardedTile(float *out, const float *in, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:7: note: 'i' depends on 'threadIdx.x'
    out[i] = tile[(threadIdx.x + 1) % blockDim.x];
  }
}

// A bound that is a multiple of the warp size is still not uniform across
// the block: warps 0-3 enter, the others do not.
__global__ void warpAlignedBound(int *out) {
  __shared__ int s[256];
  if (threadIdx.x < 128) {
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    out[threadIdx.x] = s[127 - threadIdx.x];
  }
}

// Split barriers: each arm has its own __syncthreads(). On an H200 at -O3
// synccheck reports "Divergent thread(s) in block"; built with -G it hangs.
__global__ void splitBarriers(int *out, int x) {
  int t = threadIdx.x;
  if (t < 48) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: 't' depends on 'threadIdx.x'
    // CHECK-NOTES: :[[@LINE-5]]:7: note: the same divergence also reaches 1 more barrier; this finding stands for all of them (GroupByCause)
    // CHECK-NOTES: :[[@LINE+2]]:5: note: '__syncthreads()' is also reached under it
  } else {
    __syncthreads();
  }
  out[t] = x;
}

// The counting barriers are barriers too.
__global__ void countUnderBranch(const int *flags, int *out) {
  int v = flags[blockIdx.x * blockDim.x + threadIdx.x];
  if (v != 0) {
    int c = __syncthreads_count(v > 1);
    // CHECK-NOTES: :[[@LINE-1]]:13: warning: '__syncthreads_count()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-5]]:7: note: 'v' depends on 'threadIdx.x'
    out[blockIdx.x] = c;
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

__global__ void andOrUnderBranch(const int *flags, int *out) {
  unsigned lane = threadIdx.x % 32;
  if (lane == 0)
    out[0] = __syncthreads_and(flags[threadIdx.x]);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: '__syncthreads_and()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:12: note: 'lane' depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-5]]:7: note: the same divergence also reaches 1 more barrier; this finding stands for all of them (GroupByCause)
  // CHECK-NOTES: :[[@LINE+2]]:14: note: '__syncthreads_or()' is also reached under it
  else
    out[1] = __syncthreads_or(flags[threadIdx.x]);
}

// A uniform branch nested in a divergent one is divergent all the same; the
// note points at the branch that splits the block.
__global__ void nestedUniformInsideDivergent(float *out, int n) {
  if (threadIdx.x % 2 == 0) {
    if (n > 16) {
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    }
  }
  out[threadIdx.x] = n;
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// Short-circuit operators branch too: the right operand of && runs only
// where the left one is true.
__global__ void shortCircuit(const int *flags, int *out) {
  bool lead = threadIdx.x < 8;
  if (lead && __syncthreads_or(flags[threadIdx.x]))
    // CHECK-NOTES: :[[@LINE-1]]:15: warning: '__syncthreads_or()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-2]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-4]]:8: note: 'lead' depends on 'threadIdx.x'
    out[0] = 1;
}

// A value assigned on both arms of a divergent branch differs where the arms
// meet, even though each arm assigns a constant.
__global__ void syncDivergentFlag(int *out) {
  int phase;
  if (threadIdx.x < 64)
    phase = 1;
  else
    phase = 2;
  if (phase == 1) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-9]]:7: note: 'phase' is assigned under a condition that is not uniform across the block
  }
  out[threadIdx.x] = phase;
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// A flag in global memory that other blocks set while this one runs, read
// through volatile: each thread may see a different value.
__global__ void volatileGlobalFlag(volatile int *abort, float *out) {
  int seen = *abort;
  if (!seen) {
    out[threadIdx.x] = 1.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: this condition is not uniform across the block
    // CHECK-NOTES: :[[@LINE-6]]:7: note: 'seen' depends on a volatile load
  }
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}

// Not a barrier: work for thread 0 only, with the barrier after the branch.
__global__ void leaderOnlyWork(int *out, int *counter) {
  __shared__ int base;
  if (threadIdx.x == 0)
    base = atomicAdd(counter, blockDim.x);
  __syncthreads();
  out[base + threadIdx.x] = threadIdx.x;
}
