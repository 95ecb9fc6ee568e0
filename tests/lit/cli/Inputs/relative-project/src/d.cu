#include "common.cuh"
__device__ void byValue_d(cg::thread_block b) { b.sync(); }
