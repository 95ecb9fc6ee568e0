// RUN: %check_cuda_tidy %s cuda-grid-sync-launch %t
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The grid sync, directly and through a chain of __device__ calls.
__global__ void direct(float *x) {
  cg::grid_group grid = cg::this_grid();
  x[grid.thread_rank()] = 0;
  grid.sync();
}
__device__ void leaf() { cg::sync(cg::this_grid()); }
__device__ void middle() { leaf(); }
__global__ void chained() { middle(); }

// A template kernel; a lambda handed to a device template; a split barrier.
template <typename F> __device__ void apply(F f) { f(); }
template <typename T> __global__ void templated(T *x) {
  apply([&] { cg::this_grid().sync(); });
}
__global__ void split() {
  cg::grid_group grid = cg::this_grid();
  auto token = grid.barrier_arrive();
  grid.barrier_wait(static_cast<decltype(token) &&>(token));
}

// No grid sync: block barriers and the type-erased handle are fine here.
__global__ void blockOnly(float *x) { cg::this_thread_block().sync(); }
__global__ void erased() {
  cg::thread_group g = cg::this_thread_block();
  g.sync();
}
// Never launched in this file: no finding.
__global__ void neverLaunched() { cg::this_grid().sync(); }

void launches(float *x, int *i) {
  direct<<<528, 256>>>(x);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'direct' synchronizes the whole grid (grid_group::sync()) but is launched with <<<...>>>, which is not a cooperative launch; the grid sync fails at run time: launch it with cudaLaunchCooperativeKernel, or cudaLaunchKernelEx with cudaLaunchAttributeCooperative set [cuda-grid-sync-launch]
  // CHECK-NOTES: :9:3: note: 'direct' synchronizes the whole grid here
  chained<<<4, 32>>>();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'chained' synchronizes the whole grid (cooperative_groups::sync(grid_group)) but is launched with <<<...>>>
  // CHECK-NOTES: :13:29: note: 'chained' calls 'middle' here
  // CHECK-NOTES: :12:28: note: 'middle' calls 'leaf' here
  // CHECK-NOTES: :11:26: note: 'leaf' synchronizes the whole grid here
  templated<int><<<4, 32>>>(i);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'templated<int>' synchronizes the whole grid (grid_group::sync()) but is launched with <<<...>>>
  // CHECK-NOTES: :18:3: note: 'templated<int>' calls 'apply<(lambda)>' here
  // CHECK-NOTES: :16:52: note: 'apply<(lambda)>' calls the lambda here
  // CHECK-NOTES: :18:15: note: the lambda synchronizes the whole grid here
  split<<<4, 32>>>();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'split' synchronizes the whole grid (grid_group::barrier_arrive()) but is launched with <<<...>>>
  // CHECK-NOTES: :22:16: note: 'split' synchronizes the whole grid here
  blockOnly<<<4, 32>>>(x);
  erased<<<4, 32>>>();
  direct<<<1, 1>>>(x); // NOLINT(cuda-grid-sync-launch)
}

// A kernel pointer held in a local variable with one value is followed;
// one that comes from a parameter, or may hold either of two kernels, is not.
void throughPointers(float *x, void (*param)(float *), bool b) {
  void (*local)(float *) = direct;
  local<<<2, 2>>>(x);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'direct' synchronizes the whole grid (grid_group::sync()) but is launched with <<<...>>>
  // CHECK-NOTES: :9:3: note: 'direct' synchronizes the whole grid here
  param<<<2, 2>>>(x);
  void (*either)(float *) = blockOnly;
  if (b)
    either = direct;
  either<<<2, 2>>>(x);
}

// A launch inside a host template is reported once per kernel it launches.
template <typename T> void launchTemplate(T *x) { templated<T><<<1, 1>>>(x); }
// CHECK-NOTES: :[[@LINE-1]]:51: warning: kernel 'templated<float>' synchronizes the whole grid (grid_group::sync()) but is launched with <<<...>>>
// CHECK-NOTES: :18:3: note: 'templated<float>' calls 'apply<(lambda)>' here
// CHECK-NOTES: :16:52: note: 'apply<(lambda)>' calls the lambda here
// CHECK-NOTES: :18:15: note: the lambda synchronizes the whole grid here
void useTemplate(float *x) { launchTemplate(x); }

// A __device__ lambda launched through a kernel template.
template <typename F> __global__ void forEach(F f) { f(); }
void launchLambda() {
  forEach<<<4, 32>>>([] __device__ { cg::this_grid().sync(); });
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: kernel 'forEach<(lambda)>' synchronizes the whole grid (grid_group::sync()) but is launched with <<<...>>>
  // CHECK-NOTES: :[[@LINE-4]]:54: note: 'forEach<(lambda)>' calls the lambda here
  // CHECK-NOTES: :[[@LINE-3]]:38: note: the lambda synchronizes the whole grid here
  forEach<<<4, 32>>>([] __device__ {});
}
