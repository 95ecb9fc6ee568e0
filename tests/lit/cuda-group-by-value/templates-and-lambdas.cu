// RUN: %check_cuda_tidy %s cuda-group-by-value %t
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A template is reported once, at its pattern, when an instantiation takes a
// group by value; instantiations with other types say nothing.
template <class Group>
__device__ void syncAll(Group g) { g.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:31: warning: cooperative-groups handle 'g' of type 'Group' (here 'cooperative_groups::thread_block') is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ void syncAll(const Group &g) { g.sync(); }

template <class T>
__device__ T twice(T v) { return v + v; }

// Never instantiated with a group: nothing to say.
template <class Group>
__device__ void unused(Group g) { g.sync(); }

// A separate declaration and definition change together.
__device__ void split(cg::thread_block b);
__device__ void split(cg::thread_block b) { b.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:40: warning: cooperative-groups handle 'b' of type 'cg::thread_block' is passed by value; pass group handles by reference [cuda-group-by-value]
// CHECK-FIXES: __device__ void split(const cg::thread_block &b);
// CHECK-FIXES: __device__ void split(const cg::thread_block &b) { b.sync(); }

// A copy the function hands out as mutable is its own: no fix, and a note
// says why.
__device__ void adopt(cg::thread_group &g);
__device__ void reassigned(cg::thread_group g) {
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: cooperative-groups handle 'g' of type 'cg::thread_group' is passed by value; pass group handles by reference [cuda-group-by-value]
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: no fix offered: the function modifies its copy of the handle
  adopt(g);
}
// CHECK-FIXES: __device__ void reassigned(cg::thread_group g) {

__global__ void kernel(int *out) {
  auto block = cg::this_thread_block();
  syncAll(block);
  out[0] = twice(out[1]);
  split(block);
  reassigned(block);

  auto lambda = [](cg::thread_block_tile<32> t) { return t.thread_rank(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: cooperative-groups handle 't' of type 'cg::thread_block_tile<32>' is passed by value; pass group handles by reference [cuda-group-by-value]
  // CHECK-FIXES: auto lambda = [](const cg::thread_block_tile<32> &t) { return t.thread_rank(); };
  out[1] = lambda(cg::tiled_partition<32>(block));

  auto generic = [](auto g) { g.sync(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: cooperative-groups handle 'g' of type 'auto' (here 'cooperative_groups::thread_block') is passed by value; pass group handles by reference [cuda-group-by-value]
  // CHECK-FIXES: auto generic = [](const auto &g) { g.sync(); };
  generic(block);
  generic(block);
}
