// Issue 37: projects that build with clang keep their own shims for what
// nvcc's headers give and clang's lack, the same names the
// nvcc-compatibility header defines (host min/max, the cache-hinted loads
// and stores, CUDA 12's unified-memory hints). Once the header was
// force-included, each gave "redefinition of 'max'" and the file was not
// analyzed. The header's shims are templates, so a definition of the
// user's own never collides with one and wins overload resolution (a
// non-template beats a template on a tie); the noexcept below shows that
// the call resolves to the user's.
// RUN: %check_cuda_tidy %s cuda-group-by-value %t -- -- -include %nvcc_compat_header

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Host min/max, in the shapes projects write them.
static inline __host__ int max(int a, int b) noexcept { return a > b ? a : b; }
inline int min(int a, int b) noexcept { return a < b ? a : b; }
__host__ inline float max(float a, float b) { return a > b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
template <class T> __host__ T max(T a, T b, T c) { return max(max(a, b), c); }

// The cache-hinted loads and stores clang 22 does not define.
__device__ void __stcs(float4 *p, float4 v) { *p = v; }
static __device__ __forceinline__ void __stcg(int4 *p, int4 v) { *p = v; }
__device__ __inline__ void __stwb(float *p, float v) { *p = v; }
__device__ float __ldca(const float *p) { return *p; }
static __device__ __inline__ double2 __ldlu(const double2 *p) { return *p; }

// CUDA 12's device-ordinal forms of the unified-memory hints.
cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise a,
                          int device) noexcept {
  cudaMemLocation where = {};
  where.type = cudaMemLocationTypeDevice;
  where.id = device;
  return cudaMemAdvise(p, n, a, where);
}
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device,
                                 cudaStream_t stream = 0) {
  cudaMemLocation where = {};
  where.type = cudaMemLocationTypeDevice;
  where.id = device;
  return cudaMemPrefetchAsync(p, n, where, 0, stream);
}

int hostSide(int a, unsigned u, float f, void *p, cudaStream_t stream) {
  static_assert(noexcept(max(1, 2)) && noexcept(min(1, 2)),
                "the project's min and max are the ones called");
  static_assert(
      noexcept(cudaMemAdvise(p, 4, cudaMemAdviseSetReadMostly, 0)),
      "the project's cudaMemAdvise is the one called");
  // Calls the shims do not cover still find the header's.
  long long big = max(1LL, 2LL);
  return max(a, 2) + min(a, 3) + static_cast<int>(max(f, 1.0f)) +
         static_cast<int>(min(u, 2u)) + max(1, 2, 3) + static_cast<int>(big) +
         cudaMemAdvise(p, 4, cudaMemAdviseSetReadMostly, 0) +
         cudaMemPrefetchAsync(p, 4, 0, stream);
}

__global__ void streaming(float4 *q, int4 *r, float *f, double2 *d) {
  __stcs(q, q[1]);
  __stcg(r, r[1]);
  __stwb(f, __ldca(f));
  d[0] = __ldlu(d + 1);
  // And one the header alone has: __stcs of a double.
  __stcs(reinterpret_cast<double *>(d) + 4, 1.0);
}

// The file is analyzed: its finding is reported.
__device__ void syncAll(cg::thread_block b) { b.sync(); }
// CHECK-MESSAGES: :[[@LINE-1]]:42: warning: cooperative-groups handle 'b' of type 'cg::thread_block' is passed by value; pass group handles by reference [cuda-group-by-value]
