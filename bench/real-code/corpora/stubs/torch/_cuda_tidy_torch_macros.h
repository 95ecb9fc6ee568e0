// Stand-in for PyTorch's check and portability macros (c10/macros,
// c10/util/Exception.h), written from scratch for cuda-tidy's real-code
// benchmark.  A failed check calls a [[noreturn]] function, as the real
// macros throw: code after a check may assume its condition.
#pragma once

#include <sstream>
#include <string>

#define CT_TORCH_CONCAT_(a, b) a##b
#define CT_TORCH_CONCAT(a, b) CT_TORCH_CONCAT_(a, b)

namespace c10 {
namespace detail {
[[noreturn]] void cuda_tidy_torch_check_fail(const char* file, int line,
                                             const std::string& msg);
inline std::string cuda_tidy_torch_msg() { return std::string(); }
template <class... A>
std::string cuda_tidy_torch_msg(const A&... a) {
  std::ostringstream s;
  (void)(s << ... << a);
  return s.str();
}
}  // namespace detail
struct CudaTidyNullStream {
  template <class T> CudaTidyNullStream& operator<<(const T&) { return *this; }
  CudaTidyNullStream& operator<<(std::ostream& (*)(std::ostream&)) { return *this; }
};
struct Error {
  const char* what() const noexcept;
};
using ValueError = Error;
using NotImplementedError = Error;
}  // namespace c10

#ifndef C10_HOST_DEVICE
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#endif
#define C10_ALWAYS_INLINE inline __attribute__((always_inline))
#define C10_NOINLINE __attribute__((noinline))
#define C10_LIKELY(x) __builtin_expect(static_cast<bool>(x), 1)
#define C10_UNLIKELY(x) __builtin_expect(static_cast<bool>(x), 0)
#define C10_API
#define TORCH_API
#define C10_EXPORT
#define C10_UNUSED __attribute__((unused))
#define C10_RESTRICT __restrict__
#define C10_WARP_SIZE 32
#define C10_LAUNCH_BOUNDS_0 __launch_bounds__(256, 4)
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__((max_threads))
#define C10_LAUNCH_BOUNDS_2(max_threads, min_blocks) \
  __launch_bounds__((max_threads), (min_blocks))
#define C10_MAX_THREADS_PER_BLOCK(val) (((val) <= 1024) ? (val) : 1024)
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_DIAGNOSTIC_PUSH_AND_IGNORED_IF_DEFINED(w)
#define C10_DIAGNOSTIC_POP()

// An if statement, as PyTorch's: vllm writes some checks without a ';'.
#define TORCH_CHECK(cond, ...)                                          \
  if (C10_UNLIKELY(!(cond))) {                                          \
    ::c10::detail::cuda_tidy_torch_check_fail(                          \
        __FILE__, __LINE__,                                             \
        ::c10::detail::cuda_tidy_torch_msg(#cond, ##__VA_ARGS__));      \
  }
#define TORCH_CHECK_MSG(cond, type, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b))
#define TORCH_CHECK_NE(a, b) TORCH_CHECK((a) != (b))
#define TORCH_CHECK_LE(a, b) TORCH_CHECK((a) <= (b))
#define TORCH_CHECK_LT(a, b) TORCH_CHECK((a) < (b))
#define TORCH_CHECK_GE(a, b) TORCH_CHECK((a) >= (b))
#define TORCH_CHECK_GT(a, b) TORCH_CHECK((a) > (b))
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define TORCH_DCHECK_EQ(a, b) TORCH_CHECK_EQ(a, b)
#define TORCH_DCHECK_LE(a, b) TORCH_CHECK_LE(a, b)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define AT_ERROR(...)                                                       \
  ::c10::detail::cuda_tidy_torch_check_fail(                                \
      __FILE__, __LINE__, ::c10::detail::cuda_tidy_torch_msg(__VA_ARGS__))
#define TORCH_WARN(...) ((void)::c10::detail::cuda_tidy_torch_msg(__VA_ARGS__))
#define TORCH_WARN_ONCE(...) TORCH_WARN(__VA_ARGS__)
#define STD_TORCH_CHECK(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)

#define C10_CUDA_CHECK(expr)                                            \
  do {                                                                  \
    cudaError_t cuda_tidy_err_ = (expr);                                \
    TORCH_CHECK(cuda_tidy_err_ == cudaSuccess, "CUDA error");           \
  } while (0)
#define C10_CUDA_CHECK_WARN(expr) ((void)(expr))
#define AT_CUDA_CHECK(expr) C10_CUDA_CHECK(expr)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
#define C10_CUDA_IGNORE_ERROR(expr) ((void)(expr))
#define C10_CUDA_ERROR_HANDLED(expr) (expr)

// glog-style logging (c10/util/Logging.h): the message is discarded.
#define LOG(severity) ::c10::CudaTidyNullStream()
#define VLOG(level) ::c10::CudaTidyNullStream()
#define LOG_IF(severity, cond) ::c10::CudaTidyNullStream()
#define LOG_EVERY_N(severity, n) ::c10::CudaTidyNullStream()
#define C10_LOG_FIRST_N(severity, n) ::c10::CudaTidyNullStream()
