#include "clean.cuh"
__device__ void newByValue(cg::thread_block b) { b.sync(); }
