// k-means assignment and centroid accumulation; centroids cached in shared
// memory, loaded by the whole block before any thread exits.
#include <cuda_runtime.h>
#include <cfloat>

template <int DIM, int MAX_K>
__global__ void assignPoints(const float *Points, int N, const float *Centroids,
                             int K, int *Labels, float *Sums, int *Counts) {
  __shared__ float C[MAX_K * DIM];
  for (int I = threadIdx.x; I < K * DIM; I += blockDim.x)
    C[I] = Centroids[I];
  __syncthreads();
  int P = blockIdx.x * blockDim.x + threadIdx.x;
  if (P >= N)
    return;
  const float *X = Points + P * DIM;
  float Best = FLT_MAX;
  int BestK = 0;
  for (int Cluster = 0; Cluster < K; ++Cluster) {
    float D = 0.0f;
#pragma unroll
    for (int J = 0; J < DIM; ++J) {
      float Diff = X[J] - C[Cluster * DIM + J];
      D += Diff * Diff;
    }
    if (D < Best) {
      Best = D;
      BestK = Cluster;
    }
  }
  Labels[P] = BestK;
  for (int J = 0; J < DIM; ++J)
    atomicAdd(&Sums[BestK * DIM + J], X[J]);
  atomicAdd(&Counts[BestK], 1);
}

__global__ void updateCentroids(float *Centroids, const float *Sums,
                                const int *Counts, int K, int Dim) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < K * Dim && Counts[I / Dim] > 0)
    Centroids[I] = Sums[I] / Counts[I / Dim];
}

void kmeansStep(const float *Points, int N, float *Centroids, int K,
                int *Labels, float *Sums, int *Counts) {
  cudaMemset(Sums, 0, sizeof(float) * K * 8);
  cudaMemset(Counts, 0, sizeof(int) * K);
  assignPoints<8, 64><<<(N + 255) / 256, 256>>>(Points, N, Centroids, K,
                                                Labels, Sums, Counts);
  updateCentroids<<<(K * 8 + 255) / 256, 256>>>(Centroids, Sums, Counts, K, 8);
}
