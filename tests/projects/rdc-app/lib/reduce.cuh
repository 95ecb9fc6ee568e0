#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Declared here, defined in grid_sum.cu, launched from app/main.cu.
__global__ void gridSum(const float *in, float *partial, float *out, int n);
__device__ float blockReduce(const cg::thread_block &block, float v);
