// A .h that holds device code: CUDA keywords make it a CUDA header.
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ inline void syncBlock(cg::thread_block b) { b.sync(); }
