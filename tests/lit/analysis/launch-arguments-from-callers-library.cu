// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// The same launcher, visible outside this file, in a file with no main: a
// caller elsewhere may pass any count, so the one caller seen here does not
// decide (launch-arguments-from-callers.cu has the program form).

#include <cstdlib>

__global__ void sumPaths(const double *paths, double *out, int numPaths) {
  __shared__ double partial[256];
  double sum = 0;
  for (int path = threadIdx.x; path < numPaths; path += 256) {
    partial[threadIdx.x] = paths[path];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
    sum += partial[(threadIdx.x + 1) % 256];
  }
  out[threadIdx.x] = sum;
}

void runSumPaths(const double *paths, double *out, int numPaths) {
  sumPaths<<<1, 256>>>(paths, out, numPaths);
}

void scaledCaller(const double *paths, double *out, int count) {
  runSumPaths(paths, out, count * 1024);
}
