// A kernel with no include of its own that calls assert, as cuda-samples'
// simpleAssert_nvrtc kernel does: nvcc's crt/common_functions.h includes
// <assert.h>.
__global__ void checkPositive(const int *values) { assert(values[threadIdx.x] > 0); }

// clock() and CLOCKS_PER_SEC with no <time.h>, as llm.c's dev/cuda/permute.cu
// (nvcc's crt/common_functions.h includes it).
double elapsed(long start) { return (double)(clock() - start) / CLOCKS_PER_SEC; }
