#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void byValue(cg::thread_block b) { b.sync(); }
