// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// Index arithmetic that names the warp rather than the thread: the first
// thread of the warp (`tid - lane`, `tid & ~31`) and the linear index
// spelled with the block's constant row width (`threadIdx.x + 16 *
// threadIdx.y` in blocks 16 wide) shifted by 5. A branch on them is taken
// by whole warps, so a full-mask intrinsic under it is well defined. The
// same arithmetic that keeps a thread's own bits stays divergent. (Each
// kernel meets a collective after its branch, or shuffles after its exit,
// so that a divergent finding would be definite.)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ unsigned laneOf() { return threadIdx.x & 0x1f; }

// Whole warps leave when the warp's first key is past the end.
__global__ void warpBaseMinusLane(const unsigned *keys, unsigned *out,
                                  unsigned n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned lane = laneOf();
  if ((tid - lane) >= n)
    return;
  unsigned key = tid < n ? keys[tid] : 0u;
  key += __shfl_down_sync(FULL_MASK, key, 16);
  out[tid] = key;
}

// The same with the lane masked off.
__global__ void warpBaseMasked(const unsigned *keys, unsigned *out,
                               unsigned n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  if ((tid & ~31u) >= n)
    return;
  unsigned v = tid < n ? keys[tid] : 0u;
  v += __shfl_xor_sync(FULL_MASK, v, 1);
  out[tid] = v;
}

// `tid & ~31` rests on the same fact as `tid >> 5`: blockDim.x keeps the
// low five bits of `blockIdx.x * blockDim.x` clear (the launch above; with
// no launch, the tier of the finding says so, as for `>> 5`).

// Keeping the low bits (`tid & 31` compared, `tid - 1`) is still per thread.
__global__ void laneBitsStayDivergent(const unsigned *keys, unsigned *out,
                                      unsigned n) {
  unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  if ((tid - 1) >= n)
    return;
  unsigned v = keys[tid];
  v += __shfl_xor_sync(FULL_MASK, v, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
  out[tid] = v;
}

// 16 x 16 blocks: the linear index spelled with the constant 16.
constexpr unsigned RowWidth = 16;
__global__ void constantRowWidth(const unsigned *flags, unsigned *out) {
  unsigned tid = threadIdx.x + RowWidth * threadIdx.y;
  unsigned warp = tid >> 5;
  if (warp < 4) {
    unsigned votes = __ballot_sync(FULL_MASK, flags[tid] != 0);
    out[warp] = votes;
  }
  __syncwarp();
}

// 4 x 4 x 8 blocks, in Horner form.
__global__ void constantPlaneWidth(const unsigned *flags, unsigned *out) {
  unsigned warp =
      (threadIdx.x + 4 * (threadIdx.y + 4 * threadIdx.z)) >> 5;
  if (warp == 0) {
    unsigned votes = __ballot_sync(FULL_MASK, flags[threadIdx.x] != 0);
    out[blockIdx.x] = votes;
  }
  __syncwarp();
}

// A constant that is not the row width is no linear index.
__global__ void wrongRowWidth(const unsigned *flags, unsigned *out) {
  unsigned tid = threadIdx.x + 8 * threadIdx.y;
  if ((tid >> 5) < 4) {
    unsigned votes = __ballot_sync(FULL_MASK, flags[tid] != 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: '__ballot_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    out[tid] = votes;
  }
  // Every lane meets this one: the lanes that skipped the branch stay.
  __syncwarp();
}

int main() {
  unsigned *keys = nullptr, *out = nullptr;
  warpBaseMinusLane<<<64, 256>>>(keys, out, 1000);
  warpBaseMasked<<<64, 256>>>(keys, out, 1000);
  constantRowWidth<<<64, dim3(16, 16)>>>(keys, out);
  constantPlaneWidth<<<64, dim3(4, 4, 8)>>>(keys, out);
  wrongRowWidth<<<64, dim3(16, 16)>>>(keys, out);
  return 0;
}
