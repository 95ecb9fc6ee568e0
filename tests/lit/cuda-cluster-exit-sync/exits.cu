// RUN: %check_cuda_tidy %s cuda-cluster-exit-sync %t
// Accesses to another block's shared memory (map_shared_rank) and the
// kernel's exit. Flagged: the last DSMEM access with no cluster barrier
// before the exit, a write, an early return, a barrier on one path only, an
// arrive with no wait, a loop whose barrier leads its body, a pointer derived
// from the mapped one, the mapping used at once, an atomic on a peer's
// counter. Quiet: a trailing cluster.sync(), an arrive after the access and a
// wait before the exit, a helper that syncs, a loop followed by a barrier,
// the barrier in inline assembly, a mapped pointer compared but not used,
// shared memory of the block's own.
#define _CG_CLUSTER_INTRINSICS_AVAILABLE
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) peerRead(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  slots[threadIdx.x] = threadIdx.x;
  cluster.sync();
  int *peer = cluster.map_shared_rank(slots, cluster.block_rank() ^ 1);
  out[blockIdx.x * 256 + threadIdx.x] = peer[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: access to another block's shared memory through 'peer' with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'peer' points into another block's shared memory, mapped here
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
}

__global__ void __cluster_dims__(2, 1, 1) peerWrite(const int *in) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int *peer = cluster.map_shared_rank(slots, cluster.block_rank() ^ 1);
  peer[threadIdx.x] = in[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: access to another block's shared memory through 'peer' with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: 'peer' points into another block's shared memory, mapped here
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
}

__global__ void __cluster_dims__(2, 1, 1) earlyReturn(int *out, int n) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  slots[threadIdx.x] = n;
  cluster.sync();
  int *peer = cluster.map_shared_rank(slots, 0);
  if (n > 8) {
    out[threadIdx.x] = peer[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:24: warning: access to another block's shared memory through 'peer' with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
    // CHECK-NOTES: :[[@LINE-4]]:15: note: 'peer' points into another block's shared memory, mapped here
    // CHECK-NOTES: :[[@LINE+1]]:5: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
    return;
  }
  out[threadIdx.x] = peer[255 - threadIdx.x];
  cluster.sync();
}

__global__ void __cluster_dims__(2, 1, 1) syncOnOnePath(int *out, int n) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int v = cluster.map_shared_rank(slots, 1)[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: access to another block's shared memory with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE+4]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
  if (n > 0)
    cluster.sync();
  out[threadIdx.x] = v;
}

__global__ void __cluster_dims__(2, 1, 1) arriveWithoutWait(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  const int *peer = cluster.map_shared_rank(slots, cluster.block_rank() ^ 1);
  int v = peer[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: access to another block's shared memory through 'peer' with no cluster barrier after it before the kernel exits: an arrive follows it, but no wait; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: 'peer' points into another block's shared memory, mapped here
  // CHECK-NOTES: :[[@LINE+3]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
  cluster.barrier_arrive();
  out[threadIdx.x] = v;
}

__global__ void __cluster_dims__(4, 1, 1) leadingBarrierInLoop(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  int acc = 0;
  slots[threadIdx.x] = threadIdx.x;
  for (unsigned r = 0; r < cluster.num_blocks(); ++r) {
    cluster.sync();
    acc += cluster.map_shared_rank(slots, r)[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: access to another block's shared memory with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
    // CHECK-NOTES: :[[@LINE+3]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
  }
  out[threadIdx.x] = acc;
}

__global__ void __cluster_dims__(2, 1, 1) derivedPointer(int *out, int k) {
  __shared__ int table[4][64];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int *peer = cluster.map_shared_rank(&table[0][0], 1);
  int *row = peer + 64 * (k & 3);
  out[threadIdx.x] = row[threadIdx.x % 64];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: access to another block's shared memory through 'row' with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: 'row' points into another block's shared memory, mapped here
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
}

__global__ void __cluster_dims__(2, 1, 1) mappedAndStored(int value) {
  __shared__ int flag;
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  if (threadIdx.x == 0)
    *cluster.map_shared_rank(&flag, 0) = value;
    // CHECK-NOTES: :[[@LINE-1]]:6: warning: access to another block's shared memory with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
    // CHECK-NOTES: :[[@LINE+1]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
}

__global__ void __cluster_dims__(2, 1, 1) atomicOnPeer(void) {
  __shared__ int count;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0)
    count = 0;
  cluster.sync();
  atomicAdd(cluster.map_shared_rank(&count, 0), 1);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: access to another block's shared memory with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
  // CHECK-NOTES: :[[@LINE+1]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
}

__global__ void __cluster_dims__(2, 1, 1) trailingSync(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  slots[threadIdx.x] = threadIdx.x;
  cluster.sync();
  int *peer = cluster.map_shared_rank(slots, cluster.block_rank() ^ 1);
  int v = peer[threadIdx.x];
  cluster.sync();
  out[blockIdx.x * 256 + threadIdx.x] = v;
}

__global__ void __cluster_dims__(2, 1, 1) arriveThenWait(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int *peer = cluster.map_shared_rank(slots, cluster.block_rank() ^ 1);
  int v = peer[threadIdx.x];
  cluster.barrier_arrive();
  v *= 3;
  cluster.barrier_wait();
  out[threadIdx.x] = v;
}

__device__ void leaveTogether(const cg::cluster_group &cluster) { cluster.sync(); }

__global__ void __cluster_dims__(2, 1, 1) helperSyncs(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  out[threadIdx.x] = cluster.map_shared_rank(slots, 0)[threadIdx.x];
  leaveTogether(cluster);
}

__global__ void __cluster_dims__(4, 1, 1) loopThenBarrier(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  int acc = 0;
  slots[threadIdx.x] = threadIdx.x;
  cluster.sync();
  for (unsigned r = 0; r < cluster.num_blocks(); ++r)
    acc += cluster.map_shared_rank(slots, r)[threadIdx.x];
  cluster.sync();
  out[threadIdx.x] = acc;
}

__global__ void __cluster_dims__(2, 1, 1) assemblyBarrier(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int v = cluster.map_shared_rank(slots, 1)[threadIdx.x];
  asm volatile("barrier.cluster.arrive.aligned;\n" ::: "memory");
  asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory");
  out[threadIdx.x] = v;
}

__global__ void __cluster_dims__(2, 1, 1) comparedOnly(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  int *peer = cluster.map_shared_rank(slots, 1);
  out[threadIdx.x] = peer != nullptr;
}

__global__ void __cluster_dims__(2, 1, 1) ownSharedMemory(int *out) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  slots[threadIdx.x] = threadIdx.x;
  cluster.sync();
  out[threadIdx.x] = slots[255 - threadIdx.x];
}

// A loop with no condition, left by a break after a peer read.
__global__ void __cluster_dims__(2, 1, 1) foreverLoopWithBreak(int *out, int n) {
  __shared__ int slots[256];
  cg::cluster_group cluster = cg::this_cluster();
  int *peer = cluster.map_shared_rank(slots, 1);
  for (int step = 0;; ++step) {
    cluster.sync();
    out[step * 256 + threadIdx.x] = peer[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:37: warning: access to another block's shared memory through 'peer' with no cluster barrier after it before the kernel exits; the block that owns the memory may have exited (and its shared memory with it) [cuda-cluster-exit-sync]
    // CHECK-NOTES: :[[@LINE-5]]:15: note: 'peer' points into another block's shared memory, mapped here
    // CHECK-NOTES: :[[@LINE+4]]:1: note: the kernel exits here; a cluster.sync() before it keeps every block of the cluster until all are done
    if (step >= n)
      break;
  }
}
