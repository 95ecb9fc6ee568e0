// Stand-in for PyTorch's stable C++ API (torch/csrc/stable/*.h,
// torch/headeronly/*), written from scratch for cuda-tidy's real-code
// benchmark: declarations only, enough for host launch functions to compile.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "_cuda_tidy_torch_macros.h"
#include "_cuda_tidy_torch_scalar.h"

using AOTITorchError = int32_t;
#define AOTI_TORCH_SUCCESS 0
#define AOTI_TORCH_FAILURE 1
extern "C" {
AOTITorchError aoti_torch_get_current_cuda_stream(int32_t device_index,
                                                  void** ret_stream);
AOTITorchError torch_get_current_cuda_blas_handle(void** ret_handle);
AOTITorchError aoti_torch_get_device_index(void* tensor, int32_t* ret);
}
#define TORCH_ERROR_CODE_CHECK(call) \
  TORCH_CHECK((call) == AOTI_TORCH_SUCCESS, "stable ABI call failed")

namespace torch {
namespace headeronly {

template <class T>
class HeaderOnlyArrayRef {
 public:
  constexpr HeaderOnlyArrayRef() : data_(nullptr), size_(0) {}
  constexpr HeaderOnlyArrayRef(const T& one) : data_(&one), size_(1) {}
  constexpr HeaderOnlyArrayRef(const T* d, size_t n) : data_(d), size_(n) {}
  HeaderOnlyArrayRef(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}
  constexpr HeaderOnlyArrayRef(const std::initializer_list<T>& l)
      : data_(l.begin()), size_(l.size()) {}
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

 private:
  const T* data_;
  size_t size_;
};
using IntHeaderOnlyArrayRef = HeaderOnlyArrayRef<int64_t>;

enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn };
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, HIP = 6, Meta = 9 };
using DeviceIndex = int32_t;

}  // namespace headeronly

namespace stable {
using torch::headeronly::DeviceType;
using torch::headeronly::DeviceIndex;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::IntHeaderOnlyArrayRef;

class Device {
 public:
  Device(DeviceType t, DeviceIndex i = -1) : type_(t), index_(i) {}
  DeviceType type() const { return type_; }
  DeviceIndex index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const { return !(*this == o); }

 private:
  DeviceType type_;
  DeviceIndex index_;
};

class Tensor {
 public:
  Tensor();
  void* data_ptr() const;
  template <class T> T* data_ptr() const;
  void* mutable_data_ptr() const;
  template <class T> T* mutable_data_ptr() const;
  const void* const_data_ptr() const;
  template <class T> const T* const_data_ptr() const;
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  IntHeaderOnlyArrayRef sizes() const;
  IntHeaderOnlyArrayRef strides() const;
  int64_t dim() const;
  int64_t numel() const;
  int64_t storage_offset() const;
  int64_t element_size() const;
  size_t nbytes() const;
  bool is_contiguous() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool defined() const;
  torch::headeronly::ScalarType scalar_type() const;
  Device device() const;
  DeviceIndex get_device_index() const;
  int32_t get_device() const;
  void* get() const;
};

Tensor empty(IntHeaderOnlyArrayRef size,
             std::optional<torch::headeronly::ScalarType> dtype = std::nullopt,
             std::optional<Layout> layout = std::nullopt,
             std::optional<Device> device = std::nullopt,
             std::optional<bool> pin_memory = std::nullopt,
             std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor empty_like(const Tensor&);
Tensor new_empty(const Tensor&, IntHeaderOnlyArrayRef,
                 std::optional<torch::headeronly::ScalarType> = std::nullopt,
                 std::optional<Layout> = std::nullopt,
                 std::optional<Device> = std::nullopt,
                 std::optional<bool> = std::nullopt);
Tensor new_zeros(const Tensor&, IntHeaderOnlyArrayRef,
                 std::optional<torch::headeronly::ScalarType> = std::nullopt,
                 std::optional<Layout> = std::nullopt,
                 std::optional<Device> = std::nullopt,
                 std::optional<bool> = std::nullopt);
Tensor zeros(IntHeaderOnlyArrayRef, std::optional<torch::headeronly::ScalarType> = std::nullopt,
             std::optional<Layout> = std::nullopt, std::optional<Device> = std::nullopt);
Tensor full(IntHeaderOnlyArrayRef, double,
            std::optional<torch::headeronly::ScalarType> = std::nullopt,
            std::optional<Layout> = std::nullopt, std::optional<Device> = std::nullopt);
Tensor pad(const Tensor&, IntHeaderOnlyArrayRef, const std::string& mode = "constant",
           double value = 0.0);
Tensor narrow(Tensor&, int64_t dim, int64_t start, int64_t length);
Tensor view(const Tensor&, IntHeaderOnlyArrayRef);
Tensor reshape(const Tensor&, IntHeaderOnlyArrayRef);
Tensor transpose(const Tensor&, int64_t, int64_t);
Tensor contiguous(const Tensor&, MemoryFormat = MemoryFormat::Contiguous);
Tensor clone(const Tensor&);
Tensor copy_(Tensor&, const Tensor&, std::optional<bool> non_blocking = std::nullopt);
Tensor to(const Tensor&, std::optional<Device> device,
          std::optional<bool> non_blocking = std::nullopt);
Tensor to(const Tensor&, torch::headeronly::ScalarType);
Tensor fill_(const Tensor&, double);
Tensor zero_(Tensor&);
Tensor sum(const Tensor&, std::optional<IntHeaderOnlyArrayRef> dim = std::nullopt,
           bool keepdim = false,
           std::optional<torch::headeronly::ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor&, int64_t dim, bool keepdim = false);
Tensor select(const Tensor&, int64_t, int64_t);
Tensor amax(const Tensor&, int64_t, bool = false);
Tensor matmul(const Tensor&, const Tensor&);
Tensor from_blob(void*, IntHeaderOnlyArrayRef, IntHeaderOnlyArrayRef, Device,
                 torch::headeronly::ScalarType);

namespace accelerator {
class DeviceGuard {
 public:
  explicit DeviceGuard(DeviceIndex);
  DeviceGuard(const DeviceGuard&) = delete;
  ~DeviceGuard();
  void set_index(DeviceIndex);
};
DeviceIndex getCurrentDeviceIndex();
struct Stream {
  void* id() const;
};
Stream getCurrentStream(DeviceIndex);
}  // namespace accelerator

class StableLibrary {
 public:
  template <class Schema> StableLibrary& def(Schema&&) { return *this; }
  template <class Name, class F> StableLibrary& impl(Name&&, F&&) { return *this; }
};
}  // namespace stable
}  // namespace torch

#define TORCH_BOX(f) (f)
#define STABLE_TORCH_LIBRARY(ns, m) \
  static void CT_TORCH_CONCAT(cuda_tidy_stable_library_, __LINE__)(::torch::stable::StableLibrary & m)
#define STABLE_TORCH_LIBRARY_FRAGMENT(ns, m) STABLE_TORCH_LIBRARY(ns, m)
#define STABLE_TORCH_LIBRARY_IMPL(ns, k, m) STABLE_TORCH_LIBRARY(ns, m)
