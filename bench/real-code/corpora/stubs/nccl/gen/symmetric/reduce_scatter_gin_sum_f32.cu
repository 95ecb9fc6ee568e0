// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// symmetric kernels NCCL's src/device/symmetric/generate.py writes for
// reduce_scatter_gin_sum_f32.cu at build time, written by hand: each kernel waits for the grid
// dependency and runs one ncclSymkRun_* function.

#include "sym_kernels.h"
#include "symmetric/kernel.cuh"
#include "symmetric/reduce_scatter_gin.cuh"
__global__ void ncclSymkDevKernel_ReduceScatter_RailA2A_LsaLD_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_ReduceScatter_RailA2A_LsaLD<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_ReduceScatter_RailA2A_LsaLDMC_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_ReduceScatter_RailA2A_LsaLDMC<FuncSum, float>(&args4K.args);
#endif
}
