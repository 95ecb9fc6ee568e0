// A kernel hands its parameters by reference to a helper that does not
// compile in this parse (code nvcc accepts and clang rejects: DeepSpeed's
// evoformer kernel_backward.h:1781). The helper is not analyzed, so what it
// stores is unknown; a loop bound read back from the parameters afterwards
// rests on that unknown.
struct Params {
  int rows;
  int cols;
};

__device__ void refine(Params &p, int lane) {
  p.rows = undeclaredScale(p.rows, lane);
}

__device__ void perThread(Params &p, int lane) { p.cols = lane; }

__global__ void rowsAfterUnanalyzed(Params p, float *out) {
  __shared__ float tile[256];
  refine(p, threadIdx.x);
  for (int r = 0; r < p.rows; ++r) {
    tile[threadIdx.x] = out[r * 256 + threadIdx.x];
    __syncthreads();
    out[r * 256 + threadIdx.x] = tile[(threadIdx.x + 1) % 256];
    __syncthreads();
  }
}

__global__ void colsAfterAnalyzed(Params p, float *out) {
  __shared__ float tile[256];
  perThread(p, threadIdx.x);
  for (int c = 0; c < p.cols; ++c) {
    tile[threadIdx.x] = out[c * 256 + threadIdx.x];
    __syncthreads();
    out[c * 256 + threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  }
}
