#include "env.cuh"
#include <cstdio>

// Device code of the main file reaches the header's deferred error.
__global__ void mainKernel(int *Out) {
  Out[0] = fromEnvironment("B");
  helperSync(Out);
}

void run(int *Out) {
  mainKernel<<<1, 32>>>(Out);
  headerKernel<<<1, 32>>>(Out);
  std::printf("%d\n", unusedOnDevice());
}
