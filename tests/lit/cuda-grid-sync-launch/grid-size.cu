// RUN: %check_cuda_tidy %s cuda-grid-sync-launch %t
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// On an H200 (132 SMs, 8 blocks of 256 threads per SM for this kernel) a
// cooperative launch of 1056 blocks runs and one of 1057 fails with
// cudaErrorCooperativeLaunchTooLarge: a grid sized by the data breaks as
// soon as the data grows.
__global__ void step(float *x, int n) { cg::this_grid().sync(); }

void byData(float *x, int n) {
  void *args[] = {&x, &n};
  int blocks = (n + 255) / 256;
  cudaLaunchCooperativeKernel((void *)step, dim3(blocks), dim3(256), args, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: cooperative launch of kernel 'step' sizes its grid from the data size, not from an occupancy query; a cooperative grid larger than the GPU holds at once fails with cudaErrorCooperativeLaunchTooLarge: bound it by cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count [cuda-grid-sync-launch]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: the grid size is derived from the data size here
}

constexpr int N = 1 << 20;
void byConstantData(float *x) {
  int n = N;
  void *args[] = {&x, &n};
  cudaLaunchCooperativeKernel(step, N / 256, 256, args);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: cooperative launch of kernel 'step' sizes its grid from the data size
  // CHECK-NOTES: :[[@LINE-2]]:37: note: the grid size is derived from the data size here
}

// The block size from cudaOccupancyMaxPotentialBlockSize does not bound the
// grid: dividing the data by it still sizes the grid by the data.
void blockSizeFromOccupancy(float *x, int n) {
  void *args[] = {&x, &n};
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, step, 0, 0);
  dim3 grid((n + block - 1) / block);
  cudaLaunchCooperativeKernel((void *)step, grid, dim3(block), args, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: cooperative launch of kernel 'step' sizes its grid from the data size
  // CHECK-NOTES: :[[@LINE-3]]:13: note: the grid size is derived from the data size here
}

// cudaLaunchKernelEx with the attribute set is a cooperative launch too.
void exByData(float *x, int n) {
  cudaLaunchAttribute attrs[1] = {};
  attrs[0].id = cudaLaunchAttributeCooperative;
  attrs[0].val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim.x = n / 128;
  config.blockDim = dim3(128);
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchConfig_t *launch = &config;
  cudaLaunchKernelEx(launch, step, x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: cooperative launch of kernel 'step' sizes its grid from the data size
  // CHECK-NOTES: :[[@LINE-7]]:22: note: the grid size is derived from the data size here
}

// Sized by the occupancy query times the SM count: what the guide asks for.
void byOccupancy(float *x, int n) {
  void *args[] = {&x, &n};
  int perSm = 0, sms = 0, device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, step, 256, 0);
  cudaLaunchCooperativeKernel((void *)step, dim3(perSm * sms), dim3(256), args, 0, 0);
}
void byDataCappedByOccupancy(float *x, int n) {
  void *args[] = {&x, &n};
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, step, 256, 0);
  int blocks = (n + 255) / 256;
  const int most = perSm * prop.multiProcessorCount;
  blocks = blocks < most ? blocks : most;
  cudaLaunchCooperativeKernel((void *)step, dim3(blocks), dim3(256), args, 0, 0);
}
void exByOccupancy(float *x, int n) {
  int minGrid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, step, 0, 0);
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(minGrid);
  config.blockDim = dim3(block);
  config.attrs = &attr;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, step, x, n);
}

// Untraceable here: say nothing rather than guess.
int gridFor(int n);
void untraceable(float *x, int n, dim3 grid, int smCount) {
  void *args[] = {&x, &n};
  cudaLaunchCooperativeKernel((void *)step, grid, dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)step, dim3(gridFor(n)), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)step, dim3(2 * smCount), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)step, dim3(1056), dim3(256), args, 0, 0);
}

// The usual host code: the data size is a local whose address goes into the
// kernel argument array. The launch only reads that array, so the grid is
// still traced to the data (runtime-verifier case grid-coop-data-sized).
void localSizeInArgumentArray(float *x) {
  int count = 4194915;
  int blocks = (count + 255) / 256;
  void *args[] = {&x, &count};
  cudaLaunchCooperativeKernel((void *)step, blocks, 256, args, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: cooperative launch of kernel 'step' sizes its grid from the data size
  // CHECK-NOTES: :[[@LINE-4]]:16: note: the grid size is derived from the data size here
}

// Passing the size's address to another function is not a kernel argument
// array: it could change the value, so nothing is said.
void setsSize(int *count);
void sizeWrittenElsewhere(float *x) {
  int count = 4194915;
  setsSize(&count);
  int blocks = (count + 255) / 256;
  void *args[] = {&x, &count};
  cudaLaunchCooperativeKernel((void *)step, blocks, 256, args, 0, 0);
}
