// Entered from util.cuh, inside the preamble too.
#pragma once
#if 1
#define OLD_GROUP multi_grid_group
#else
#define OLD_GROUP this_multi_grid
#endif
__device__ inline void helperSync() { __syncthreads(); }
