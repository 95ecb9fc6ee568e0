// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t -- -- -I %S/Inputs
// RUN: %check_cuda_tidy -check-suffix=OPTION %s cuda-divergent-barrier %t -- -config="{CheckOptions: {cuda-divergent-barrier.Platforms: 'cuda,hip'}}" -- -I %S/Inputs
// The evidence may sit in a user header the file includes: the header's
// directive is named. Platforms: cuda,hip says so for every file, and then
// no evidence is needed (nor named).
#include "portable-header.cuh"

__global__ void scaleAfterExit(float *out, const float *in, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  tile[threadIdx.x] = twice(in[i]);
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit): the threads that returned skip this barrier, a hang on AMD GPUs under HIP, where exited threads do not count as arrived (on NVIDIA since Volta it completes) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: this condition is not uniform across the block
  // CHECK-NOTES: :[[@LINE-5]]:5: note: threads that take this 'return' skip the barrier
  // CHECK-NOTES: :[[@LINE-8]]:7: note: 'i' depends on 'threadIdx.x'
  // CHECK-NOTES: portable-header.cuh:3:1: note: this code is also built for HIP: it tests '__HIP_PLATFORM_AMD__'
  // CHECK-MESSAGES-OPTION: :[[@LINE-6]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit): the threads that returned skip this barrier, a hang on AMD GPUs under HIP, where exited threads do not count as arrived (on NVIDIA since Volta it completes) [cuda-divergent-barrier]
  out[i] = tile[threadIdx.x];
}
