#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void ok(const cg::thread_block &b) { b.sync(); }
