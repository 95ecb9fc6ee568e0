// A kernel with no include of its own that calls assert, as cuda-samples'
// simpleAssert_nvrtc kernel does: nvcc's crt/common_functions.h includes
// <assert.h>.
__global__ void checkPositive(const int *values) { assert(values[threadIdx.x] > 0); }
