// RUN: %check_cuda_tidy %s cuda-cluster-exit-sync %t
// The cuda::ptx spellings of the split cluster barrier: an arrive and a wait
// after the last access are a barrier; an arrive alone is not.
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#include <cooperative_groups.h>
#include <cuda/ptx>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) ptxBarrier(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int v = cluster.map_shared_rank(slots, 1)[threadIdx.x];
  cuda::ptx::barrier_cluster_arrive();
  cuda::ptx::barrier_cluster_wait();
  out[threadIdx.x] = v;
}
__global__ void __cluster_dims__(2, 1, 1) ptxArriveOnly(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int v = cluster.map_shared_rank(slots, 1)[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: access to another block's shared memory with no cluster barrier after it before the kernel exits: an arrive follows it, but no wait; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE+3]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
  cuda::ptx::barrier_cluster_arrive();
  out[threadIdx.x] = v;
}
