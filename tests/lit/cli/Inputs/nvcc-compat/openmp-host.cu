// A host loop parallelised with OpenMP, as cuda-samples' cudaOpenMP and
// llm.c's dev/cuda matmul files do; nvcc's host compiler (GCC) has omp.h,
// clang 22 without libomp-dev does not.
#include <omp.h>

__global__ void scale(float *x, float f) { x[blockIdx.x * blockDim.x + threadIdx.x] *= f; }

int threads() { return omp_get_max_threads(); }
