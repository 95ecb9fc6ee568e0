// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// Cluster-wide barriers. nvcc enables cg::cluster_group on sm_90; clang needs
// the header told that the cluster intrinsics exist.
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// The rank of a block within its cluster is the same for the whole block
// but not for the cluster.
__global__ void __cluster_dims__(2, 1, 1) clusterSyncOnBlock(int *out) {
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0)
    cluster.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cluster_group::sync()' is reached under control flow that diverges within the cluster (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the cluster
  out[blockIdx.x] = 1;
}

__global__ void __cluster_dims__(2, 1, 1) clusterSyncConverged(int *out) {
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ int s;
  if (threadIdx.x == 0)
    s = blockIdx.x;
  cluster.sync();
  out[blockIdx.x] = s;
}

// A thread-dependent branch splits the cluster as well.
__global__ void __cluster_dims__(2, 1, 1) clusterSyncOnThread(int *out) {
  auto cluster = cg::this_cluster();
  if (threadIdx.x < 64)
    cg::sync(cluster);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cooperative_groups::sync(cluster_group)' is reached under control flow that diverges within the cluster (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the cluster
  out[threadIdx.x] = 0;
}

// The split arrive/wait barrier of a cluster: both halves are barriers.
__global__ void __cluster_dims__(2, 1, 1) clusterArriveWait(int *out) {
  auto cluster = cg::this_cluster();
  cluster.barrier_arrive();
  out[threadIdx.x] = 1;
  if (out[threadIdx.x] > 0)
    cluster.barrier_wait();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 'cluster_group::barrier_wait()' is reached under control flow that diverges within the cluster (branch) [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: this condition is not uniform across the cluster
}
