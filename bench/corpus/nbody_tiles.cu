// All-pairs n-body forces with tiles of bodies staged in shared memory.
#include <cuda_runtime.h>

__device__ float3 interact(float4 Bi, float4 Bj, float3 Acc) {
  float3 R = make_float3(Bj.x - Bi.x, Bj.y - Bi.y, Bj.z - Bi.z);
  float DistSq = R.x * R.x + R.y * R.y + R.z * R.z + 1e-9f;
  float Inv = rsqrtf(DistSq);
  float S = Bj.w * Inv * Inv * Inv;
  Acc.x += R.x * S;
  Acc.y += R.y * S;
  Acc.z += R.z * S;
  return Acc;
}

template <int TILE>
__global__ void forces(const float4 *Bodies, float3 *Accel, int N) {
  __shared__ float4 Tile[TILE];
  int I = blockIdx.x * TILE + threadIdx.x;
  float4 Me = I < N ? Bodies[I] : make_float4(0, 0, 0, 0);
  float3 Acc = make_float3(0, 0, 0);
  for (int Base = 0; Base < N; Base += TILE) {
    int J = Base + threadIdx.x;
    Tile[threadIdx.x] = J < N ? Bodies[J] : make_float4(0, 0, 0, 0);
    __syncthreads();
#pragma unroll 8
    for (int K = 0; K < TILE; ++K)
      Acc = interact(Me, Tile[K], Acc);
    __syncthreads();
  }
  if (I < N)
    Accel[I] = Acc;
}

__global__ void integrate(float4 *Bodies, float3 *Velocity, const float3 *Accel,
                          float Dt, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float3 V = Velocity[I];
  V.x += Accel[I].x * Dt;
  V.y += Accel[I].y * Dt;
  V.z += Accel[I].z * Dt;
  Velocity[I] = V;
  Bodies[I].x += V.x * Dt;
  Bodies[I].y += V.y * Dt;
  Bodies[I].z += V.z * Dt;
}

void step(float4 *Bodies, float3 *Velocity, float3 *Accel, int N, float Dt) {
  forces<256><<<(N + 255) / 256, 256>>>(Bodies, Accel, N);
  integrate<<<(N + 255) / 256, 256>>>(Bodies, Velocity, Accel, Dt, N);
}
