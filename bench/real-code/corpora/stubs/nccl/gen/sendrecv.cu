// cuda-tidy real-code stand-in (bench/real-code/corpora/nccl.py): the
// instantiations NCCL's src/device/generate.py writes for sendrecv.cu at build
// time, written by hand (one kernel and its device functions).

#include "common.h"
#include "sendrecv.h"
DEFINE_ncclDevKernel(SendRecv, ncclFuncSendRecv, FuncCopy, int8_t, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE, 672)
DEFINE_ncclDevFunc(SendRecv, ncclFuncSendRecv, FuncCopy, int8_t, NCCL_ALGO_RING, NCCL_PROTO_SIMPLE)
