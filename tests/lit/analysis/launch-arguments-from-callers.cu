// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A launch argument that is a parameter of the host function launching the
// kernel takes the factor every caller in the file passes: HeCBench's aop
// scales the path count read from the command line by 1024 in main, then
// hands it to a `static` launcher. A loop `for (p = threadIdx.x; p < n;
// p += 256)` in blocks of exactly 256 threads then runs one trip count for
// the whole block. The value at the call is the last whole write among the
// statements of main before it (each runs on every path), when nothing
// after that write changes it.

#include <cstdlib>

#define BLOCK_LOOP_KERNEL(name)                                                \
  __global__ void name(const double *paths, double *out, int numPaths) {       \
    __shared__ double partial[256];                                            \
    double sum = 0;                                                            \
    for (int path = threadIdx.x; path < numPaths; path += 256) {               \
      partial[threadIdx.x] = paths[path];                                      \
      __syncthreads();                                                         \
      sum += partial[(threadIdx.x + 1) % 256];                                 \
    }                                                                          \
    out[threadIdx.x] = sum;                                                    \
  }

BLOCK_LOOP_KERNEL(scaledInMain)
static void runScaled(const double *p, double *o, int numPaths) {
  scaledInMain<<<1, 256>>>(p, o, numPaths);
}

// Scaled, then changed under a condition: the caller's value is unknown.
BLOCK_LOOP_KERNEL(changedAfterScaling)
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
static void runChanged(const double *p, double *o, int numPaths) {
  changedAfterScaling<<<1, 256>>>(p, o, numPaths);
}

// Called twice, once with a count that is not a multiple of the block.
BLOCK_LOOP_KERNEL(oneCallerUnscaled)
// CHECK-MESSAGES: :[[@LINE-1]]:1: warning: '__syncthreads()' is reached under control flow that diverges within the block (loop trip count) [cuda-divergent-barrier]
static void runTwice(const double *p, double *o, int numPaths) {
  oneCallerUnscaled<<<1, 256>>>(p, o, numPaths);
}

int main(int argc, char **argv) {
  int numPaths = 32;
  if (argc > 1)
    numPaths = atoi(argv[1]);
  numPaths *= 1024;
  double *paths = nullptr, *out = nullptr;
  for (int run = 0; run < 3; ++run)
    runScaled(paths, out, numPaths);

  int changed = 4 * 1024;
  if (argc > 2)
    changed += atoi(argv[2]);
  runChanged(paths, out, changed);

  runTwice(paths, out, numPaths);
  runTwice(paths, out, atoi(argv[1]));
  return 0;
}
