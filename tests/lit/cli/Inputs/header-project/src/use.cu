#include "clean.cuh"
#include "buggy.cuh"
__device__ void mainByValue(cg::thread_block b) { b.sync(); }
__global__ void k() { cleanHelper(cg::this_thread_block()); buggyHelper(cg::this_thread_block()); }
