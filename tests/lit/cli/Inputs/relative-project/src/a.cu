#include "common.cuh"
__device__ void byValue_a(cg::thread_block b) { b.sync(); }
