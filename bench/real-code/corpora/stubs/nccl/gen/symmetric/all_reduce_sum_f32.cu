// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// symmetric kernels NCCL's src/device/symmetric/generate.py writes for
// all_reduce_sum_f32.cu at build time, written by hand: each kernel waits for the grid
// dependency and runs one ncclSymkRun_* function.

#include "sym_kernels.h"
#include "symmetric/kernel.cuh"
#include "symmetric/all_reduce.cuh"
__global__ void ncclSymkDevKernel_AllReduce_AGxLL_R_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllReduce_AGxLL_R<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllReduce_AGxLLMC_R_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_AllReduce_AGxLLMC_R<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllReduce_RSxLD_AGxST_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllReduce_RSxLD_AGxST<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllReduce_RSxLDMC_AGxSTMC_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_AllReduce_RSxLDMC_AGxSTMC<FuncSum, float>(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllReduce_RSxTmaLD_AGxTmaST_sum_f32(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_AllReduce_RSxTmaLD_AGxTmaST<FuncSum, float>(&args4K.args);
#endif
}
