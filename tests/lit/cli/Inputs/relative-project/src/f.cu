#include "common.cuh"
__device__ void byValue_f(cg::thread_block b) { b.sync(); }
