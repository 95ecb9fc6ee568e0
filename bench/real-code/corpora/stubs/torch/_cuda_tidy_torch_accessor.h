// Stand-in for PyTorch's tensor accessors (ATen/core/TensorAccessor.h),
// written from scratch for cuda-tidy's real-code benchmark: the public
// interface (operator[], size, stride, data) and the protected members the
// projects' own accessor subclasses read (data_, sizes_, strides_).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "_cuda_tidy_torch_macros.h"

namespace at {

template <class T> struct DefaultPtrTraits { typedef T* PtrType; };
template <class T> struct RestrictPtrTraits { typedef T* __restrict__ PtrType; };

template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits,
          class index_t = int64_t>
class TensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  C10_HOST_DEVICE TensorAccessorBase(PtrType data, const index_t* sizes,
                                     const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  const index_t* sizes_;
  const index_t* strides_;
};

template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits,
          class index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  C10_HOST_DEVICE TensorAccessor(PtrType data, const index_t* sizes,
                                 const index_t* strides)
      : TensorAccessorBase<T, N, PtrTraits, index_t>(data, sizes, strides) {}
  C10_HOST_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, this->sizes_ + 1, this->strides_ + 1);
  }
  C10_HOST_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](
      index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, this->sizes_ + 1, this->strides_ + 1);
  }
};

template <class T, template <class U> class PtrTraits, class index_t>
class TensorAccessor<T, 1, PtrTraits, index_t>
    : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  C10_HOST_DEVICE TensorAccessor(PtrType data, const index_t* sizes,
                                 const index_t* strides)
      : TensorAccessorBase<T, 1, PtrTraits, index_t>(data, sizes, strides) {}
  C10_HOST_DEVICE T& operator[](index_t i) {
    return this->data_[this->strides_[0] * i];
  }
  C10_HOST_DEVICE const T& operator[](index_t i) const {
    return this->data_[this->strides_[0] * i];
  }
};

template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits,
          class index_t = int64_t>
class GenericPackedTensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  C10_HOST GenericPackedTensorAccessorBase(PtrType data, const index_t* sizes,
                                           const index_t* strides)
      : data_(data) {
    for (size_t i = 0; i < N; ++i) {
      sizes_[i] = sizes[i];
      strides_[i] = strides[i];
    }
  }
  template <class source_index_t,
            class = std::enable_if_t<std::is_same_v<source_index_t, int64_t>>>
  C10_HOST GenericPackedTensorAccessorBase(PtrType data,
                                           const source_index_t* sizes,
                                           const source_index_t* strides)
      : data_(data) {
    for (size_t i = 0; i < N; ++i) {
      sizes_[i] = static_cast<index_t>(sizes[i]);
      strides_[i] = static_cast<index_t>(strides[i]);
    }
  }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];
  C10_HOST void bounds_check_(index_t) const {}
};

template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits,
          class index_t = int64_t>
class GenericPackedTensorAccessor
    : public GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  using GenericPackedTensorAccessorBase<T, N, PtrTraits,
                                        index_t>::GenericPackedTensorAccessorBase;
  C10_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    index_t* new_sizes = this->sizes_ + 1;
    index_t* new_strides = this->strides_ + 1;
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, new_sizes, new_strides);
  }
  C10_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](
      index_t i) const {
    const index_t* new_sizes = this->sizes_ + 1;
    const index_t* new_strides = this->strides_ + 1;
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(
        this->data_ + this->strides_[0] * i, new_sizes, new_strides);
  }
  C10_HOST GenericPackedTensorAccessor<T, N, PtrTraits, index_t> transpose(
      index_t, index_t) const {
    return *this;
  }
};

template <class T, template <class U> class PtrTraits, class index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t>
    : public GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  using GenericPackedTensorAccessorBase<T, 1, PtrTraits,
                                        index_t>::GenericPackedTensorAccessorBase;
  C10_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_DEVICE const T& operator[](index_t i) const {
    return this->data_[this->strides_[0] * i];
  }
  C10_HOST GenericPackedTensorAccessor<T, 1, PtrTraits, index_t> transpose(
      index_t, index_t) const {
    return *this;
  }
};

template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

// The older name of the generic packed accessor.
template <class T, size_t N, template <class U> class PtrTraits = DefaultPtrTraits,
          class index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;

}  // namespace at
