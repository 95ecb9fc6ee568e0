// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.GroupByCause: false}}"
// (Every call is its own case of how a mask parameter is bound, under one
// branch: GroupByCause would make them one finding; one-finding-per-cause.cu
// tests that.)
// A project's own wrappers pass the mask on as a parameter, often with a
// full-mask default (moderngpu's `ballot(int, unsigned mask = MEMBERMASK)`,
// FBGEMM's `shfl_xor(v, lane, mask = kFullWarpMask)`). Such an intrinsic is a
// full-mask one at each call that leaves the default or passes a full mask
// (a macro, a constexpr or const global, a constant), also through a second
// wrapper that passes its own parameter on; a call that passes half a mask
// is not. A wrapper that diverges on its own is reported at the call that
// makes its mask full.

#define MEMBERMASK 0xffffffff
constexpr unsigned kFullWarpMask = 0xffffffffu;
const unsigned kGlobalMask = 0xffffffffu;

__device__ int ballot(int p, unsigned mask = MEMBERMASK) { return __ballot_sync(mask, p); }
template <typename T>
__device__ T shflXor(T v, int lane, unsigned mask = kFullWarpMask) { return __shfl_xor_sync(mask, v, lane); }
__device__ int anyOf(int p, unsigned mask) { return __any_sync(mask, p); }
__device__ int anyOfForwarded(int p, unsigned mask) { return anyOf(p, mask); }
__device__ int lowHalfVote(int p, unsigned mask = MEMBERMASK) {
  if (threadIdx.x % 32 < 16)
    return __any_sync(mask, p);
  return 0;
}

__global__ void votes(int *out, const int *in) {
  int i = threadIdx.x;
  if (in[i] > 0) {
    out[0] = ballot(in[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'ballot' reaches '__ballot_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
    out[1] = shflXor(in[i], 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'shflXor' reaches '__shfl_xor_sync' with a full warp mask under control flow that diverges within the warp (branch)
    out[2] = anyOf(in[i], kGlobalMask);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'anyOf' reaches '__any_sync' with a full warp mask under control flow that diverges within the warp (branch)
    out[3] = anyOf(in[i], MEMBERMASK);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'anyOf' reaches '__any_sync' with a full warp mask under control flow that diverges within the warp (branch)
    out[4] = anyOfForwarded(in[i], ~0u);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'anyOfForwarded' reaches '__any_sync' with a full warp mask under control flow that diverges within the warp (branch)
    out[5] = anyOf(in[i], 0x0000ffffu);
    out[6] = ballot(in[i], 0x0000ffffu);
    out[7] = anyOfForwarded(in[i], 0x0000ffffu);
  }
  out[8] = lowHalfVote(in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: call to 'lowHalfVote' reaches '__any_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  out[9] = lowHalfVote(in[i], 0x0000ffffu);
  // Converged: every lane calls, so a full mask is right.
  out[10] = ballot(in[i]);
}
