// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// symmetric kernels NCCL's src/device/symmetric/generate.py writes for
// all_gather.cu at build time, written by hand: each kernel waits for the grid
// dependency and runs one ncclSymkRun_* function.

#include "sym_kernels.h"
#include "symmetric/kernel.cuh"
#include "symmetric/all_gather.cuh"
__global__ void ncclSymkDevKernel_AllGather_LL(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllGather_LL(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllGather_LLMC(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllGather_LLMC(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllGather_ST(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllGather_ST(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllGather_STMC(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllGather_STMC(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllGather_TmaST(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_AllGather_TmaST(&args4K.args);
#endif
}
__global__ void ncclSymkDevKernel_AllGather_TmaSTMC(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 900
  ncclSymkRun_AllGather_TmaSTMC(&args4K.args);
#endif
}
