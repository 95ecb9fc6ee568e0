// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t
// The fields of a local object are values of their own: `p.y` computed from
// blockIdx is block-uniform beside `p.x` from threadIdx (HeCBench bm3d's
// `int2 p`, blockmatching.cu:104-110: an early return on p.y alone). The
// object as a whole (a copy, an argument) is as divergent as its most
// divergent field.

struct Point { int x, y; };
struct Window { int rows[4]; int first; };

__device__ void shift(Point &p) { p.y += threadIdx.x; }

// An early exit on the block-uniform field.
__global__ void exitOnUniformField(float *out, int n, int step) {
  __shared__ float tile[256];
  int2 p;
  p.x = threadIdx.x * step;
  p.y = blockIdx.y * step;
  if (p.y >= n)
    return;
  tile[threadIdx.x] = out[p.x];
  __syncthreads();
  out[p.x] = tile[(threadIdx.x + 1) % 256];
}

// The same fields given by an initializer list.
__global__ void fieldsFromInitList(float *out, int n) {
  __shared__ float tile[256];
  Point p = {static_cast<int>(threadIdx.x), static_cast<int>(blockIdx.x)};
  if (p.y >= n)
    return;
  tile[threadIdx.x] = out[p.x];
  __syncthreads();
  out[p.x] = tile[(threadIdx.x + 1) % 256];
}

// The exit tests the per-thread field.
__global__ void exitOnThreadField(float *out, int n) {
  __shared__ float tile[256];
  Point p;
  p.x = threadIdx.x;
  p.y = blockIdx.x;
  if (p.x >= n)
    return;
  tile[threadIdx.x] = out[p.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[p.x] = tile[(threadIdx.x + 1) % 256];
}

// A copy of the whole object carries its per-thread field.
__global__ void exitOnCopy(float *out, int n) {
  __shared__ float tile[256];
  Point p;
  p.x = threadIdx.x;
  p.y = blockIdx.x;
  Point q = p;
  if (q.x + q.y >= n)
    return;
  tile[threadIdx.x] = out[p.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[p.x] = tile[(threadIdx.x + 1) % 256];
}

// A field set under a per-thread branch is per-thread after the join.
__global__ void fieldSetUnderBranch(float *out, int n) {
  __shared__ float tile[256];
  Point p = {0, 0};
  if (threadIdx.x < 7)
    p.y = 1;
  if (p.y == 0)
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// One element of an array field written per thread: the field is
// per-thread, the other field is not.
__global__ void arrayField(float *out, int n) {
  __shared__ float tile[256];
  Window w;
  w.first = blockIdx.x;
  w.rows[threadIdx.x % 4] = threadIdx.x;
  if (w.first >= n)
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  if (w.rows[0] > n)
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// Handed by reference to a function that writes it: the object is not
// tracked field by field, and what the call stores is per-thread.
__global__ void writtenByCallee(float *out, int n) {
  __shared__ float tile[256];
  Point p = {0, static_cast<int>(blockIdx.x)};
  shift(p);
  if (p.y >= n)
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// Assigned whole from a per-thread object after the uniform field was set.
__global__ void wholeAssignment(float *out, int n) {
  __shared__ float tile[256];
  Point p = {0, static_cast<int>(blockIdx.x)};
  Point mine = {static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.x)};
  p = mine;
  if (p.y >= n)
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

// A by-value parameter of a helper: its fields are what the caller passed.
__device__ bool pastEnd(Point p, int n) { return p.y >= n; }

__global__ void parameterFields(float *out, int n) {
  __shared__ float tile[256];
  Point p = {static_cast<int>(threadIdx.x), static_cast<int>(blockIdx.x)};
  if (pastEnd(p, n))
    return;
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '__syncthreads()' is reached under control flow that diverges within the block (early exit) [cuda-divergent-barrier]
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}
