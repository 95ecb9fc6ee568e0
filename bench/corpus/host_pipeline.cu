// Host orchestration: streams, events, graph capture and a mix of launch
// forms for a few small kernels.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess)                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(Err));                                   \
  } while (0)

__global__ void fill(float *P, float V, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    P[I] = V;
}

__global__ void axpy(float A, const float *X, float *Y, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    Y[I] = A * X[I] + Y[I];
}

__global__ void scale(float *P, float S, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    P[I] *= S;
}

void pipeline(float *X, float *Y, int N) {
  cudaStream_t S[2];
  cudaEvent_t Done;
  for (auto &Stream : S)
    CHECK(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&Done, cudaEventDisableTiming));
  fill<<<(N + 255) / 256, 256, 0, S[0]>>>(X, 1.0f, N);
  fill<<<(N + 255) / 256, 256, 0, S[1]>>>(Y, 2.0f, N);
  CHECK(cudaEventRecord(Done, S[1]));
  CHECK(cudaStreamWaitEvent(S[0], Done, 0));
  axpy<<<264, 256, 0, S[0]>>>(3.0f, X, Y, N);

  cudaGraph_t Graph;
  cudaGraphExec_t Exec;
  CHECK(cudaStreamBeginCapture(S[0], cudaStreamCaptureModeGlobal));
  scale<<<(N + 255) / 256, 256, 0, S[0]>>>(Y, 0.5f, N);
  axpy<<<264, 256, 0, S[0]>>>(1.0f, X, Y, N);
  CHECK(cudaStreamEndCapture(S[0], &Graph));
  CHECK(cudaGraphInstantiate(&Exec, Graph, 0));
  for (int K = 0; K < 10; ++K)
    CHECK(cudaGraphLaunch(Exec, S[0]));

  cudaLaunchConfig_t Config = {};
  Config.gridDim = dim3((N + 255) / 256);
  Config.blockDim = dim3(256);
  Config.stream = S[1];
  CHECK(cudaLaunchKernelEx(&Config, scale, Y, 2.0f, N));
  void *Args[] = {&X, &N};
  float V = 0.0f;
  void *FillArgs[] = {&X, &V, &N};
  (void)Args;
  CHECK(cudaLaunchKernel((void *)fill, dim3((N + 255) / 256), dim3(256),
                         FillArgs, 0, S[1]));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGraphExecDestroy(Exec));
  CHECK(cudaGraphDestroy(Graph));
  for (auto &Stream : S)
    CHECK(cudaStreamDestroy(Stream));
}
