// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// instantiations NCCL's src/device/generate.py writes for reduce_scatter_sum_f32.cu at build
// time, written by hand (one kernel and its device functions).

#include "common.h"
#include "reduce_scatter.h"
DEFINE_ncclDevKernel(ReduceScatter_Sum_f32_RING_LL, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_LL, 621)
DEFINE_ncclDevFunc(ReduceScatter_Sum_f32_RING_LL, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_LL)
DEFINE_ncclDevFunc(ReduceScatter_Sum_f32_RING_LL128, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_LL128)
DEFINE_ncclDevFunc(ReduceScatter_Sum_f32_RING_SIMPLE, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE)
DEFINE_ncclDevFunc(ReduceScatter_Sum_f32_COLLNET_DIRECT_SIMPLE, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_COLLNET_DIRECT, NCCL_PROTO_SIMPLE)
#if CUDART_VERSION >= 12010 && __CUDA_ARCH__ >= 900
DEFINE_ncclDevFunc(ReduceScatter_Sum_f32_NVLS_SIMPLE, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_NVLS, NCCL_PROTO_SIMPLE)
#endif
DEFINE_ncclDevFunc(ReduceScatter_Sum_f32_PAT_SIMPLE, ncclFuncReduceScatter, FuncSum, float, NCCL_ALGO_PAT, NCCL_PROTO_SIMPLE)
