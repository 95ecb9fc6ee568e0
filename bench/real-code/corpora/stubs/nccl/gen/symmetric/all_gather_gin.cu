// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// symmetric kernels NCCL's src/device/symmetric/generate.py writes for
// all_gather_gin.cu at build time, written by hand: each kernel waits for the grid
// dependency and runs one ncclSymkRun_* function.

#include "sym_kernels.h"
#include "symmetric/kernel.cuh"
#include "symmetric/all_gather_gin.cuh"
__global__ void ncclSymkDevKernel_AllGather_RailRing_LsaSTMC(ncclSymkDevWorkArgs4K NCCL_GRID_CONSTANT const args4K) {
#if CUDART_VERSION >= 12030 && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
#if __CUDA_ARCH__ >= 600
  ncclSymkRun_AllGather_RailRing_LsaSTMC(&args4K.args);
#endif
}
