#include "common.cuh"
__device__ void byValue_b(cg::thread_block b) { b.sync(); }
