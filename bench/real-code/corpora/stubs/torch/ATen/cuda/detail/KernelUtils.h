// cuda-tidy real-code stand-in (bench/real-code/corpora/stubs/torch):
// PyTorch's grid-stride loop macro and launch-size helper, written anew.
#pragma once
#include <_cuda_tidy_torch_cuda.h>
#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type)                              \
  int64_t _i_n_d_e_x = blockIdx.x * blockDim.x + threadIdx.x;               \
  for (index_type i = _i_n_d_e_x; _i_n_d_e_x < (n);                          \
       _i_n_d_e_x += blockDim.x * gridDim.x, i = _i_n_d_e_x)
#define CUDA_KERNEL_LOOP(i, n) CUDA_KERNEL_LOOP_TYPE(i, n, int)
namespace at {
namespace cuda {
namespace detail {
constexpr int CUDA_NUM_THREADS = 1024;
inline int GET_BLOCKS(const int64_t N,
                      const int64_t max_threads_per_block = CUDA_NUM_THREADS) {
  return static_cast<int>((N + max_threads_per_block - 1) / max_threads_per_block);
}
}  // namespace detail
}  // namespace cuda
}  // namespace at
