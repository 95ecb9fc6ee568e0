#include "common.cuh"
__device__ void byValue_c(cg::thread_block b) { b.sync(); }
