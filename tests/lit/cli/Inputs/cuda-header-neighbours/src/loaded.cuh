#pragma once
#ifdef __CUDACC__
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ inline void syncLoaded(cg::thread_block b) { b.sync(); }
#endif
