// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// What a call leaves in the variables it receives by reference. A helper
// that takes `T *&alloc` and stores only through the pointer leaves the
// caller's `alloc` as it was; a helper that stores a broadcast into one
// reference parameter and a per-lane value into another makes only the
// second per-lane in the caller (the stores are told apart per parameter,
// with the sync dependence of the branches that store); a variable handed
// to a reader by non-const reference keeps a flow-sensitive value.

struct Pool {
  unsigned *slots;
  // Takes its index by non-const reference and only reads it.
  __device__ unsigned *at(unsigned &index) { return slots + index * 32; }
};

__device__ unsigned readLane(unsigned *node) {
  return ((volatile unsigned *)node)[threadIdx.x % 32];
}

__device__ void writeLane(unsigned *node, unsigned v) {
  ((volatile unsigned *)node)[threadIdx.x % 32] = v;
}

// Stores per-lane data through the pool pointer, never into `pool` itself.
__device__ void storeRow(unsigned index, unsigned value, Pool *&pool) {
  writeLane(pool->at(index), value + threadIdx.x);
}

// `index` receives a broadcast, `data` a per-lane value.
__device__ bool split(unsigned key, unsigned &index, unsigned &data,
                      Pool *&pool) {
  unsigned right = __shfl_sync(0xffffffffu, data, 0);
  if (threadIdx.x % 32 < 16)
    data = 0;
  writeLane(pool->at(right), data);
  if (key >= right) {
    index = right;
    return true;
  }
  return false;
}

__global__ void pointerParameterKeepsItsValue(unsigned *root, Pool *pool,
                                              unsigned *out) {
  unsigned index = *root;
  storeRow(index, 7, pool);
  // `pool` is still the kernel's argument: the same for the whole warp.
  unsigned data = readLane(pool->at(index));
  unsigned first = __shfl_sync(0xffffffffu, data, 0);
  if (first != 0)
    out[blockIdx.x] = __shfl_sync(0xffffffffu, data, 1);
}

__global__ void broadcastAndPerLaneStores(unsigned *root, Pool *pool,
                                          unsigned *out) {
  unsigned index = *root;
  unsigned data = readLane(pool->at(index));
  unsigned key = __shfl_sync(0xffffffffu, data, 31);
  split(key, index, data, pool);
  // `index` got a broadcast: warp-uniform.
  if (index != *root)
    out[0] = __shfl_sync(0xffffffffu, index, 3);
  // `data` got per-lane values.
  if (data != 0)
    out[1] = __shfl_sync(0xffffffffu, data, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
}

// A uniform constant stored only by some lanes is per-lane afterwards.
__device__ void setForLowLanes(int &flag) {
  if (threadIdx.x % 32 < 8)
    flag = 1;
}

// Passes its parameter on to a helper that writes it.
__device__ void forward(int &flag) { setForLowLanes(flag); }

__global__ void storeUnderLaneBranch(int *out) {
  int flag = 0;
  forward(flag);
  if (flag)
    out[0] = __shfl_sync(0xffffffffu, flag, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '__shfl_sync' is called with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
}

// Reads through a non-const reference: the caller's variable does not
// escape, so a later uniform assignment is what the branch sees.
__device__ int peek(int &value) { return value + 1; }

__global__ void readerDoesNotEscape(const int *in, int *out) {
  int value = in[threadIdx.x];
  out[threadIdx.x] = peek(value);
  value = in[blockIdx.x];
  if (value > 0)
    out[blockIdx.x] = __shfl_sync(0xffffffffu, value, 0);
}
