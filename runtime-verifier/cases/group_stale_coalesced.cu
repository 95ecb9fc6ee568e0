// cuda-divergent-group-creation, stale coalesced group. VIOLATING; twin:
// group_stale_coalesced_ok.cu.
//
// Active is made at the top of the kernel, where all 32 lanes of the warp are
// converged, so it names 32 threads. Under `if (Lane < 8)` only 8 of them run
// the cg::reduce over it. The reduction should sum the values of the group's
// members (the CPU reference sums the lanes the handle names); on an H200 it
// sums the 8 lanes present.
#include "rv.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <vector>
namespace cg = cooperative_groups;

// Out[2 * t] = members the handle names, Out[2 * t + 1] = the group's sum.
__global__ void groupSums(const int *In, int *Out) {
  const int Lane = threadIdx.x % 32;
  const int V = In[threadIdx.x];
  auto Active = cg::coalesced_threads();
  if (Lane < 8) {
    Out[2 * threadIdx.x] = Active.num_threads();
    Out[2 * threadIdx.x + 1] = cg::reduce(Active, V, cg::plus<int>()); // FLAGGED(cuda-divergent-group-creation)
  }
}

int main() {
  const int Threads = 64;
  std::vector<int> In(Threads), Out(2 * Threads, -1);
  for (int I = 0; I < Threads; ++I)
    In[I] = 1 + I;
  int *DIn, *DOut;
  RV_CHECK(cudaMalloc(&DIn, Threads * sizeof(int)));
  RV_CHECK(cudaMalloc(&DOut, 2 * Threads * sizeof(int)));
  RV_CHECK(cudaMemcpy(DIn, In.data(), Threads * sizeof(int),
                      cudaMemcpyHostToDevice));
  RV_CHECK(cudaMemset(DOut, 0xff, 2 * Threads * sizeof(int)));
  groupSums<<<1, Threads>>>(DIn, DOut);
  RV_SYNC();
  RV_CHECK(cudaMemcpy(Out.data(), DOut, 2 * Threads * sizeof(int),
                      cudaMemcpyDeviceToHost));
  // Reference: the sum of In over the lanes 0 .. Members-1 of the thread's
  // warp, Members being the size the handle reports.
  int Wrong = 0;
  for (int T = 0; T < Threads; ++T) {
    if (T % 32 >= 8)
      continue;
    const int Members = Out[2 * T], Sum = Out[2 * T + 1];
    long Ref = 0;
    for (int L = 0; L < Members; ++L)
      Ref += In[T - T % 32 + L];
    if (Sum != Ref) {
      if (Wrong == 0)
        rv::detail("thread %d: handle names %d threads, cg::reduce gave %d, "
                   "CPU reference %ld",
                   T, Members, Sum, Ref);
      ++Wrong;
    }
  }
  rv::measure("members_named", "%d", Out[0]);
  rv::measure("reduce_result", "%d", Out[1]);
  rv::detail("%d of 16 group sums differ from the CPU reference", Wrong);
  rv::finish(Wrong == 0);
}
