// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// symmetric kernels NCCL's src/device/symmetric/generate.py writes for
// reduce_scatter_sum_f32.cu at build time, written by hand: each kernel waits for the grid
// dependency and runs one ncclSymkRun_* function.

#include "sym_kernels.h"
#include "symmetric/kernel.cuh"
#include "symmetric/reduce_scatter.cuh"
__global__ void ncclSymkDevKernel_ReduceScatter_LL_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_ReduceScatter_LL<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_ReduceScatter_LD_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_ReduceScatter_LD<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_ReduceScatter_LDMC_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_ReduceScatter_LDMC<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_ReduceScatter_TmaLD_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_ReduceScatter_TmaLD<FuncSum, float>(&args4K.args);
#endif
}
