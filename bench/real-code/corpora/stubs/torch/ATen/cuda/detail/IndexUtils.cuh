// cuda-tidy real-code stand-in (bench/real-code/corpora/stubs/torch):
// PyTorch's 32-bit index check, declared anew from its public signature.
#pragma once
#include <cstdint>
#include <limits>
#include <ATen/ATen.h>
namespace at {
namespace cuda {
namespace detail {
bool canUse32BitIndexMath(const at::Tensor &t,
                          int64_t max_elem = std::numeric_limits<int32_t>::max());
}  // namespace detail
}  // namespace cuda
}  // namespace at
