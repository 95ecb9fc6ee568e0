// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t
// What every launch in the file passes for a kernel parameter counts: a
// host assertion before the launch (`GGML_ASSERT(ne0 % QK8_1 == 0)` in ggml's
// quantize), or a constant. A multiple of 32 as the bound of a
// `blockDim.x * blockIdx.x + threadIdx.x` exit, with 32-aligned rows, leaves
// no partial warp behind, so the full-mask shuffle after it is fine. The
// same kernel shape launched with an unknown bound is still found.

#include <utility>

[[noreturn]] void fatal(const char *message);
#define PROJECT_ASSERT(x) if (!(x)) fatal(#x)
#define QK 32

__global__ void quantizeRows(float *out, const float *in, long ne0) {
  const long i0 = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i0 >= ne0)
    return;
  out[i0] = __shfl_xor_sync(0xffffffff, in[i0], 1);
}

// Four values per thread: (base + tid) * 4 against a multiple of 4 * 32.
__global__ void quantizeQuads(float *out, const float *in, long ne0) {
  const long i0 = ((long)blockDim.x * blockIdx.y + threadIdx.x) * 4;
  if (i0 >= ne0)
    return;
  out[i0] = __shfl_xor_sync(0xffffffff, in[i0], 1);
}

__global__ void fixedSize(float *out, const float *in, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
}

__global__ void anySize(float *out, const float *in, int n) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
}

void quantize(float *out, const float *in, long ne0, cudaStream_t stream) {
  PROJECT_ASSERT(ne0 % QK == 0);
  const dim3 block(256, 1, 1);
  quantizeRows<<<(ne0 + 255) / 256, block, 0, stream>>>(out, in, ne0);
}

void quantizeFour(float *out, const float *in, long ne0, int layout) {
  PROJECT_ASSERT(ne0 % (4 * QK) == 0);
  const dim3 block(128, 1, 1);
  switch (layout) {
  case 0:
    quantizeQuads<<<dim3(1, ne0 / 512), block>>>(out, in, ne0);
    break;
  default:
    fatal("layout");
  }
}

void fixed(float *out, const float *in) { fixedSize<<<4, 256>>>(out, in, 1024); }

void any(float *out, const float *in, int n) { anySize<<<(n + 255) / 256, 256>>>(out, in, n); }

// Through a launch wrapper that takes the kernel, a parameter struct and the
// arguments (ggml's ggml_cuda_kernel_launch): the block comes from the
// struct's constructor, the arguments from the pack, as the caller spells
// them.
struct LaunchParams {
  dim3 blocks;
  dim3 threads;
  LaunchParams(const dim3 &blocks_, const dim3 &threads_) : blocks(blocks_), threads(threads_) {}
};
template <typename Kernel, typename... Args>
void launchKernel(Kernel kernel, const LaunchParams &params, Args &&...args) {
  kernel<<<params.blocks, params.threads>>>(std::forward<Args>(args)...);
}

// `const long &i00 = i0;` aliases a constant: reading it reads i0, and it
// does not make i0 an escaped variable of unknown value.
__global__ void wrappedRows(float *out, const float *in, long ne0) {
  const long i0 = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i0 >= ne0)
    return;
  const long &i00 = i0;
  out[i00] = __shfl_xor_sync(0xffffffff, in[i00], 1);
}

__global__ void wrappedAnySize(float *out, const float *in, long n) {
  const long i = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
}

void wrapped(float *out, const float *in, long ne0) {
  PROJECT_ASSERT(ne0 % QK == 0);
  const dim3 blocks((ne0 + 255) / 256, 1, 1);
  const dim3 threads(256, 1, 1);
  const LaunchParams params = LaunchParams(blocks, threads);
  launchKernel(wrappedRows, params, out, in, ne0);
  launchKernel(wrappedAnySize, params, out, in, ne0 + 1);
}
