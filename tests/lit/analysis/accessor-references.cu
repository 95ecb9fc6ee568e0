// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// A non-const member function that changes nothing of its object but
// returns a reference into it (an accessor: cutlass's `GemmCoord::m()` has a
// non-const overload returning `Index &`) writes nothing by being called.
// Only what the caller does with the result writes the object: assigning to
// it, incrementing it, binding it to a writable reference. Counting every
// call as a write made a coordinate computed from blockIdx, read later
// under a warp-dependent branch, "assigned under a condition that is not
// uniform", and an earlier whole-block exit on it divergent (cutlass
// gemm_with_k_reduction.h:450 before the reads at :654-672).

struct Coord {
  int idx[3];
  __device__ int &at(int d) { return idx[d]; }
  __device__ int &operator[](int d) { return idx[d]; }
};
struct Tile : Coord {
  __device__ int &m() { return this->at(0); }
  __device__ int &n() { return at(1); }
};

__device__ Tile tileOf() {
  Tile t;
  t.m() = blockIdx.x;
  t.n() = blockIdx.y;
  t[2] = 0;
  return t;
}

// Reads through the accessor under a warp-dependent branch after a
// whole-block exit on the coordinate.
__global__ void readsUnderWarpBranch(float *out, int rows, int *flags) {
  __shared__ float tile[256];
  Tile t = tileOf();
  if (rows <= t.m())
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
  if (threadIdx.x / 32 == 0)
    flags[threadIdx.x] = t.m() + t[1];
}

// A store through the accessor under a per-thread branch: the coordinate
// is per-thread after the join.
__global__ void storeUnderThreadBranch(float *out, int rows) {
  __shared__ float tile[256];
  Tile t = tileOf();
  if (threadIdx.x < 7)
    t.m() = rows;
  if (rows <= t.m())
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// A per-thread value stored through the subscript accessor.
__global__ void storesThreadValue(float *out, int rows) {
  __shared__ float tile[256];
  Tile t = tileOf();
  t[0] = threadIdx.x;
  if (rows <= t.m())
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// A reference bound to what the accessor returns, written per thread.
__global__ void writesThroughBoundReference(float *out, int rows) {
  __shared__ float tile[256];
  Tile t = tileOf();
  int &r = t.n();
  if (threadIdx.x & 1)
    r = rows;
  if (rows <= t.n())
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// Incremented per thread through the accessor.
__global__ void incrementedPerThread(float *out, int rows) {
  __shared__ float tile[256];
  Tile t = tileOf();
  if (threadIdx.x % 3 == 0)
    ++t.m();
  if (rows <= t.m())
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

int main() {
  float *out = nullptr;
  int *flags = nullptr;
  readsUnderWarpBranch<<<4, 256>>>(out, 8, flags);
  storeUnderThreadBranch<<<4, 256>>>(out, 8);
  storesThreadValue<<<4, 256>>>(out, 8);
  writesThroughBoundReference<<<4, 256>>>(out, 8);
  incrementedPerThread<<<4, 256>>>(out, 8);
}
