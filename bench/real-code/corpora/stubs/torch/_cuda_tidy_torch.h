// Stand-in for the parts of PyTorch's C++ API (ATen / c10 / torch) that CUDA
// extensions call from their host launch functions.  Written from scratch for
// cuda-tidy's real-code benchmark (bench/real-code): declarations only, enough
// for the host side to compile so that kernel launches and their
// <<<grid, block>>> shapes are visible.  Nothing here is PyTorch's code; the
// behaviour of the functions is not modelled (they are declared, not defined,
// except where a body is needed for templates).
#pragma once

// The standard headers torch/all.h brings in, which extensions rely on.
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include "_cuda_tidy_torch_macros.h"
#include "_cuda_tidy_torch_scalar.h"
#include "_cuda_tidy_torch_accessor.h"

namespace at {
class Tensor;
}

namespace c10 {

template <class T> using optional = std::optional<T>;
using std::nullopt;
using std::nullopt_t;
using std::make_optional;

template <class T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  constexpr ArrayRef() : data_(nullptr), size_(0) {}
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}
  constexpr ArrayRef(const T* d, size_t n) : data_(d), size_(n) {}
  ArrayRef(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}
  constexpr ArrayRef(const std::initializer_list<T>& l)
      : data_(l.begin()), size_(l.size()) {}
  template <size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  const T& at(size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  ArrayRef slice(size_t s, size_t n) const { return ArrayRef(data_ + s, n); }
  ArrayRef slice(size_t s) const { return ArrayRef(data_ + s, size_ - s); }
  bool equals(ArrayRef o) const;
  operator std::vector<T>() const { return vec(); }

 private:
  const T* data_;
  size_t size_;
};
template <class T> bool operator==(ArrayRef<T>, ArrayRef<T>);
template <class T> bool operator!=(ArrayRef<T>, ArrayRef<T>);
template <class T> bool operator==(ArrayRef<T>, const std::vector<T>&);
template <class T> std::ostream& operator<<(std::ostream&, ArrayRef<T>);
using IntArrayRef = ArrayRef<int64_t>;
template <class T> using OptionalArrayRef = std::optional<ArrayRef<T>>;
using OptionalIntArrayRef = std::optional<IntArrayRef>;

template <class T, unsigned N = 5>
class SmallVector : public std::vector<T> {
 public:
  using std::vector<T>::vector;
  SmallVector() = default;
  SmallVector(ArrayRef<T> a) : std::vector<T>(a.begin(), a.end()) {}
  operator ArrayRef<T>() const { return ArrayRef<T>(this->data(), this->size()); }
};
using DimVector = SmallVector<int64_t, 5>;

// A symbolic integer that is always concrete here.
class SymInt {
 public:
  constexpr SymInt(int64_t v = 0) : v_(v) {}
  constexpr operator int64_t() const { return v_; }
  int64_t guard_int(const char* = nullptr, int64_t = 0) const { return v_; }
  int64_t expect_int() const { return v_; }
  std::optional<int64_t> maybe_as_int() const { return v_; }
  int64_t as_int_unchecked() const { return v_; }
  bool sym_eq(const SymInt& o) const { return v_ == o.v_; }
  bool is_heap_allocated() const { return false; }

 private:
  int64_t v_;
};
using SymIntArrayRef = ArrayRef<SymInt>;
using SymDimVector = SmallVector<SymInt, 5>;
inline IntArrayRef asIntArrayRefUnchecked(SymIntArrayRef a) {
  return IntArrayRef(reinterpret_cast<const int64_t*>(a.data()), a.size());
}
inline SymIntArrayRef fromIntArrayRefKnownNonNegative(IntArrayRef a) {
  return SymIntArrayRef(reinterpret_cast<const SymInt*>(a.data()), a.size());
}
inline SymIntArrayRef fromIntArrayRefSlow(IntArrayRef a) {
  return fromIntArrayRefKnownNonNegative(a);
}
template <class C> int64_t multiply_integers(const C& c) {
  int64_t r = 1;
  for (const auto& x : c) r *= static_cast<int64_t>(x);
  return r;
}
inline int64_t size_to_dim_(int k, IntArrayRef dims) {
  int64_t r = 1;
  for (int i = 0; i < k; ++i) r *= dims[i];
  return r;
}
template <class T> auto irange(T end) {
  std::vector<T> v;
  for (T i = 0; i < end; ++i) v.push_back(i);
  return v;
}
template <class T, class U> auto irange(T begin, U end) {
  std::vector<std::common_type_t<T, U>> v;
  for (std::common_type_t<T, U> i = begin; i < end; ++i) v.push_back(i);
  return v;
}
template <class To, class From> C10_HOST_DEVICE To bit_cast(const From& f) {
  To t;
  memcpy(&t, &f, sizeof(To));
  return t;
}

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, HIP = 6, Meta = 9, MTIA = 12, PrivateUse1 = 20 };
std::string DeviceTypeName(DeviceType, bool lower_case = false);
enum class DispatchKey : uint16_t {
  Undefined, CatchAll, CPU, CUDA, HIP, Meta, MTIA, QuantizedCPU, QuantizedCUDA,
  Autograd, AutogradCPU, AutogradCUDA, AutogradMeta, AutogradMETA = AutogradMeta,
  AutogradMTIA, CompositeImplicitAutograd, CompositeExplicitAutograd,
  PrivateUse1, AutogradOther
};
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kMTIA = DeviceType::MTIA;
using DeviceIndex = int8_t;

struct Device {
  using Type = DeviceType;
  Device(DeviceType t, DeviceIndex i = -1) : type_(t), index_(i) {}
  Device(const std::string& s);
  Device(const char* s);
  DeviceType type() const { return type_; }
  DeviceIndex index() const { return index_; }
  bool has_index() const { return index_ >= 0; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool is_hip() const { return type_ == DeviceType::HIP; }
  bool is_meta() const { return type_ == DeviceType::Meta; }
  bool is_mtia() const { return type_ == DeviceType::MTIA; }
  bool is_privateuseone() const { return type_ == DeviceType::PrivateUse1; }
  std::string str() const;
  bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const { return !(*this == o); }
  DeviceType type_;
  DeviceIndex index_;
};
std::ostream& operator<<(std::ostream&, const Device&);
std::ostream& operator<<(std::ostream&, DeviceType);

enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn };
constexpr Layout kStrided = Layout::Strided;
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d };

struct TypeMeta {
  TypeMeta() = default;
  TypeMeta(ScalarType s) : s_(s) {}
  ScalarType toScalarType() const { return s_; }
  size_t itemsize() const;
  std::string name() const;
  operator ScalarType() const { return s_; }
  template <class T> static TypeMeta Make();
  template <class T> bool Match() const;
  ScalarType s_ = ScalarType::Undefined;
};
inline bool operator==(TypeMeta a, ScalarType b) { return a.s_ == b; }
inline bool operator==(ScalarType a, TypeMeta b) { return a == b.s_; }
inline bool operator!=(TypeMeta a, ScalarType b) { return a.s_ != b; }
inline bool operator!=(ScalarType a, TypeMeta b) { return a != b.s_; }
inline bool operator==(TypeMeta a, TypeMeta b) { return a.s_ == b.s_; }
inline bool operator!=(TypeMeta a, TypeMeta b) { return a.s_ != b.s_; }
std::ostream& operator<<(std::ostream&, TypeMeta);
inline ScalarType typeMetaToScalarType(TypeMeta m) { return m.s_; }
inline std::optional<ScalarType> optTypeMetaToScalarType(std::optional<TypeMeta> m) {
  if (m) return m->s_;
  return std::nullopt;
}
inline TypeMeta scalarTypeToTypeMeta(ScalarType s) { return TypeMeta(s); }

struct TensorOptions {
  TensorOptions() = default;
  TensorOptions(ScalarType s) : dtype_(s) {}
  TensorOptions(TypeMeta s) : dtype_(s.s_) {}
  TensorOptions(Device d) : device_(d) {}
  TensorOptions(DeviceType d) : device_(Device(d)) {}
  TensorOptions(Layout) {}
  TensorOptions(MemoryFormat) {}
  TensorOptions dtype(ScalarType s) const { TensorOptions o = *this; o.dtype_ = s; return o; }
  TensorOptions dtype(TypeMeta s) const { return dtype(s.s_); }
  TensorOptions dtype(std::optional<ScalarType> s) const { return s ? dtype(*s) : *this; }
  template <class T> TensorOptions dtype() const;
  TensorOptions device(Device d) const { TensorOptions o = *this; o.device_ = d; return o; }
  TensorOptions device(std::optional<Device> d) const { return d ? device(*d) : *this; }
  TensorOptions device(DeviceType t, DeviceIndex i = -1) const { return device(Device(t, i)); }
  TensorOptions device_index(DeviceIndex i) const { return device(Device(DeviceType::CUDA, i)); }
  TensorOptions layout(Layout) const { return *this; }
  TensorOptions requires_grad(bool = true) const { return *this; }
  TensorOptions pinned_memory(bool = true) const { return *this; }
  TensorOptions memory_format(MemoryFormat) const { return *this; }
  TypeMeta dtype() const { return TypeMeta(dtype_); }
  Device device() const { return device_; }
  std::optional<TypeMeta> dtype_opt() const { return dtype(); }
  std::optional<Device> device_opt() const { return device_; }
  std::optional<Layout> layout_opt() const { return Layout::Strided; }
  std::optional<bool> pinned_memory_opt() const { return false; }
  std::optional<bool> requires_grad_opt() const { return false; }
  bool pinned_memory() const { return false; }
  Layout layout() const { return Layout::Strided; }
  ScalarType dtype_ = ScalarType::Float;
  Device device_ = Device(DeviceType::CPU);
};
inline TensorOptions dtype(ScalarType s) { return TensorOptions(s); }
template <class T> TensorOptions dtype();
inline TensorOptions device(Device d) { return TensorOptions(d); }
inline TensorOptions layout(Layout l) { return TensorOptions(l); }
inline TensorOptions requires_grad(bool = true) { return TensorOptions(); }

struct DataPtr {
  DataPtr() = default;
  DataPtr(void* data, c10::Device device);
  DataPtr(void* data, void* ctx, void (*deleter)(void*), c10::Device device);
  void* get() const;
  void* mutable_get() const;
  void (*get_deleter() const)(void*);
  template <class T> T* cast_context(void (*)(void*)) const { return nullptr; }
  c10::Device device() const;
  operator bool() const;
};
struct Allocator {
  virtual ~Allocator() = default;
  DataPtr allocate(size_t) const;
};
struct TensorImpl {
  bool storage_initialized() const;
  bool has_storage() const;
  bool is_contiguous() const;
  int64_t numel() const;
  int64_t dim() const;
};
struct Storage {
  struct use_byte_size_t {};
  Storage() = default;
  template <class... A> Storage(use_byte_size_t, size_t, A&&...) {}
  const DataPtr& data_ptr() const;
  const void* data() const;
  void* mutable_data() const;
  size_t nbytes() const;
};

using at::Tensor;  // at::Tensor, declared above

class Scalar {
 public:
  Scalar() = default;
  template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
  Scalar(T) {}
  Scalar(c10::Half) {}
  Scalar(c10::BFloat16) {}
  template <class T> T to() const;
  double toDouble() const;
  float toFloat() const;
  int64_t toLong() const;
  int toInt() const;
  bool toBool() const;
  bool isFloatingPoint() const;
  bool isIntegral(bool) const;
  ScalarType type() const;
};

class IValue {
 public:
  IValue() = default;
  template <class T> IValue(T&&) {}
  int64_t toInt() const;
  double toDouble() const;
  bool toBool() const;
  Tensor toTensor() const;
  std::vector<int64_t> toIntVector() const;
  std::vector<Tensor> toTensorVector() const;
  std::string toStringRef() const;
  bool isTensor() const;
  bool isInt() const;
  bool isNone() const;
};

}  // namespace c10

namespace at {

using namespace c10;
using c10::IntArrayRef;
using c10::ArrayRef;
using c10::optional;

struct Generator {
  std::mutex& mutex() const;
  template <class T> T* get() const;
  bool defined() const;
};

class TensorBase;
class Tensor;
// The deprecated Tensor::type() result (PyTorch's DeprecatedTypeProperties).
class DeprecatedTypeProperties {
 public:
  ScalarType scalarType() const;
  bool is_cuda() const;
};
namespace indexing {
struct Slice {
  Slice(std::optional<int64_t> = std::nullopt, std::optional<int64_t> = std::nullopt,
        std::optional<int64_t> = std::nullopt);
};
struct EllipsisIndexType {};
constexpr EllipsisIndexType Ellipsis;
constexpr std::nullopt_t None = std::nullopt;
class TensorIndex {
 public:
  TensorIndex(std::nullopt_t);
  TensorIndex(EllipsisIndexType);
  TensorIndex(int64_t);
  TensorIndex(int);
  TensorIndex(bool);
  TensorIndex(Slice);
  TensorIndex(const Tensor&);
};
}  // namespace indexing

class Tensor {
 public:
  Tensor() = default;
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) = default;
  Tensor& operator=(const Tensor&) = default;
  Tensor& operator=(Tensor&&) = default;
  Tensor& operator=(const Scalar&);

  // shapes
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  SymInt sym_size(int64_t dim) const;
  SymInt sym_stride(int64_t dim) const;
  SymInt sym_numel() const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  SymIntArrayRef sym_sizes() const;
  SymIntArrayRef sym_strides() const;
  int64_t numel() const;
  int64_t dim() const;
  int64_t ndimension() const;
  int64_t storage_offset() const;
  bool is_contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  bool is_non_overlapping_and_dense() const;
  bool defined() const;
  bool is_same(const Tensor&) const;
  size_t nbytes() const;
  int64_t itemsize() const;
  int64_t element_size() const;
  int64_t use_count() const;

  // type and place
  ScalarType scalar_type() const;
  const DeprecatedTypeProperties& type() const;  // deprecated
  TypeMeta dtype() const;
  Device device() const;
  TensorOptions options() const;
  Layout layout() const;
  bool is_cuda() const;
  bool is_cpu() const;
  bool is_hip() const;
  bool is_meta() const;
  bool is_pinned() const;
  Tensor pin_memory() const;
  bool is_sparse() const;
  bool is_floating_point() const;
  bool is_complex() const;
  bool requires_grad() const;
  int64_t get_device() const;
  const Storage& storage() const;
  bool is_mtia() const;
  int64_t dense_dim() const;
  Tensor masked_select(const Tensor&) const;
  class MaybeOwnedTensor {
   public:
    const Tensor& operator*() const;
    const Tensor* operator->() const;
  };
  MaybeOwnedTensor expect_contiguous(MemoryFormat = MemoryFormat::Contiguous) const&;
  bool has_storage() const;
  c10::TensorImpl* unsafeGetTensorImpl() const;

  // data
  void* data_ptr() const;
  template <class T> T* data_ptr() const;
  template <class T> T* data() const;  // deprecated spelling of data_ptr<T>()
  const void* const_data_ptr() const;
  template <class T> const T* const_data_ptr() const;
  void* mutable_data_ptr() const;
  template <class T> T* mutable_data_ptr() const;
  template <class T> T item() const;
  Scalar item() const;

  // views and copies
  Tensor view(IntArrayRef) const;
  Tensor view(ScalarType) const;
  Tensor reshape(IntArrayRef) const;
  Tensor contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  Tensor clone(std::optional<MemoryFormat> = std::nullopt) const;
  Tensor to(ScalarType, bool = false, bool = false) const;
  Tensor to(TypeMeta, bool = false, bool = false) const;
  Tensor to(Device, bool = false, bool = false) const;
  Tensor to(Device, ScalarType, bool = false, bool = false) const;
  Tensor to(TensorOptions, bool = false, bool = false) const;
  Tensor to(const Tensor&, bool = false, bool = false) const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor select(int64_t, int64_t) const;
  Tensor slice(int64_t = 0, std::optional<int64_t> = std::nullopt,
               std::optional<int64_t> = std::nullopt, int64_t = 1) const;
  Tensor narrow(int64_t, int64_t, int64_t) const;
  Tensor permute(IntArrayRef) const;
  Tensor transpose(int64_t, int64_t) const;
  Tensor t() const;
  Tensor flatten(int64_t = 0, int64_t = -1) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t) const;
  Tensor unsqueeze(int64_t) const;
  Tensor expand(IntArrayRef, bool = false) const;
  Tensor expand_as(const Tensor&) const;
  Tensor view_as(const Tensor&) const;
  Tensor reshape_as(const Tensor&) const;
  Tensor as_strided(IntArrayRef, IntArrayRef, std::optional<int64_t> = std::nullopt) const;
  Tensor unflatten(int64_t, IntArrayRef) const;
  Tensor index_select(int64_t, const Tensor&) const;
  std::vector<Tensor> split(int64_t, int64_t = 0) const;
  std::vector<Tensor> split(IntArrayRef, int64_t = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef, int64_t = 0) const;
  Tensor& scatter_add_(int64_t, const Tensor&, const Tensor&) const;
  Tensor& index_add_(int64_t, const Tensor&, const Tensor&) const;
  Tensor& index_copy_(int64_t, const Tensor&, const Tensor&) const;
  Tensor& index_fill_(int64_t, const Tensor&, const Scalar&) const;
  Tensor& masked_fill_(const Tensor&, const Scalar&) const;
  Tensor& uniform_(double = 0, double = 1) const;
  Tensor& normal_(double = 0, double = 1) const;
  std::vector<Tensor> chunk(int64_t, int64_t = 0) const;
  Tensor operator[](int64_t) const;
  Tensor operator[](const Tensor&) const;

  // in place
  Tensor& copy_(const Tensor&, bool = false) const;
  Tensor& fill_(const Scalar&) const;
  Tensor& zero_() const;
  Tensor& resize_(IntArrayRef) const;
  Tensor& add_(const Tensor&, const Scalar& = 1) const;
  Tensor& mul_(const Scalar&) const;
  Tensor& div_(const Scalar&) const;
  Tensor& clamp_(std::optional<Scalar> = std::nullopt, std::optional<Scalar> = std::nullopt) const;
  Tensor& record_stream(void*) const;

  // arithmetic
  Tensor sum(std::optional<ScalarType> = std::nullopt) const;
  Tensor sum(IntArrayRef, bool = false, std::optional<ScalarType> = std::nullopt) const;
  Tensor diff(int64_t = 1, int64_t = -1) const;
  Tensor broadcast_to(IntArrayRef) const;
  Tensor& set_(const Tensor&) const;
  Tensor& set_(const Storage&, int64_t = 0, IntArrayRef = {}, IntArrayRef = {}) const;
  Tensor index(ArrayRef<indexing::TensorIndex>) const;
  Tensor& index_put_(ArrayRef<indexing::TensorIndex>, const Tensor&) const;
  Tensor& index_put_(ArrayRef<indexing::TensorIndex>, const Scalar&) const;
  Tensor max() const;
  Tensor min() const;
  Tensor abs() const;
  Tensor amax(IntArrayRef = {}, bool = false) const;
  Tensor float_() const;
  Tensor mean() const;
  Tensor cumsum(int64_t) const;
  Tensor argsort(int64_t = -1, bool = false) const;
  Tensor nonzero() const;
  Tensor all() const;
  Tensor any() const;
  Tensor eq(const Tensor&) const;
  Tensor eq(const Scalar&) const;
  Tensor ne(const Scalar&) const;
  Tensor operator-() const;
  bool equal(const Tensor&) const;
  bool allclose(const Tensor&, double = 1e-5, double = 1e-8) const;

  // accessors
  template <class T, size_t N> TensorAccessor<T, N> accessor() const&;
  template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits,
            class index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const&;
  template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const&;
  template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const&;
  std::string toString() const;
};

Tensor operator+(const Tensor&, const Tensor&);
Tensor operator-(const Tensor&, const Tensor&);
Tensor operator*(const Tensor&, const Tensor&);
Tensor operator/(const Tensor&, const Tensor&);
Tensor operator*(const Tensor&, const Scalar&);
Tensor operator+(const Tensor&, const Scalar&);
Tensor operator-(const Tensor&, const Scalar&);
Tensor operator/(const Tensor&, const Scalar&);
Tensor operator==(const Tensor&, const Scalar&);
Tensor operator!=(const Tensor&, const Scalar&);
Tensor operator==(const Tensor&, const Tensor&);
Tensor operator!=(const Tensor&, const Tensor&);
Tensor operator<(const Tensor&, const Scalar&);
Tensor operator>(const Tensor&, const Scalar&);
Tensor operator<=(const Tensor&, const Scalar&);
Tensor operator>=(const Tensor&, const Scalar&);
Tensor operator<(const Tensor&, const Tensor&);
Tensor operator>(const Tensor&, const Tensor&);
Tensor operator&(const Tensor&, const Tensor&);
Tensor operator|(const Tensor&, const Tensor&);
Tensor operator~(const Tensor&);
Tensor operator%(const Tensor&, const Scalar&);
std::ostream& operator<<(std::ostream&, const Tensor&);

class TensorBase : public Tensor {};
using TensorList = ArrayRef<Tensor>;
using ITensorListRef = ArrayRef<Tensor>;

// factories (at:: and torch::)
Tensor empty(IntArrayRef, TensorOptions = {}, std::optional<MemoryFormat> = std::nullopt);
Tensor empty(IntArrayRef, ScalarType, std::optional<Layout>, std::optional<Device>,
             std::optional<bool> = std::nullopt, std::optional<MemoryFormat> = std::nullopt);
Tensor empty_strided(IntArrayRef, IntArrayRef, TensorOptions = {});
Tensor empty_like(const Tensor&, TensorOptions = {}, std::optional<MemoryFormat> = std::nullopt);
Tensor zeros(IntArrayRef, TensorOptions = {});
Tensor zeros_like(const Tensor&, TensorOptions = {});
Tensor ones(IntArrayRef, TensorOptions = {});
Tensor ones_like(const Tensor&, TensorOptions = {});
Tensor full(IntArrayRef, const Scalar&, TensorOptions = {});
Tensor full_like(const Tensor&, const Scalar&, TensorOptions = {});
Tensor arange(const Scalar&, TensorOptions = {});
Tensor arange(const Scalar&, const Scalar&, TensorOptions = {});
Tensor tensor(ArrayRef<int64_t>, TensorOptions = {});
Tensor tensor(ArrayRef<int32_t>, TensorOptions = {});
Tensor tensor(ArrayRef<float>, TensorOptions = {});
Tensor from_blob(void*, IntArrayRef, TensorOptions = {});
Tensor from_blob(void*, IntArrayRef, IntArrayRef, TensorOptions = {});
// A deleter is often a lambda: these templates need bodies.
template <class F>
Tensor from_blob(void* p, IntArrayRef s, F&&, TensorOptions o = {}) {
  return from_blob(p, s, o);
}
template <class F>
Tensor from_blob(void* p, IntArrayRef s, IntArrayRef st, F&&, TensorOptions o = {}) {
  return from_blob(p, s, st, o);
}
Tensor cat(TensorList, int64_t = 0);
Tensor stack(TensorList, int64_t = 0);
Tensor matmul(const Tensor&, const Tensor&);
Tensor mm(const Tensor&, const Tensor&);
Tensor bmm(const Tensor&, const Tensor&);
Tensor& mm_out(Tensor&, const Tensor&, const Tensor&);
Tensor& sum_out(Tensor&, const Tensor&, IntArrayRef, bool = false, std::optional<ScalarType> = std::nullopt);
Tensor sum(const Tensor&, IntArrayRef, bool = false);
Tensor cumsum(const Tensor&, int64_t);
Tensor argsort(const Tensor&, int64_t = -1, bool = false);
Tensor gelu(const Tensor&, std::string = "none");
Tensor where(const Tensor&, const Tensor&, const Tensor&);
Tensor clamp(const Tensor&, std::optional<Scalar> = std::nullopt, std::optional<Scalar> = std::nullopt);
Tensor abs(const Tensor&);
Tensor max(const Tensor&);
Tensor maximum(const Tensor&, const Tensor&);
Tensor minimum(const Tensor&, const Tensor&);
std::tuple<Tensor, Tensor> sort(const Tensor&, int64_t = -1, bool = false);
std::tuple<Tensor, Tensor> topk(const Tensor&, int64_t, int64_t = -1, bool = true, bool = true);
std::tuple<Tensor, Tensor> max(const Tensor&, int64_t, bool = false);

inline std::optional<Device> device_of(const Tensor& t) { return t.device(); }
inline std::optional<Device> device_of(const std::optional<Tensor>& t) {
  if (t) return t->device();
  return std::nullopt;
}

inline size_t elementSize(ScalarType s) { return c10::elementSize(s); }

int get_num_threads();
int get_thread_num();
void set_num_threads(int);
template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t, const F& f) {
  f(begin, end);
}

struct DeviceGuard {
  explicit DeviceGuard(Device);
  ~DeviceGuard();
};
struct OptionalDeviceGuard {
  OptionalDeviceGuard();
  explicit OptionalDeviceGuard(std::optional<Device>);
  explicit OptionalDeviceGuard(Device);
  ~OptionalDeviceGuard();
};

struct NoGradGuard {};
struct AutoDispatchBelowAutograd {};

}  // namespace at

namespace torch {
using namespace at;
using at::Tensor;
using at::IntArrayRef;
using at::TensorOptions;
using at::ScalarType;
using at::Device;
using at::DeviceType;
using at::Scalar;
using at::TensorList;
using c10::optional;
using c10::IValue;
namespace indexing = at::indexing;

// torch::Library, TORCH_LIBRARY (registration only; no calls are modelled).
class CppFunction {
 public:
  template <class F> CppFunction(F&&) {}
  template <class F> static CppFunction makeFromBoxedFunction();
};
class Library {
 public:
  Library& set_python_module(const char*, const char* = "") { return *this; }
  enum Kind { DEF, IMPL, FRAGMENT };
  template <class Schema> Library& def(Schema&&) { return *this; }
  template <class Schema, class F> Library& def(Schema&&, F&&) { return *this; }
  template <class Schema, class F, class Tag> Library& def(Schema&&, F&&, Tag&&) { return *this; }
  template <class Name, class F> Library& impl(Name&&, F&&) { return *this; }
  template <class Name, class F> Library& impl(Name&&, c10::DeviceType, F&&) { return *this; }
};
inline const char* dispatch_key_name(c10::DeviceType);
template <class F> CppFunction dispatch(c10::DeviceType, F&& f) {
  return CppFunction(f);
}
template <class T> struct class_ {
  explicit class_(const std::string&, const std::string&) {}
  template <class... A> class_& def(A&&...) { return *this; }
};
template <class... Args> struct init {};
struct CustomClassHolder {};
}  // namespace torch

namespace c10 {
template <class T> using intrusive_ptr = std::shared_ptr<T>;
template <class T, class... A> intrusive_ptr<T> make_intrusive(A&&... a) {
  return std::make_shared<T>(std::forward<A>(a)...);
}
}  // namespace c10

#define TORCH_LIBRARY(ns, m) \
  static void CT_TORCH_CONCAT(cuda_tidy_torch_library_, ns)(::torch::Library & m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) TORCH_LIBRARY(ns, m)
#define TORCH_LIBRARY_IMPL(ns, k, m) \
  static void CT_TORCH_CONCAT(CT_TORCH_CONCAT(cuda_tidy_torch_library_impl_, ns), __LINE__)(::torch::Library & m)

#include "_cuda_tidy_torch_more.h"
