// RUN: %check_cuda_tidy %s 'cuda-implicit-warp-sync,cuda-shared-memory-race' %t
// The warp-versus-block boundary, with both rules on: an exchange whose
// lanes are all in one warp is cuda-implicit-warp-sync's (__shared__ or
// global); one that threads of two warps make is a block race, which a
// __syncwarp() would not order: cuda-shared-memory-race reports it for
// __shared__ memory, and for global memory neither rule does.
__global__ void sharedPairInWarp(float *out, const float *in) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  out[blockIdx.x * 256 + tid] = s[tid ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: lanes of one warp exchange data through __shared__ 's' with no __syncwarp() between the write and the read: thread 0 reads s[1] while thread 1 writes it [cuda-implicit-warp-sync]
}
__global__ void sharedPairAcrossWarps(float *out, const float *in) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * 256 + tid];
  out[blockIdx.x * 256 + tid] = s[(tid + 32) % 256];
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: data race on __shared__ 's': thread 0 reads s[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void globalPairInWarp(float *out, float *scratch, const float *in) {
  int gid = blockIdx.x * 256 + threadIdx.x;
  scratch[gid] = in[gid];
  out[gid] = scratch[gid ^ 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: lanes of one warp exchange data through global memory 'scratch' with no __syncwarp() between the write and the read: thread 0 reads scratch[blockIdx.x * 256 + 1] while thread 1 writes it [cuda-implicit-warp-sync]
}
__global__ void globalPairAcrossWarps(float *out, float *scratch,
                                      const float *in) {
  int gid = blockIdx.x * 256 + threadIdx.x;
  scratch[gid] = in[gid];
  out[gid] = scratch[blockIdx.x * 256 + (threadIdx.x + 32) % 256];
}
void launch(float *out, float *scratch, const float *in) {
  sharedPairInWarp<<<8, 256>>>(out, in);
  sharedPairAcrossWarps<<<8, 256>>>(out, in);
  globalPairInWarp<<<8, 256>>>(out, scratch, in);
  globalPairAcrossWarps<<<8, 256>>>(out, scratch, in);
}
