// RUN: %check_cuda_tidy %s cuda-warp-mask-mismatch,cuda-full-warp-mask %t
// A shuffle's lanes read within their segment of `width` lanes: the mask
// must name the lanes they read. With an offset that changes (a loop over
// offsets), a segment the mask names only in part is read past its named
// lanes; with a known offset or source lane, the lanes read are computed.

__global__ void partSegmentInALoop(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 24)
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0x00ffffff, v, o, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: '__shfl_down_sync' is called with width 16 and mask 0x00ffffff, which names lanes 16–23 of the segment of lanes 16–31 and leaves out lanes 24–31: the lanes of a segment read one another as the offsets go [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void eightLanesWidthSixteen(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 8)
    for (int o = 4; o > 0; o /= 2)
      v += __shfl_xor_sync(0xff, v, o, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__shfl_xor_sync' is called with width 16 and mask 0x000000ff, which names lanes 0–7 of the segment of lanes 0–15 and leaves out lanes 8–15: the lanes of a segment read one another as the offsets go [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void knownOffsetReadsPastTheMask(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 24)
    v += __shfl_down_sync(0x00ffffff, v, 1, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__shfl_down_sync' is called with mask 0x00ffffff and width 16: lane 23 reads lane 24, which the mask leaves out; the value read is undefined [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

__global__ void broadcastFromOutside(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 16)
    v = __shfl_sync(0x0000ffff, v, 20);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '__shfl_sync' is called with mask 0x0000ffff: lanes 0–15 read lane 20, which the mask leaves out; the value read is undefined [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}

template <int Width>
__global__ void templateWidth(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 8)
    for (int o = Width / 2; o > 0; o /= 2)
      v += __shfl_xor_sync(0xff, v, o, Width);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '__shfl_xor_sync' is called with width 16 and mask 0x000000ff, which names lanes 0–7 of the segment of lanes 0–15 and leaves out lanes 8–15: the lanes of a segment read one another as the offsets go [cuda-warp-mask-mismatch]
  out[threadIdx.x] = v;
}
template __global__ void templateWidth<8>(const float *, float *);
template __global__ void templateWidth<16>(const float *, float *);

// Quiet: each segment named whole or not at all, reads within the named
// lanes, a full mask.
__global__ void consistent(const float *in, float *out) {
  int lane = threadIdx.x % 32;
  float v = in[threadIdx.x];
  if (lane < 24) {
    for (int o = 4; o > 0; o /= 2)
      v += __shfl_down_sync(0x00ffffff, v, o, 8);
    v = __shfl_up_sync(0x00ffffff, v, 1, 16);
    v += __shfl_sync(0x00ffffff, v, 0, 16);
    v += __shfl_sync(0x00ffffff, v, 3);
  }
  if (lane < 16)
    for (int o = 8; o > 0; o /= 2)
      v += __shfl_down_sync(0x0000ffff, v, o);
  for (int o = 8; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffff, v, o, 16);
  out[threadIdx.x] = v;
}
