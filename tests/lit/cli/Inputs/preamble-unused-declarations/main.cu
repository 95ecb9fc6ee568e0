#include "util.cuh"

__global__ void mainKernel(int *out) {
  out[threadIdx.x] = usedHelper(threadIdx.x);
}
