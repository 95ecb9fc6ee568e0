// More of PyTorch's C++ API (autograd functions, the dispatcher, generators,
// accumulate types, device-side assertions, TensorIterator), written from
// scratch for cuda-tidy's real-code benchmark: declarations only, enough for
// the host functions of CUDA extensions to compile.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "_cuda_tidy_torch.h"

namespace c10 {
template <class C> int64_t sum_integers(const C& c) {
  int64_t r = 0;
  for (const auto& x : c) r += static_cast<int64_t>(x);
  return r;
}
template <class T>
class MaybeOwned {
 public:
  MaybeOwned(const T& t) : t_(t) {}
  const T& operator*() const { return t_; }
  const T* operator->() const { return &t_; }

 private:
  T t_;
};

template <class T>
class List {
 public:
  List() = default;
  List(std::initializer_list<T> l) : v_(l) {}
  size_t size() const { return v_.size(); }
  T get(size_t i) const { return v_[i]; }
  T operator[](size_t i) const { return v_[i]; }
  void push_back(const T& t) { v_.push_back(t); }
  typename std::vector<T>::const_iterator begin() const { return v_.begin(); }
  typename std::vector<T>::const_iterator end() const { return v_.end(); }
  std::vector<T> vec() const { return v_; }

 private:
  std::vector<T> v_;
};

// The dispatcher: findSchemaOrThrow(...).typed<Signature>().call(args...).
template <class Sig> class TypedOperatorHandle;
template <class R, class... A>
class TypedOperatorHandle<R(A...)> {
 public:
  R call(A... args) const;
  R redispatch(A... args) const;
};
class OperatorHandle {
 public:
  template <class Sig> TypedOperatorHandle<Sig> typed() const {
    return TypedOperatorHandle<Sig>();
  }
};
class Dispatcher {
 public:
  static Dispatcher& singleton();
  OperatorHandle findSchemaOrThrow(const char* name, const char* overload) const;
  std::optional<OperatorHandle> findSchema(const char* name, const char* overload) const;
};

namespace cuda {
struct DeviceAssertionsData {};
class CUDAKernelLaunchRegistry {
 public:
  static CUDAKernelLaunchRegistry& get_singleton_ref();
  bool has_failed() const;
  DeviceAssertionsData* get_uvm_assertions_ptr_for_current_device();
  uint32_t insert(const char* launch_filename, const char* launch_function,
                  uint32_t launch_linenum, const char* kernel_name,
                  int32_t stream_id);
  bool enabled_at_runtime = false;
};
std::string get_cuda_error_help(cudaError_t);
const char* get_cuda_check_suffix() noexcept;
std::string c10_retrieve_device_side_assertion_info();
void dsa_add_new_assertion_failure(DeviceAssertionsData*, const char*, const char*,
                                   int, uint32_t, dim3, dim3);
}  // namespace cuda
}  // namespace c10

#define TORCH_DSA_KERNEL_ARGS                                         \
  [[maybe_unused]] c10::cuda::DeviceAssertionsData *const assertions_data, \
      [[maybe_unused]] uint32_t assertion_caller_id
#define TORCH_DSA_KERNEL_ARGS_PASS assertions_data, assertion_caller_id
#define TORCH_DSA_KERNEL_LAUNCH(kernel, blocks, threads, shared_mem, stream, ...) \
  kernel<<<blocks, threads, shared_mem, stream>>>(__VA_ARGS__, nullptr, 0)
// If statements, as PyTorch's: callers write some without a ';'.
#define CUDA_KERNEL_ASSERT(cond) \
  if (C10_UNLIKELY(!(cond))) {   \
    assert(0 && #cond);          \
  }
#define CUDA_KERNEL_ASSERT_MSG(cond, msg) CUDA_KERNEL_ASSERT(cond)
#define CUDA_KERNEL_ASSERT2(cond) CUDA_KERNEL_ASSERT(cond)
#define SYCL_KERNEL_ASSERT(cond) assert(cond)
#define TORCH_FN(f) (f)
#define GPU_LAMBDA __host__ __device__
#define CUDA_KERNEL_ASSERT_PRINTF(cond, ...) CUDA_KERNEL_ASSERT(cond)
#define CUDA_KERNEL_ASSERT_VERBOSE(cond, ...) CUDA_KERNEL_ASSERT(cond)
#define TORCH_SELECTIVE_NAME(n) (n)
#define TORCH_SELECTIVE_SCHEMA(n) (n)
#define RECORD_FUNCTION(name, inputs) ((void)(name))
#define TORCH_SYM_CHECK(cond, ...) TORCH_CHECK(cond, ##__VA_ARGS__)
#define C10_CUDA_KERNEL_LAUNCH_CHECK_DSA() C10_CUDA_KERNEL_LAUNCH_CHECK()

namespace at {
using c10::MaybeOwned;

enum class Tag { pt2_compliant_tag, needs_fixed_stride_order, core };

struct TensorArg {
  TensorArg(const Tensor&, const char*, int);
};
void checkAllSameGPU(const char*, ArrayRef<TensorArg>);
void checkSameGPU(const char*, const TensorArg&, const TensorArg&);
void checkScalarType(const char*, const TensorArg&, ScalarType);
void checkScalarTypes(const char*, const TensorArg&, ArrayRef<ScalarType>);
void checkAllSameType(const char*, ArrayRef<TensorArg>);
void checkDim(const char*, const TensorArg&, int64_t);
void checkContiguous(const char*, const TensorArg&);

template <class T, bool is_cuda> struct AccumulateTypeDevice { using type = T; };
template <class T, bool is_cuda> struct AccumulateType { using type = T; };
template <bool c> struct AccumulateType<c10::Half, c> { using type = float; };
template <bool c> struct AccumulateType<c10::BFloat16, c> { using type = float; };
template <bool c> struct AccumulateType<float, c> { using type = float; };
template <bool c> struct AccumulateType<double, c> { using type = double; };
template <bool c> struct AccumulateType<int8_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<uint8_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<int16_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<int32_t, c> { using type = int64_t; };
template <bool c> struct AccumulateType<int64_t, c> { using type = int64_t; };
template <class T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;
template <class T> using opmath_type = acc_type<T, true>;

struct PhiloxCudaState {
  PhiloxCudaState() = default;
  PhiloxCudaState(uint64_t seed, uint64_t offset);
  uint64_t seed_ = 0;
  uint64_t offset_ = 0;
  bool captured_ = false;
};
namespace cuda {
namespace philox {
__host__ __device__ std::tuple<uint64_t, uint64_t> unpack(PhiloxCudaState);
}
}  // namespace cuda

struct GeneratorImpl {
  std::mutex mutex_;
};
struct CUDAGeneratorImpl : GeneratorImpl {
  PhiloxCudaState philox_cuda_state(uint64_t increment);
  uint64_t current_seed() const;
  void set_current_seed(uint64_t);
};
struct CPUGeneratorImpl : GeneratorImpl {
  uint32_t random();
  uint64_t random64();
};
namespace cuda {
namespace detail {
const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index = -1);
}
}  // namespace cuda
namespace detail {
const Generator& getDefaultCPUGenerator();
size_t computeStorageNbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                            size_t storage_offset = 0);
struct CUDAHooksInterface {
  bool hasCUDA() const;
  bool isGPUArch(const std::vector<std::string>&, c10::DeviceIndex = -1) const;
};
const CUDAHooksInterface& getCUDAHooks();
}  // namespace detail
template <class T> T* check_generator(std::optional<Generator>);
template <class T> T* check_generator(const Generator&);
template <class T> T* get_generator_or_default(const std::optional<Generator>&,
                                               const Generator&);

struct Context {
  std::optional<int32_t> _SMCarveout_EXPERIMENTAL() const;
  void _setSMCarveout_EXPERIMENTAL(std::optional<int32_t>);
  bool allowTF32CuBLAS() const;
  bool hasCUDA() const;
  bool hasHIP() const;
  bool deterministicAlgorithms() const;
};
Context& globalContext();

struct AutoDispatchBelowADInplaceOrView {};
struct AutoNonVariableTypeMode {
  AutoNonVariableTypeMode(bool = true) {}
};

// TensorIterator, for at::native::gpu_kernel.
class TensorIterator {
 public:
  int64_t numel() const;
  int ntensors() const;
  bool can_use_32bit_indexing() const;
};
using TensorIteratorBase = TensorIterator;
class TensorIteratorConfig {
 public:
  TensorIteratorConfig& add_output(const Tensor&);
  TensorIteratorConfig& add_input(const Tensor&);
  TensorIteratorConfig& add_const_input(const Tensor&);
  TensorIteratorConfig& check_all_same_dtype(bool);
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool);
  TensorIteratorConfig& resize_outputs(bool);
  TensorIteratorConfig& set_check_mem_overlap(bool);
  TensorIterator build();
};
namespace native {
template <class F> void gpu_kernel(TensorIteratorBase&, const F&) {}
Tensor empty_like(const Tensor&, std::optional<ScalarType> = std::nullopt,
                  std::optional<Layout> = std::nullopt,
                  std::optional<Device> = std::nullopt,
                  std::optional<bool> = std::nullopt,
                  std::optional<MemoryFormat> = std::nullopt);
}  // namespace native

Tensor empty_symint(SymIntArrayRef, TensorOptions = {},
                    std::optional<MemoryFormat> = std::nullopt);
Tensor zeros_symint(SymIntArrayRef, TensorOptions = {});
Tensor scalar_tensor(const Scalar&, TensorOptions = {});
Tensor index_select(const Tensor&, int64_t, const Tensor&);
Tensor masked_select(const Tensor&, const Tensor&);
Tensor broadcast_to(const Tensor&, IntArrayRef);
Tensor diff(const Tensor&, int64_t = 1, int64_t = -1);
Tensor norm(const Tensor&, const Scalar& p = 2);
Tensor norm(const Tensor&, const Scalar& p, IntArrayRef dim, bool keepdim = false);
Tensor floor(const Tensor&);
Tensor isnan(const Tensor&);
Tensor isinf(const Tensor&);
Tensor randn(IntArrayRef, TensorOptions = {});
Tensor rand(IntArrayRef, TensorOptions = {});
Tensor randint(int64_t, IntArrayRef, TensorOptions = {});
std::tuple<Tensor, Tensor> _unique(const Tensor&, bool = true, bool = false);
std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor&, bool = true, bool = false,
                                            bool = false);
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(
    const Tensor&, bool = false, bool = false, std::optional<int64_t> = std::nullopt);
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
template <class T> C10_HOST_DEVICE T ceil_div(T a, T b) { return (a + b - 1) / b; }
}  // namespace at

namespace torch {
namespace jit {
using torch::CustomClassHolder;
struct Module {};
}  // namespace jit
using at::Tag;

namespace autograd {
using Variable = at::Tensor;
using variable_list = std::vector<Variable>;
struct AutogradContext {
  void save_for_backward(variable_list);
  variable_list get_saved_variables() const;
  void mark_non_differentiable(const variable_list&);
  void set_materialize_grads(bool);
  bool needs_input_grad(size_t) const;
  std::map<std::string, c10::IValue> saved_data;
};
template <class T>
struct Function {
  template <class... A>
  static auto apply(A&&... args) {
    AutogradContext* ctx = nullptr;
    return T::forward(ctx, std::forward<A>(args)...);
  }
};
}  // namespace autograd

namespace nn {
namespace init {
at::Tensor uniform_(at::Tensor, double = 0.0, double = 1.0);
at::Tensor normal_(at::Tensor, double = 0.0, double = 1.0);
}  // namespace init
}  // namespace nn

inline CppFunction dispatch(c10::DispatchKey, CppFunction f) { return f; }
template <class F> CppFunction dispatch(c10::DispatchKey, F&& f) {
  return CppFunction(f);
}
}  // namespace torch
