// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// A bound rounded to a multiple of the warp size by a helper function keeps
// whole warps together: the helper's one `return` is evaluated with the
// call's arguments (divergence/ReturnAlignment.h). A helper that does not
// round, or rounds to less than a warp, still splits warps.

template <typename U, typename V>
constexpr __host__ __device__ auto divDown(U a, V b) -> decltype(a + b) {
  return a / b;
}
template <typename U, typename V>
constexpr __host__ __device__ auto roundDown(U a, V b) -> decltype(a + b) {
  return divDown(a, b) * b;
}
template <typename U, typename V>
constexpr __host__ __device__ auto roundUp(U a, V b) -> decltype(a + b) {
  return (a + b - 1) / b * b;
}
__device__ int alignTo(int n, int shift) { return (n >> shift) << shift; }
__device__ int clampHalf(int n) { return n / 2; }

constexpr int kWarpSize = 32;

__global__ void roundedBound(const float *in, float *out, int n) {
  int limit = roundDown(n, kWarpSize);
  float v = 0;
  for (int i = threadIdx.x; i < limit; i += blockDim.x) {
    v = in[i];
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[i] = v;
  }
}

__global__ void roundedUpAndShifted(const float *in, float *out, int n) {
  int up = roundUp(n, 64);
  for (int i = threadIdx.x; i < up; i += blockDim.x)
    out[i] = __shfl_down_sync(0xffffffffu, in[i], 1);
  int shifted = alignTo(n, 5);
  for (int i = threadIdx.x; i < shifted; i += blockDim.x)
    out[i] = __shfl_down_sync(0xffffffffu, in[i], 2);
}

__global__ void notRoundedEnough(const float *in, float *out, int n) {
  int limit = roundDown(n, 16);
  for (int i = threadIdx.x; i < limit; i += blockDim.x)
    out[i] = __shfl_down_sync(0xffffffffu, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
  int half = clampHalf(n);
  for (int i = threadIdx.x; i < half; i += blockDim.x)
    out[i] = __shfl_down_sync(0xffffffffu, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '__shfl_down_sync' is called with a full warp mask under control flow that diverges within the warp (loop trip count): lanes that left the loop are named in the mask [cuda-full-warp-mask]
}
