#include "../include/plain.h"
__global__ void k2() { plainHelper(cg::this_thread_block()); }
