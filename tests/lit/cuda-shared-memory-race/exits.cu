// RUN: %check_cuda_tidy %s cuda-shared-memory-race %t
// Which threads reach an access: an exit before it (`if (c) return;`, a
// `break` or `continue` of the loop around it) keeps the threads where c
// holds away, and so do the conditions of `c ? s[i] : v` and `c && s[i]`.
// When only one warp is left, the pair is the warp-level rule's, not this
// one's; when two warps are left, it still races.
#define N 256
__global__ void lastWarpAfterExit(float *out, const float *in) {
  __shared__ float buf[N];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * N + t];
  __syncthreads();
  if (t >= 32)
    return;
  // Only warp 0 is left: neighbours within one warp.
  buf[t] += buf[t + 32];
  out[blockIdx.x * 32 + t] = buf[(t + 1) % 32];
}
__global__ void twoWarpsAfterExit(float *out, const float *in) {
  __shared__ float buf[N];
  int t = threadIdx.x;
  if (t >= 64)
    return;
  buf[t] = in[blockIdx.x * 64 + t];
  out[blockIdx.x * 64 + t] = buf[(t + 32) % 64];
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: data race on __shared__ 'buf': thread 0 reads buf[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
__global__ void exitBlockEndsInReturn(float *out, const float *in) {
  __shared__ float buf[N];
  int t = threadIdx.x;
  if (t % 64 >= 32) {
    out[t] = 0.0f;
    return;
  }
  // Warps 0, 2, 4 and 6 are left. The upper half of each 32 cells was the
  // exited warps' to write: nobody writes what is read.
  buf[t / 2] = in[t];
  out[t] = buf[t / 64 * 32 + 16 + t % 32 / 2];
}
__global__ void breakOutOfLoop(float *out, const float *in, int rounds) {
  __shared__ float buf[N];
  int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    if (t >= 32)
      break;
    buf[t] = in[r * N + t];
    out[r * N + t] = buf[31 - t];
  }
}
__global__ void continueInLoop(float *out, const float *in) {
  __shared__ float buf[N];
  int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    if (t < N - 32)
      continue;
    buf[t] = in[r * N + t];
    out[r * N + t] = buf[N - 1 - (t - (N - 32))];
    __syncthreads();
  }
}
__global__ void continueLeavesTwoWarps(float *out, const float *in) {
  __shared__ float buf[N];
  int t = threadIdx.x;
  for (int r = 0; r < 4; ++r) {
    if (t < N - 64)
      continue;
    buf[t] = in[r * N + t];
    out[r * N + t] = buf[N - 1 - (t - (N - 64))];
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: data race on __shared__ 'buf': thread 192 reads buf[255] while thread 255 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
    __syncthreads();
  }
}
__global__ void chosenByConditional(float *out, const float *in) {
  __shared__ float first;
  int t = threadIdx.x;
  if (t == 0)
    first = in[blockIdx.x];
  // Thread 0 alone reads what it wrote.
  out[blockIdx.x * N + t] = t == 0 ? first : 0.0f;
}
__global__ void chosenByAnd(int *out, const int *in) {
  __shared__ int flag[N];
  int t = threadIdx.x;
  flag[t] = in[t];
  // Lanes 0..30 read the next lane's flag: one warp.
  out[t] = t % 32 != 31 && flag[t + 1] != 0;
}
__global__ void chosenByOrAcrossWarps(int *out, const int *in) {
  __shared__ int flag[N];
  int t = threadIdx.x;
  flag[t] = in[t];
  out[t] = t % 64 == 63 || flag[t + 1] != 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: data race on __shared__ 'flag': thread 31 reads flag[32] while thread 32 writes it, with no block barrier between the two accesses [cuda-shared-memory-race]
}
// The last two warps exist in a block of N threads (the launch shows it; a
// guessed block must show a conflict at half its size too).
void launchContinue(float *out, const float *in) {
  continueLeavesTwoWarps<<<1, N>>>(out, in);
}
