// RUN: %check_cuda_tidy %s cuda-grid-sync-launch %t
// A grid sized by the data is fine for a cooperative launch that runs only
// when the grid fits what the occupancy query allows: an enclosing test
// against that bound, or a flag cleared when the grid is over it, with an
// ordinary launch as the fallback (the shape of punica's segmented GEMV).
// A test against something else, a flag also cleared for another reason,
// or a test on another variable than the grid's leaves the finding.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void shrink(float *y, const float *x, int chunk) { cg::this_grid().sync(); }
// The fallback: one chunk per block, no grid-wide step.
__global__ void shrinkLocal(float *y, const float *x, int chunk) {}

void withFallbackFlag(float *y, const float *x, int in, int problems) {
  int sms = 0, perSm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, shrink, 128, 0);
  const unsigned maxGrid = sms * perSm;
  bool cooperative = true;
  int chunk = 256;
  unsigned chunks = (in + chunk - 1) / chunk;
  if (chunks * problems > maxGrid) {
    cooperative = false;
    chunk = in;
    chunks = 1;
  }
  dim3 blocks(chunks, problems);
  void *args[] = {&y, &x, &chunk};
  if (cooperative)
    cudaLaunchCooperativeKernel((void *)shrink, blocks, dim3(128), args, 0, 0);
  else
    shrinkLocal<<<blocks, 128>>>(y, x, chunk);
}

void directTest(float *y, const float *x, int n) {
  int sms = 0, perSm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, shrink, 256, 0);
  int blocks = (n + 255) / 256;
  void *args[] = {&y, &x, &n};
  if (blocks <= sms * perSm) {
    cudaLaunchCooperativeKernel((void *)shrink, dim3(blocks), dim3(256), args, 0, 0);
  } else {
    shrinkLocal<<<blocks, 256>>>(y, x, n);
  }
}

void elseOfTheOverTest(float *y, const float *x, int n) {
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, shrink, 256, 0);
  int blocks = (n + 255) / 256;
  void *args[] = {&y, &x, &n};
  if (blocks > 132 * perSm)
    shrinkLocal<<<blocks, 256>>>(y, x, n);
  else
    cudaLaunchCooperativeKernel((void *)shrink, dim3(blocks), dim3(256), args, 0, 0);
}

void testedAgainstAConstant(float *y, const float *x, int n) {
  int blocks = (n + 255) / 256;
  void *args[] = {&y, &x, &n};
  if (blocks <= 4096)
    cudaLaunchCooperativeKernel((void *)shrink, dim3(blocks), dim3(256), args, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: cooperative launch of kernel 'shrink' sizes its grid from the data size, not from an occupancy query; a cooperative grid larger than the GPU holds at once fails with cudaErrorCooperativeLaunchTooLarge: bound it by cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count [cuda-grid-sync-launch]
}

void flagClearedElsewhereToo(float *y, const float *x, int n, bool debug) {
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, shrink, 256, 0);
  int blocks = (n + 255) / 256;
  bool cooperative = true;
  if (blocks > 132 * perSm)
    cooperative = false;
  if (debug)
    cooperative = true;
  void *args[] = {&y, &x, &n};
  if (cooperative)
    cudaLaunchCooperativeKernel((void *)shrink, dim3(blocks), dim3(256), args, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: cooperative launch of kernel 'shrink' sizes its grid from the data size
}

void testsAnotherVariable(float *y, const float *x, int n, int other) {
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, shrink, 256, 0);
  int blocks = (n + 255) / 256;
  void *args[] = {&y, &x, &n};
  if (other <= 132 * perSm)
    cudaLaunchCooperativeKernel((void *)shrink, dim3(blocks), dim3(256), args, 0, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: cooperative launch of kernel 'shrink' sizes its grid from the data size
}
