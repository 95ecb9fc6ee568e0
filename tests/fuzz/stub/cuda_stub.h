// A CUDA-less stand-in for the toolkit headers, just enough for the checks'
// API recognition: builtin index variables, block and warp intrinsics, a
// cooperative_groups namespace with the group types and collectives, and the
// host launch API the grid-sync check reads. It lets the fuzzer parse a
// mutated kernel in milliseconds instead of the 1.5 s the real headers take.
// Names and namespaces follow the toolkit's, since that is what the checks
// match; signatures are simplified. Tests of behaviour use the real headers.
#pragma once
#include <__clang_cuda_builtin_vars.h>

#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict

typedef __SIZE_TYPE__ size_t;
typedef __INT32_TYPE__ int32_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT64_TYPE__ uint64_t;
#define INT_MAX __INT_MAX__
#define UINT_MAX (__INT_MAX__ * 2U + 1U)
#define FLT_MAX __FLT_MAX__
#define INFINITY __builtin_inff()

// Host runtime: the launch entry points and what they take.
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned X = 1, unsigned Y = 1,
                                     unsigned Z = 1)
      : x(X), y(Y), z(Z) {}
};
typedef struct CUstream_st *cudaStream_t;
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost,
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice,
  cudaMemcpyDefault
};
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };
enum cudaLaunchAttributeID {
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeClusterDimension = 4
};
union cudaLaunchAttributeValue {
  int cooperative;
  struct {
    unsigned x, y, z;
  } clusterDim;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  cudaLaunchAttributeValue val;
};
struct cudaLaunchConfig_t {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned numAttrs;
};
struct cudaLaunchParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  void **args;
  size_t sharedMem;
  cudaStream_t stream;
};
extern "C" {
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0,
                              cudaStream_t stream = 0);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                                     cudaStream_t stream = 0);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind k);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d);
cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args,
                             size_t shared, cudaStream_t s);
cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b,
                                        void **args, size_t shared,
                                        cudaStream_t s);
cudaError_t cudaLaunchCooperativeKernelMultiDevice(cudaLaunchParams *p,
                                                   unsigned n,
                                                   unsigned flags = 0);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *f,
                                void **args);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f,
                                                          int block,
                                                          size_t shared);
}
template <class T>
cudaError_t cudaMalloc(T **p, size_t n) {
  return cudaMalloc((void **)p, n);
}
template <class T>
cudaError_t cudaLaunchKernel(T *f, dim3 g, dim3 b, void **args,
                             size_t shared = 0, cudaStream_t s = 0) {
  return cudaLaunchKernel((const void *)f, g, b, args, shared, s);
}
template <class T>
cudaError_t cudaLaunchCooperativeKernel(T *f, dim3 g, dim3 b, void **args,
                                        size_t shared = 0, cudaStream_t s = 0) {
  return cudaLaunchCooperativeKernel((const void *)f, g, b, args, shared, s);
}
template <class... Kernel, class... Args>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *c,
                               void (*f)(Kernel...), Args &&...args) {
  return cudaLaunchKernelExC(c, (const void *)f, nullptr);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T f,
                                                          int block,
                                                          size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f,
                                                       block, shared);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, T f,
                                               size_t shared = 0,
                                               int limit = 0);

// Device intrinsics.
extern "C" __device__ void __syncthreads(void);
extern "C" __device__ int __syncthreads_count(int);
extern "C" __device__ int __syncthreads_and(int);
extern "C" __device__ int __syncthreads_or(int);
extern "C" __device__ void __syncwarp(unsigned mask = 0xffffffff);
extern "C" __device__ void __threadfence(void);
extern "C" __device__ void __threadfence_block(void);
__device__ unsigned __activemask();
__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ int __any_sync(unsigned mask, int pred);
__device__ int __all_sync(unsigned mask, int pred);
__device__ int __uni_sync(unsigned mask, int pred);
__device__ unsigned __match_any_sync(unsigned mask, int v);
__device__ unsigned __match_all_sync(unsigned mask, int v, int *pred);
template <class T>
__device__ T __shfl_sync(unsigned mask, T v, int lane, int width = 32);
template <class T>
__device__ T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32);
template <class T>
__device__ T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32);
template <class T>
__device__ T __shfl_xor_sync(unsigned mask, T v, int m, int width = 32);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned v);
__device__ unsigned __reduce_min_sync(unsigned mask, unsigned v);
__device__ unsigned __reduce_max_sync(unsigned mask, unsigned v);
__device__ unsigned __reduce_and_sync(unsigned mask, unsigned v);
__device__ unsigned __reduce_or_sync(unsigned mask, unsigned v);
__device__ unsigned __reduce_xor_sync(unsigned mask, unsigned v);
__device__ int __popc(unsigned v);
__device__ int __ffs(int v);
__device__ unsigned __lanemask_lt();
__device__ int atomicAdd(int *p, int v);
__device__ unsigned atomicAdd(unsigned *p, unsigned v);
__device__ float atomicAdd(float *p, float v);
__device__ int atomicMax(int *p, int v);
__device__ int atomicCAS(int *p, int c, int v);
__device__ int atomicExch(int *p, int v);
__host__ __device__ float fmaxf(float a, float b);
__host__ __device__ float rsqrtf(float v);
__device__ float __expf(float v);
template <class T> __host__ __device__ T min(T a, T b) { return a < b ? a : b; }
template <class T> __host__ __device__ T max(T a, T b) { return a < b ? b : a; }

namespace cooperative_groups {
namespace __v1 {
class thread_group {
public:
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ void sync() const;
};
class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 dim_threads() const;
};
class grid_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ unsigned long long block_rank() const;
  __device__ unsigned long long num_blocks() const;
  __device__ unsigned long long num_threads() const;
  struct arrival_token {};
  __device__ arrival_token barrier_arrive() const;
  __device__ void barrier_wait(arrival_token &&t) const;
};
class multi_grid_group : public thread_group {
public:
  __device__ void sync() const;
};
class cluster_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned block_rank() const;
  __device__ unsigned num_blocks() const;
  struct arrival_token {};
  __device__ arrival_token barrier_arrive() const;
  __device__ void barrier_wait(arrival_token &&t) const;
  __device__ void barrier_wait() const;
};
class coalesced_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned num_threads() const;
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T v, int lane) const;
  template <class T> __device__ T shfl_down(T v, unsigned d) const;
  template <class T> __device__ T shfl_up(T v, unsigned d) const;
  __device__ unsigned ballot(int p) const;
  __device__ int any(int p) const;
  __device__ int all(int p) const;
};
template <unsigned N, class Parent = void>
class thread_block_tile;
template <unsigned N>
class thread_block_tile<N, void> : public thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned thread_rank() const;
  __device__ unsigned num_threads() const;
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  template <class T> __device__ T shfl(T v, int lane) const;
  template <class T> __device__ T shfl_down(T v, unsigned d) const;
  template <class T> __device__ T shfl_up(T v, unsigned d) const;
  template <class T> __device__ T shfl_xor(T v, unsigned m) const;
  __device__ unsigned ballot(int p) const;
  __device__ int any(int p) const;
  __device__ int all(int p) const;
  template <class T> __device__ unsigned match_any(T v) const;
  template <class T> __device__ unsigned match_all(T v, int &pred) const;
};
template <unsigned N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ multi_grid_group this_multi_grid();
__device__ cluster_group this_cluster();
__device__ coalesced_group coalesced_threads();
template <unsigned N, class P>
__device__ thread_block_tile<N, P> tiled_partition(const P &parent);
__device__ thread_group tiled_partition(const thread_group &parent, unsigned n);
template <class G>
__device__ coalesced_group labeled_partition(const G &parent, int label);
template <class G>
__device__ coalesced_group binary_partition(const G &parent, bool pred);
template <class T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
  __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};
template <class T> struct greater {
  __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class G, class T, class Op>
__device__ T reduce(const G &g, T v, Op op);
template <class G, class T, class Op>
__device__ T inclusive_scan(const G &g, T v, Op op);
template <class G, class T> __device__ T inclusive_scan(const G &g, T v);
template <class G, class T, class Op>
__device__ T exclusive_scan(const G &g, T v, Op op);
template <class G, class T> __device__ T exclusive_scan(const G &g, T v);
template <class G, class F> __device__ void invoke_one(const G &g, F f);
template <class G, class F> __device__ auto invoke_one_broadcast(const G &g, F f);
template <class G, class T>
__device__ void memcpy_async(const G &g, T *dst, const T *src, size_t bytes);
template <class G> __device__ void wait(const G &g);
template <unsigned N, class G> __device__ void wait_prior(const G &g);
__device__ void sync(const thread_group &g);
} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups
