// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// instantiations NCCL's src/device/generate.py writes for broadcast.cu at build
// time, written by hand (one kernel and its device functions).

#include "common.h"
#include "broadcast.h"
DEFINE_ncclDevKernel(Broadcast_RING_LL, ncclFuncBroadcast, FuncCopy, int8_t, NCCL_ALGO_RING, NCCL_PROTO_LL, 345)
DEFINE_ncclDevFunc(Broadcast_RING_LL, ncclFuncBroadcast, FuncCopy, int8_t, NCCL_ALGO_RING, NCCL_PROTO_LL)
DEFINE_ncclDevFunc(Broadcast_RING_LL128, ncclFuncBroadcast, FuncCopy, int8_t, NCCL_ALGO_RING, NCCL_PROTO_LL128)
DEFINE_ncclDevFunc(Broadcast_RING_SIMPLE, ncclFuncBroadcast, FuncCopy, int8_t, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE)
