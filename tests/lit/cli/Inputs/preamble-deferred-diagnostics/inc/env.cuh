// A __host__ __device__ function that calls a host-only function: clang
// defers the error until the function is emitted for the device, that is
// until a kernel calls it. A PCH does not keep the deferred error.
#pragma once
#include <cstdlib>

__host__ __device__ inline int fromEnvironment(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value ? std::atoi(Value) : 0;
}

// Never called from device code: its deferred error is never emitted.
__host__ __device__ inline int unusedOnDevice() {
  return std::atoi("7");
}

// A kernel of the header itself calls it: the error is emitted whatever
// the main file holds.
__global__ void headerKernel(int *Out) { Out[0] = fromEnvironment("A"); }

__device__ void helperSync(int *Out) {
  if (threadIdx.x < 8)
    __syncthreads();
  Out[1] = 1;
}
