// Level-synchronous BFS with a frontier queue built by warp-aggregated
// atomics.
#include <cuda_runtime.h>

__device__ int enqueue(int *Queue, int *Size, int Vertex) {
  unsigned Mask = __activemask();
  int Leader = __ffs(Mask) - 1;
  int Lane = threadIdx.x & 31;
  int Base = 0;
  if (Lane == Leader)
    Base = atomicAdd(Size, __popc(Mask));
  Base = __shfl_sync(Mask, Base, Leader);
  int Slot = Base + __popc(Mask & ((1u << Lane) - 1));
  Queue[Slot] = Vertex;
  return Slot;
}

__global__ void expandFrontier(const int *RowPtr, const int *Cols,
                               const int *Frontier, int FrontierSize,
                               int *Levels, int Level, int *Next,
                               int *NextSize) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= FrontierSize)
    return;
  int V = Frontier[I];
  for (int E = RowPtr[V]; E < RowPtr[V + 1]; ++E) {
    int U = Cols[E];
    if (atomicCAS(&Levels[U], -1, Level + 1) == -1)
      enqueue(Next, NextSize, U);
  }
}

void bfs(const int *RowPtr, const int *Cols, int Source, int *Levels,
         int *QueueA, int *QueueB, int *Size, int Vertices) {
  const int Zero = 0;
  cudaMemset(Levels, 0xff, Vertices * sizeof(int));
  cudaMemcpy(Levels + Source, &Zero, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(QueueA, &Source, sizeof(int), cudaMemcpyHostToDevice);
  int FrontierSize = 1;
  for (int Level = 0; FrontierSize > 0; ++Level) {
    cudaMemset(Size, 0, sizeof(int));
    expandFrontier<<<(FrontierSize + 255) / 256, 256>>>(
        RowPtr, Cols, QueueA, FrontierSize, Levels, Level, QueueB, Size);
    cudaMemcpy(&FrontierSize, Size, sizeof(int), cudaMemcpyDeviceToHost);
    int *T = QueueA;
    QueueA = QueueB;
    QueueB = T;
  }
}
