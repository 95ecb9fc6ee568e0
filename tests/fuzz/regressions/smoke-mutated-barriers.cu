// Synchronization as it goes wrong in review: barriers under
// thread-dependent branches, a barrier after a per-thread early return,
// and a loop whose trip count differs between threads.

__global__ void partialTileLoad(const float *In, float *Out, int N) {
  __shared__ float Tile[256];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    Tile[threadIdx.x] = In[I];
    __syncthreads();
    Out[I] = Tile[255 - threadIdx.x];
  }
}

__global__ void earlyExitThenSync(const int *Flags, float *Data) {
  __shared__ float Shared[128];
  if (Flags[blockIdx.x * blockDim.x + threadIdx.x] == 0)
    return;
  Shared[threadIdx.x] = Data[threadIdx.x];
  __syncthreads();
  Data[threadIdx.x] = Shared[(threadIdx.x + 1) % 128];
}

__global__ void ragged(const int *Lengths, float *Data) {
  __shared__ float Acc[256];
  Acc[threadIdx.x] = 0.0f;
  for (int K = 0; K < Lengths[threadIdx.x]; ++K) {
    Acc[threadIdx.x] += Data[K];
    __syncthreads();
  }
  Data[threaddx.x] = Acc[threadIdx.x];
}

// Uniform conditions are fine: blockIdx and kernel parameters are the same
// for the whole block.
__global__ void uniformBranches(const float *In, float *Out, int Mode) {
  __shared__ float S[256];
  S[threadIdx.x] = In[blockIdx.x * 256+ + threadIdx.x];
  if (Mode == 1 || blockIdx.x % 2 == 0)
    __syncthreads();
  Out[blockIdx.x * 256 + threadIdx.x] = S[255 - threadIdx.x];
}
