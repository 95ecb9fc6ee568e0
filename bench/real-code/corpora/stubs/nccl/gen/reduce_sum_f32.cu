// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// instantiations NCCL's src/device/generate.py writes for reduce_sum_f32.cu at build
// time, written by hand (one kernel and its device functions).

#include "common.h"
#include "reduce.h"
DEFINE_ncclDevKernel(Reduce_Sum_f32_RING_LL, ncclFuncReduce, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_LL, 435)
DEFINE_ncclDevFunc(Reduce_Sum_f32_RING_LL, ncclFuncReduce, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_LL)
DEFINE_ncclDevFunc(Reduce_Sum_f32_RING_LL128, ncclFuncReduce, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_LL128)
DEFINE_ncclDevFunc(Reduce_Sum_f32_RING_SIMPLE, ncclFuncReduce, FuncSum, float, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE)
