#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void first(cg::thread_block b) { b.sync(); }

__device__ void second(cg::grid_group g) { g.sync(); }
