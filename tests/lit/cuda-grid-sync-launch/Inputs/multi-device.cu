#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Written for CUDA 11/12: multi-device cooperative groups, gone in CUDA 13.
__global__ void allDevices(float *x) {
  cg::multi_grid_group all = cg::this_multi_grid();
  all.sync();
}

void launchOnEveryDevice(cudaLaunchParams *params, unsigned devices) {
  cudaLaunchCooperativeKernelMultiDevice(params, devices, 0);
}

struct Wrapper { int multi_grid_group; };
int member(Wrapper w) { return w.multi_grid_group; }

#if defined(CUDART_VERSION) && CUDART_VERSION < 13000
__global__ void legacy() { cg::this_multi_grid().sync(); }
#endif

__global__ void fine(float *x) { cg::this_grid().sync(); } // this_multi_grid in a comment
