// A full-warp mask under a branch that only half the warp takes: lane 15
// reads a lane that is not there (cuda-full-warp-mask).
__global__ void halfWarpShift(int *out) {
  int lane = threadIdx.x % 32;
  int v = lane;
  if (lane < 16)
    v += __shfl_down_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
