// RUN: %check_cuda_tidy %s cuda-grid-sync-launch %t
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void reduce(float *x, int n) {
  cg::grid_group grid = cg::this_grid();
  grid.sync();
}
__global__ void noSync(float *x, int n) { x[0] = n; }

// cudaLaunchKernel is an ordinary launch, however the kernel is named.
void launchKernel(float *x, int n) {
  void *args[] = {&x, &n};
  cudaLaunchKernel((void *)reduce, dim3(4), dim3(256), args, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' synchronizes the whole grid (grid_group::sync()) but is launched with cudaLaunchKernel, which is not a cooperative launch; the grid sync fails at run time: launch it with cudaLaunchCooperativeKernel, or cudaLaunchKernelEx with cudaLaunchAttributeCooperative set [cuda-grid-sync-launch]
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  cudaLaunchKernel(reduce, dim3(4), dim3(256), args);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' {{.*}} launched with cudaLaunchKernel, which is not
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  const void *fn = (const void *)&reduce;
  cudaLaunchKernel(fn, dim3(4), dim3(256), args, 0, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' {{.*}} launched with cudaLaunchKernel, which is not
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  cudaLaunchKernel((void *)noSync, dim3(4), dim3(256), args, 0, 0);
}

// The cooperative launch is what grid.sync() needs.
void launchCooperative(float *x, int n) {
  void *args[] = {&x, &n};
  cudaLaunchCooperativeKernel((void *)reduce, dim3(132), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel(reduce, 132, 256, args);
}

// cudaLaunchKernelEx: cooperative only with the attribute set to non-zero.
void exWithoutAttribute(float *x, int n) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(132);
  config.blockDim = dim3(256);
  cudaLaunchKernelEx(&config, reduce, x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' synchronizes the whole grid (grid_group::sync()) but is launched with cudaLaunchKernelEx without cudaLaunchAttributeCooperative, which is not a cooperative launch
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  // CHECK-NOTES: :[[@LINE-6]]:22: note: launch configuration 'config' is declared here; none of its attributes is cudaLaunchAttributeCooperative
}
void exWithOtherAttribute(float *x, int n) {
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(132);
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, reduce, x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' {{.*}} launched with cudaLaunchKernelEx without cudaLaunchAttributeCooperative,
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  // CHECK-NOTES: :[[@LINE-7]]:22: note: launch configuration 'config' is declared here
}
void exSetToZero(float *x, int n) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = 0;
  cudaLaunchConfig_t config = {};
  config.attrs = &attr;
  config.numAttrs = 1;
  void *args[] = {&x, &n};
  cudaLaunchKernelExC(&config, (const void *)reduce, args);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' {{.*}} launched with cudaLaunchKernelExC with cudaLaunchAttributeCooperative set to 0, which is not a cooperative launch
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  // CHECK-NOTES: :[[@LINE-8]]:26: note: cudaLaunchAttributeCooperative is set to 0 here
}
void exCooperative(float *x, int n) {
  cudaLaunchAttribute attrs[2] = {};
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[1].id = cudaLaunchAttributeCooperative;
  attrs[1].val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(132);
  config.blockDim = dim3(256);
  config.attrs = attrs;
  config.numAttrs = 2;
  cudaLaunchKernelEx(&config, reduce, x, n);
  cudaLaunchConfig_t *viaPointer = &config;
  cudaLaunchKernelEx(viaPointer, reduce, x, n);
}
void exCooperativeInitialized(float *x, int n) {
  cudaLaunchAttribute attr = {cudaLaunchAttributeCooperative, {}, {}};
  attr.val.cooperative = 1;
  cudaLaunchConfig_t config = {dim3(132), dim3(256), 0, 0, &attr, 1};
  cudaLaunchKernelEx(&config, reduce, x, n);
}
// The attribute is beyond numAttrs: the runtime never reads it.
void exAttributeNotCounted(float *x, int n) {
  cudaLaunchAttribute attrs[2] = {};
  attrs[1].id = cudaLaunchAttributeCooperative;
  attrs[1].val.cooperative = 1;
  cudaLaunchConfig_t config = {};
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, reduce, x, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'reduce' {{.*}} launched with cudaLaunchKernelEx without cudaLaunchAttributeCooperative,
  // CHECK-NOTES: :7:3: note: 'reduce' synchronizes the whole grid here
  // CHECK-NOTES: :[[@LINE-6]]:22: note: launch configuration 'config' is declared here
}

// What the analysis cannot follow in this function, it does not judge.
void fillAttributes(cudaLaunchAttribute *attrs);
cudaLaunchConfig_t makeConfig(int n);
void setUp(cudaLaunchConfig_t &config);
void exUnknown(float *x, int n, const cudaLaunchConfig_t *fromCaller,
               int cooperative) {
  cudaLaunchKernelEx(fromCaller, reduce, x, n);
  cudaLaunchConfig_t made = makeConfig(n);
  cudaLaunchKernelEx(&made, reduce, x, n);
  cudaLaunchConfig_t prepared = {};
  setUp(prepared);
  cudaLaunchKernelEx(&prepared, reduce, x, n);
  cudaLaunchAttribute attrs[1];
  fillAttributes(attrs);
  cudaLaunchConfig_t config = {};
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, reduce, x, n);
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeCooperative;
  attr.val.cooperative = cooperative;
  cudaLaunchConfig_t other = {};
  other.attrs = &attr;
  other.numAttrs = 1;
  cudaLaunchKernelEx(&other, reduce, x, n);
}
