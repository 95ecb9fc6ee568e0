#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ inline void cleanHelper(const cg::thread_block &b) { b.sync(); }
