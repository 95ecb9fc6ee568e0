// Issue 15, "parse what nvcc parses": each idiom below builds with nvcc but,
// before the nvcc-compatibility header, did not parse with clang 22 (the
// error each one gave is in its comment). With the header, the file parses
// on both front-ends and the checks still see the kernels: the barrier
// under a divergent branch at the end is found.
// The plugin gets the header the documented way (-include); the standalone
// adds it by itself (cli/nvcc-compat.test checks that, and that every shim
// is needed).
// RUN: %check_cuda_tidy %s cuda-divergent-barrier %t -- -- -include %nvcc_compat_header

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Host min/max (nvcc's crt/math_functions.hpp): "no matching function for
// call to 'max'" in host code.
int hostSizes(int a, unsigned b, size_t c, size_t d, float e) {
  return max(a, 2) + (int)min(b, 3u) + (int)max(c, d) + (int)min(e, 1.0f) +
         (int)max(a, b);
}

// Host isfinite with no <math.h> (nvcc's cuda_runtime.h brings it):
// "no matching function for call to 'isfinite'".
template <class T> bool allFinite(const T *p, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(p[i]))
      return false;
  return true;
}
template bool allFinite<float>(const float *, int);

// Cache-hinted stores and loads (sm_32_intrinsics.h): "use of undeclared
// identifier '__stcs'".
template <class E> __device__ void storeStreaming(E *target, int4 value) {
  __stcs(reinterpret_cast<int4 *>(target), value);
  __stcg(reinterpret_cast<int4 *>(target) + 1, value);
  __stwb(reinterpret_cast<float *>(target) + 8, __ldlu(reinterpret_cast<const float *>(target)));
  __stcs(reinterpret_cast<double2 *>(target) + 4, __ldca(reinterpret_cast<const double2 *>(target)));
}
template __device__ void storeStreaming<float>(float *, int4);

// Cluster groups on sm_90 (cooperative_groups/details/info.h offers them
// only under nvcc): "no member named 'this_cluster' in namespace
// 'cooperative_groups'".
__global__ void __cluster_dims__(2, 1, 1) exchange(int *out) {
  __shared__ int slots[32];
  cg::cluster_group cluster = cg::this_cluster();
  slots[threadIdx.x % 32] = threadIdx.x;
  cluster.sync();
  int *peer = cluster.map_shared_rank(slots, (cluster.block_rank() + 1) % cluster.num_blocks());
  out[threadIdx.x] = peer[threadIdx.x % 32];
  cluster.sync();
}

// CUDA 12's unified-memory hints with a device ordinal (llm.c's
// cudaMallocConditionallyManaged), which CUDA 13 replaced by cudaMemLocation
// overloads: "no matching function for call to 'cudaMemAdvise'".
int preferHost(void *p, size_t bytes, cudaStream_t stream) {
  if (cudaMemAdvise(p, bytes, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId))
    return 1;
  return cudaMemPrefetchAsync(p, bytes, 0, stream) != cudaSuccess;
}

// assert with no <assert.h> of its own (nvcc's crt/common_functions.h
// includes it; here cooperative_groups.h happens to as well, so the
// cuda-samples NVRTC kernel simpleAssert_kernel.cu is the real case).
__global__ void checked(float *x) {
  assert(x != nullptr);
  if (threadIdx.x < 16)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '__syncthreads()' is reached under control flow that diverges within the block (branch) [cuda-divergent-barrier]
  x[threadIdx.x] = 1.0f;
  // Every thread meets this barrier: the ones that skipped the branch do not
  // leave the kernel (divergence/ExitedThreads.h), so the finding is definite.
  __syncthreads();
}
