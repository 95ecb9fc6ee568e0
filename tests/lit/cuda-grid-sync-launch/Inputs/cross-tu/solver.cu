// The kernels: defined here, launched from launch.cu (an -rdc project).
#include <cooperative_groups.h>
#include "solver.cuh"
namespace cg = cooperative_groups;

__device__ void exchange(float *halo) {
  cg::grid_group grid = cg::this_grid();
  halo[grid.thread_rank()] = 0;
  grid.sync();
}

__global__ void jacobi(float *x, int n) { exchange(x); }

__global__ void scale(float *x, int n) { x[0] *= n; }

template <typename T> __global__ void relax(T *x) { cg::this_grid().sync(); }
template __global__ void relax<float>(float *);

// Launched nowhere: no finding, here or anywhere.
__global__ void unused(float *x) { cg::this_grid().sync(); }
