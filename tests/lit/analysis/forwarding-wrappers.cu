// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.AssumeBlockDimXMultipleOf32: true}}" -- -std=c++17
// Projects wrap the warp intrinsics in one-line helpers whose width and
// mask are parameters with defaults (FBGEMM's `shfl_sync(val, srcLane = 0,
// width = kWarpSize, mask = kFullWarpMask)`, PyTorch's WARP_SHFL). Inside
// the helper the width is unknown; at each call it is what the call passes
// or leaves to the default. A broadcast through such a helper is then the
// same in every lane, as `__shfl_sync` written at the call is, and a loop
// that leaves on it leaves with the whole warp.

constexpr int kWarpSize = 32;
constexpr unsigned kFullMask = 0xffffffffu;

template <typename T>
__device__ __forceinline__ T broadcast(const T val, int srcLane = 0,
                                       int width = kWarpSize,
                                       unsigned mask = kFullMask) {
  return __shfl_sync(mask, val, srcLane, width);
}

template <typename T>
__device__ __forceinline__ T butterfly(const T val, int laneMask,
                                       int width = kWarpSize,
                                       unsigned mask = kFullMask) {
  return __shfl_xor_sync(mask, val, laneMask, width);
}

// A helper of a helper, with a cast on the way.
template <typename T>
__device__ __forceinline__ T broadcastFirst(const T val) {
  return broadcast<T>(val, 0, static_cast<int>(kWarpSize));
}

// Every lane scans the sorted costs of its warp's slots; the loop leaves
// when the broadcast cost of slot l is the current time: the same l in
// every lane.
__global__ void insertRows(const long *costs, long now, long *out) {
  long mine = costs[blockIdx.x * 32 + threadIdx.x];
  for (int l = 0; l < 32; ++l) {
    long slotCost = broadcast(mine, l);
    if (slotCost == now)
      break;
    out[blockIdx.x * 32 + l] = broadcast(mine + 1, l);
  }
  if (broadcastFirst(mine) > now)
    return;
  out[threadIdx.x] = butterfly(mine, 1);
}

// The width is a run-time argument here: a segment of `width` lanes
// broadcasts from its own first lane, so the value differs between
// segments of one warp, and leaving on it splits the warp.
__global__ void insertSegments(const long *costs, long now, long *out,
                               int width) {
  long mine = costs[blockIdx.x * 32 + threadIdx.x];
  for (int l = 0; l < 32; ++l) {
    long slotCost = broadcast(mine, l, width);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: call to 'broadcast' reaches '__shfl_sync' with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
    if (slotCost == now)
      break;
    out[blockIdx.x * 32 + l] = broadcast(mine + 1, l);
  }
}

// A butterfly exchange differs from lane to lane whatever its width:
// leaving on it splits the warp.
__global__ void leaveOnExchange(const long *costs, long now, long *out) {
  long mine = costs[blockIdx.x * 32 + threadIdx.x];
  if (butterfly(mine, 1) == now)
    return;
  out[threadIdx.x] = broadcast(mine, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: call to 'broadcast' reaches '__shfl_sync' with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
}
