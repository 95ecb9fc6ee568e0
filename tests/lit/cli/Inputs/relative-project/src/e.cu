#include "common.cuh"
__device__ void byValue_e(cg::thread_block b) { b.sync(); }
