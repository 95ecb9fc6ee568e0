// RUN: %check_cuda_tidy -check-suffix=POTENTIAL %s cuda-full-warp-mask %t -- -config="{CheckOptions: {cuda-full-warp-mask.ReportPotential: true}}" -- -std=c++20
// A project launches every kernel through a member function template of a
// launcher object: `launch(kernel, grid, block, args...)` checks the sizes,
// then runs `kernel<<<grid, block>>>(args...)` on its own parameters, and a
// macro wraps the call in a lambda that binds the kernel to a reference
// first (FBGEMM's FBGEMM_LAUNCH_KERNEL -> KernelLauncher::launch_kernel).
// The block is the one each call passes: a kernel launched with whole-warp
// rows branches on threadIdx.y between warps only, and one launched seven
// threads wide has rows that straddle warps.
#include <utility>

constexpr int warpWidth() { return 32; }
static constexpr int maxThreads = 1024;

template <bool Timed> struct Launcher {
  template <typename Kernel, typename... Args>
  void launch(const Kernel &kernel, const dim3 grid, const dim3 block,
              Args &&...args) const {
    if constexpr (Timed) {
      kernel<<<grid, block>>>(std::forward<Args>(args)...);
    } else {
      kernel<<<grid, block>>>(std::forward<Args>(args)...);
    }
  }
};

#define LAUNCH(KERNEL, GRID, BLOCK, ...)                                     \
  ([&] {                                                                     \
    auto &kernel = KERNEL;                                                   \
    return Launcher<false>().launch(kernel, GRID, BLOCK, __VA_ARGS__);       \
  }())

// One row of keys per warp: a row whose key is zero leaves as a whole warp.
__global__ void perRow(const int *keys, int *out, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n || keys[row] == 0)
    return;
  out[row * 32 + threadIdx.x] =
      __shfl_xor_sync(0xffffffffu, keys[row] + threadIdx.x, 1);
}

// The same body, launched seven threads wide: a row is not a warp.
__global__ void perNarrowRow(const int *keys, int *out, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n || keys[row] == 0)
    return;
  out[row * 32 + threadIdx.x] =
      __shfl_xor_sync(0xffffffffu, keys[row] + threadIdx.x, 1);
  // CHECK-MESSAGES-POTENTIAL: :[[@LINE-1]]:23: warning: '__shfl_xor_sync' is called with a full warp mask under control flow that diverges within the warp (early exit): lanes that left early are named in the mask [cuda-full-warp-mask]
}

// Launched only through a plain member call, no macro: the same fact.
__global__ void perRowDirect(const int *keys, int *out, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= n || keys[row] == 0)
    return;
  out[row * 32 + threadIdx.x] =
      __shfl_xor_sync(0xffffffffu, keys[row] + threadIdx.x, 1);
}

void host(const int *keys, int *out, int n) {
  LAUNCH(perRow, dim3(n / 32 + 1),
         dim3(warpWidth(), maxThreads / warpWidth()), keys, out, n);
  LAUNCH(perNarrowRow, dim3(n), dim3(7, 4), keys, out, n);
  Launcher<true>().launch(perRowDirect, dim3(n), dim3(32, 8), keys, out, n);
}
