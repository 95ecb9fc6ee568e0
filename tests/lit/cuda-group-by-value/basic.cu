// RUN: %check_cuda_tidy %s cuda-group-by-value %t
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> tile, float v) {
  // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: cooperative-groups handle 'tile' of type 'cg::thread_block_tile<32>' is passed by value; pass group handles by reference [cuda-group-by-value]
  return cg::reduce(tile, v, cg::plus<float>());
}
// CHECK-FIXES: __device__ float tileSum(const cg::thread_block_tile<32> &tile, float v) {

__device__ unsigned parentTile(cg::thread_block_tile<16, cg::thread_block> t) {
  // CHECK-MESSAGES: :[[@LINE-1]]:76: warning: cooperative-groups handle 't' of type 'cg::thread_block_tile<16, cg::thread_block>' is passed by value; pass group handles by reference [cuda-group-by-value]
  return t.thread_rank();
}
// CHECK-FIXES: __device__ unsigned parentTile(const cg::thread_block_tile<16, cg::thread_block> &t) {

__device__ void blockSync(cg::thread_block block) { block.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:44: warning: cooperative-groups handle 'block' of type 'cg::thread_block' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ void blockSync(const cg::thread_block &block) { block.sync(); }

__device__ int coalescedRank(cg::coalesced_group active) { return active.thread_rank(); }
// CHECK-MESSAGES: :[[@LINE-1]]:50: warning: cooperative-groups handle 'active' of type 'cg::coalesced_group' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ int coalescedRank(const cg::coalesced_group &active) { return active.thread_rank(); }

__device__ void gridSync(cg::grid_group grid) { grid.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:41: warning: cooperative-groups handle 'grid' of type 'cg::grid_group' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ void gridSync(const cg::grid_group &grid) { grid.sync(); }

__device__ unsigned long long erased(cg::thread_group g) { return g.thread_rank(); }
// CHECK-MESSAGES: :[[@LINE-1]]:55: warning: cooperative-groups handle 'g' of type 'cg::thread_group' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ unsigned long long erased(const cg::thread_group &g) { return g.thread_rank(); }

// Already const: only the reference is added.
__device__ void constCopy(const cg::thread_block b) { b.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:50: warning: cooperative-groups handle 'b' of type 'const cg::thread_block' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ void constCopy(const cg::thread_block &b) { b.sync(); }

// A typedef of a group is still a group.
typedef cg::thread_block_tile<32> Warp;
__device__ void viaTypedef(Warp w) { w.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:33: warning: cooperative-groups handle 'w' of type 'Warp' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ void viaTypedef(const Warp &w) { w.sync(); }

// Not handles: references, pointers, and the functors of the same namespace.
__device__ void byRef(const cg::thread_block &b) { b.sync(); }
__device__ void byMutableRef(cg::thread_block_tile<32> &t) { t.sync(); }
__device__ void byPointer(cg::grid_group *g) { g->sync(); }
__device__ int functor(cg::plus<int> op, cg::greater<int> gt, int x) {
  return gt(op(x, x), x) ? 1 : 0;
}
struct NotAGroup { int rank; };
__device__ int plain(NotAGroup n) { return n.rank; }

// NOLINT silences one finding, as in clang-tidy.
__device__ void suppressed(cg::thread_block b) { b.sync(); } // NOLINT(cuda-group-by-value)

__global__ void kernel(float *out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  out[threadIdx.x] = tileSum(tile, 1.0f);
  blockSync(block);
}
