#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ inline void plainHelper(cg::thread_block b) { b.sync(); }
