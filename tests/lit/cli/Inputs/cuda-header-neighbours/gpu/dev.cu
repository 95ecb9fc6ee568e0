__global__ void other(float *p) { p[threadIdx.x] = 0; }
