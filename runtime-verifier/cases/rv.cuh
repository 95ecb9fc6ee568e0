// Shared host and device helpers for the runtime-verifier cases.
//
// A case prints what it saw on stdout, one fact per line, for the runner:
//   OUTCOME ok | wrong-result | launch-error:<cudaError name>
//   DETAIL  <free text>
//   MEASURE <key> <value>
// A case that hangs prints nothing more: the runner's watchdog kills it.
//
// Nothing in this header synchronizes threads, so it adds no finding of its
// own to the case files that include it.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace rv {

inline void detail(const char *Fmt, ...) {
  std::va_list Args;
  va_start(Args, Fmt);
  std::printf("DETAIL ");
  std::vprintf(Fmt, Args);
  std::printf("\n");
  va_end(Args);
  std::fflush(stdout);
}

inline void measure(const char *Key, const char *Fmt, ...) {
  std::va_list Args;
  va_start(Args, Fmt);
  std::printf("MEASURE %s ", Key);
  std::vprintf(Fmt, Args);
  std::printf("\n");
  va_end(Args);
  std::fflush(stdout);
}

// Prints the outcome line and ends the process.
[[noreturn]] inline void finish(bool ResultMatches) {
  std::printf("OUTCOME %s\n", ResultMatches ? "ok" : "wrong-result");
  std::fflush(stdout);
  std::exit(0);
}

[[noreturn]] inline void launchError(cudaError_t Err, const char *Where) {
  std::printf("DETAIL %s returned %s (%s)\n", Where, cudaGetErrorName(Err),
              cudaGetErrorString(Err));
  std::printf("OUTCOME launch-error:%s\n", cudaGetErrorName(Err));
  std::fflush(stdout);
  std::exit(0);
}

} // namespace rv

// Any failing CUDA call ends the case with `launch-error:<name>`.
#define RV_CHECK(Call)                                                         \
  do {                                                                         \
    cudaError_t RvErr_ = (Call);                                               \
    if (RvErr_ != cudaSuccess)                                                 \
      rv::launchError(RvErr_, #Call);                                          \
  } while (0)

// Launch check: the launch itself, then the kernel's completion.
#define RV_SYNC()                                                              \
  do {                                                                         \
    RV_CHECK(cudaGetLastError());                                              \
    RV_CHECK(cudaDeviceSynchronize());                                         \
  } while (0)

namespace rv {

// Every thread checks in, then waits until the whole block has checked in.
// Hopper counts exited threads as arrived at __syncthreads(), so a barrier
// that some threads skip usually passes silently. A thread stuck in such a
// barrier never checks in; the threads that skipped it then wait here for
// ever, and the skipped barrier becomes a hang that the watchdog sees.
// In a correct kernel every thread checks in and nobody waits long.
__device__ inline void checkInAndWait(unsigned *BlockCounters) {
  unsigned *Counter = &BlockCounters[blockIdx.x];
  atomicAdd(Counter, 1u);
  while (*static_cast<volatile unsigned *>(Counter) < blockDim.x) {
  }
}

// Fills the shared memory of every SM with NaN. Shared memory is not cleared
// between kernels, so a kernel launched next that reads a shared slot nobody
// wrote reads NaN instead of a lucky zero.
__global__ void poisonSharedMemory(int Words) {
  extern __shared__ float Pool[];
  for (int I = threadIdx.x; I < Words; I += blockDim.x)
    Pool[I] = __int_as_float(0x7fc00000);
}

inline void poisonAllSharedMemory() {
  int Sms = 0, Bytes = 0;
  RV_CHECK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0));
  RV_CHECK(cudaDeviceGetAttribute(&Bytes,
                                  cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  RV_CHECK(cudaFuncSetAttribute(poisonSharedMemory,
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                Bytes));
  poisonSharedMemory<<<4 * Sms, 1024, Bytes>>>(Bytes / 4);
  RV_SYNC();
}

} // namespace rv
