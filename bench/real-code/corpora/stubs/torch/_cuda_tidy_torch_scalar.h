// Stand-in for PyTorch's scalar types (c10::ScalarType, c10::Half,
// c10::BFloat16, the float8 types) and its AT_DISPATCH_* / THO_DISPATCH_*
// macros, written from scratch for cuda-tidy's real-code benchmark.  The
// dispatch macros expand into a switch whose cases bind the C++ type of each
// listed scalar type and call the lambda, as PyTorch's do, so that every
// kernel instantiation a host function dispatches to is visible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <complex>
#include <ostream>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include "_cuda_tidy_torch_macros.h"

namespace torch {
namespace headeronly {
enum class ScalarType : int8_t {
  Byte, Char, Short, Int, Long, Half, Float, Double,
  ComplexHalf, ComplexFloat, ComplexDouble, Bool,
  QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4,
  Bits1x8, Bits2x4, Bits4x2, Bits8, Bits16,
  Float8_e5m2, Float8_e4m3fn, Float8_e5m2fnuz, Float8_e4m3fnuz,
  UInt16, UInt32, UInt64, UInt1, UInt2, UInt3, UInt4, UInt5, UInt6, UInt7,
  Int1, Int2, Int3, Int4, Int5, Int6, Int7,
  Float8_e8m0fnu, Float4_e2m1fn_x2,
  Undefined, NumOptions
};
std::ostream& operator<<(std::ostream&, ScalarType);
// Found by argument-dependent lookup on a ScalarType.
bool isQIntType(ScalarType);
bool isComplexType(ScalarType);
bool isSignedType(ScalarType);
bool isBitsType(ScalarType);
bool isBarebonesUnsignedType(ScalarType);
ScalarType toUnderlying(ScalarType);
ScalarType toRealValueType(ScalarType);
ScalarType promoteTypes(ScalarType, ScalarType);
}  // namespace headeronly
}  // namespace torch

namespace c10 {
using torch::headeronly::ScalarType;
using torch::headeronly::isQIntType;
using torch::headeronly::isComplexType;
using torch::headeronly::isSignedType;
using torch::headeronly::isBitsType;
using torch::headeronly::toUnderlying;
using torch::headeronly::toRealValueType;
using torch::headeronly::promoteTypes;

#define CT_TORCH_HALF_LIKE(Name, Bits, CudaType)                              \
  struct alignas(sizeof(Bits)) Name {                                         \
    Bits x;                                                                   \
    struct from_bits_t {};                                                    \
    static constexpr C10_HOST_DEVICE from_bits_t from_bits() {               \
      return from_bits_t();                                                   \
    }                                                                         \
    Name() = default;                                                         \
    constexpr C10_HOST_DEVICE Name(Bits bits, from_bits_t) : x(bits) {}      \
    C10_HOST_DEVICE Name(float value);                                        \
    C10_HOST_DEVICE operator float() const;                                   \
    C10_HOST_DEVICE Name(const CudaType& value);                              \
    C10_HOST_DEVICE EXPLICIT operator CudaType() const;                       \
  };

// c10::Half converts to __half implicitly; c10::BFloat16 to __nv_bfloat16
// only explicitly, as in c10.
#define EXPLICIT
CT_TORCH_HALF_LIKE(Half, uint16_t, __half)
#undef EXPLICIT
#define EXPLICIT explicit
CT_TORCH_HALF_LIKE(BFloat16, uint16_t, __nv_bfloat16)
#undef EXPLICIT
#undef CT_TORCH_HALF_LIKE

// Arithmetic of the 16-bit types, as c10 declares it: Half op Half is Half,
// mixed with float/double it is float/double, with an integer it is Half.
// Comparisons go through the conversion to float, as in c10.
#define CT_TORCH_HALF_OPS(T)                                                  \
  C10_HOST_DEVICE T operator+(const T&, const T&);                           \
  C10_HOST_DEVICE T operator-(const T&, const T&);                           \
  C10_HOST_DEVICE T operator*(const T&, const T&);                           \
  C10_HOST_DEVICE T operator/(const T&, const T&);                           \
  C10_HOST_DEVICE T operator-(const T&);                                     \
  C10_HOST_DEVICE T& operator+=(T&, const T&);                               \
  C10_HOST_DEVICE T& operator-=(T&, const T&);                               \
  C10_HOST_DEVICE T& operator*=(T&, const T&);                               \
  C10_HOST_DEVICE T& operator/=(T&, const T&);                               \
  C10_HOST_DEVICE float operator+(T, float);                                 \
  C10_HOST_DEVICE float operator-(T, float);                                 \
  C10_HOST_DEVICE float operator*(T, float);                                 \
  C10_HOST_DEVICE float operator/(T, float);                                 \
  C10_HOST_DEVICE float operator+(float, T);                                 \
  C10_HOST_DEVICE float operator-(float, T);                                 \
  C10_HOST_DEVICE float operator*(float, T);                                 \
  C10_HOST_DEVICE float operator/(float, T);                                 \
  C10_HOST_DEVICE float& operator+=(float&, const T&);                       \
  C10_HOST_DEVICE float& operator-=(float&, const T&);                       \
  C10_HOST_DEVICE float& operator*=(float&, const T&);                       \
  C10_HOST_DEVICE float& operator/=(float&, const T&);                       \
  C10_HOST_DEVICE double operator+(T, double);                               \
  C10_HOST_DEVICE double operator-(T, double);                               \
  C10_HOST_DEVICE double operator*(T, double);                               \
  C10_HOST_DEVICE double operator/(T, double);                               \
  C10_HOST_DEVICE double operator+(double, T);                               \
  C10_HOST_DEVICE double operator-(double, T);                               \
  C10_HOST_DEVICE double operator*(double, T);                               \
  C10_HOST_DEVICE double operator/(double, T);                               \
  C10_HOST_DEVICE T operator+(T, int);                                       \
  C10_HOST_DEVICE T operator-(T, int);                                       \
  C10_HOST_DEVICE T operator*(T, int);                                       \
  C10_HOST_DEVICE T operator/(T, int);                                       \
  C10_HOST_DEVICE T operator+(int, T);                                       \
  C10_HOST_DEVICE T operator-(int, T);                                       \
  C10_HOST_DEVICE T operator*(int, T);                                       \
  C10_HOST_DEVICE T operator/(int, T);                                       \
  C10_HOST_DEVICE T operator+(T, int64_t);                                   \
  C10_HOST_DEVICE T operator-(T, int64_t);                                   \
  C10_HOST_DEVICE T operator*(T, int64_t);                                   \
  C10_HOST_DEVICE T operator/(T, int64_t);                                   \
  C10_HOST_DEVICE T operator+(int64_t, T);                                   \
  C10_HOST_DEVICE T operator-(int64_t, T);                                   \
  C10_HOST_DEVICE T operator*(int64_t, T);                                   \
  C10_HOST_DEVICE T operator/(int64_t, T);                                   \
  __device__ T __ldg(const T* ptr);

CT_TORCH_HALF_OPS(Half)
CT_TORCH_HALF_OPS(BFloat16)
#undef CT_TORCH_HALF_OPS

#define CT_TORCH_BYTE_FLOAT(Name)                                             \
  struct alignas(1) Name {                                                    \
    uint8_t x;                                                                \
    struct from_bits_t {};                                                    \
    static constexpr C10_HOST_DEVICE from_bits_t from_bits() {               \
      return from_bits_t();                                                   \
    }                                                                         \
    Name() = default;                                                         \
    constexpr C10_HOST_DEVICE Name(uint8_t bits, from_bits_t) : x(bits) {}   \
    C10_HOST_DEVICE Name(float value);                                        \
    C10_HOST_DEVICE operator float() const;                                   \
    C10_HOST_DEVICE bool isnan() const;                                       \
    C10_HOST_DEVICE bool isinf() const;                                       \
  };

CT_TORCH_BYTE_FLOAT(Float8_e4m3fn)
CT_TORCH_BYTE_FLOAT(Float8_e5m2)
CT_TORCH_BYTE_FLOAT(Float8_e4m3fnuz)
CT_TORCH_BYTE_FLOAT(Float8_e5m2fnuz)
CT_TORCH_BYTE_FLOAT(Float8_e8m0fnu)
#undef CT_TORCH_BYTE_FLOAT

struct alignas(1) Float4_e2m1fn_x2 {
  uint8_t val_;
  Float4_e2m1fn_x2() = default;
  C10_HOST_DEVICE explicit Float4_e2m1fn_x2(uint8_t v) : val_(v) {}
};

template <class T>
struct alignas(sizeof(T) * 2) complex {
  T real_, imag_;
  constexpr C10_HOST_DEVICE complex(const T& re = T(), const T& im = T())
      : real_(re), imag_(im) {}
  constexpr C10_HOST_DEVICE T real() const { return real_; }
  constexpr C10_HOST_DEVICE T imag() const { return imag_; }
};

struct alignas(1) qint8 { int8_t val_; };
struct alignas(1) quint8 { uint8_t val_; };
struct alignas(4) qint32 { int32_t val_; };
struct alignas(1) quint4x2 { uint8_t val_; };
struct alignas(1) quint2x4 { uint8_t val_; };
struct alignas(1) bits8 { uint8_t val_; };
struct alignas(2) bits16 { uint16_t val_; };

namespace impl {
template <ScalarType S> struct ScalarTypeToCPPType;
#define CT_TORCH_MAP(cpp, name)                                    \
  template <> struct ScalarTypeToCPPType<ScalarType::name> {       \
    using type = cpp;                                              \
    static type t;                                                 \
  };
CT_TORCH_MAP(uint8_t, Byte)
CT_TORCH_MAP(int8_t, Char)
CT_TORCH_MAP(int16_t, Short)
CT_TORCH_MAP(int, Int)
CT_TORCH_MAP(int64_t, Long)
CT_TORCH_MAP(c10::Half, Half)
CT_TORCH_MAP(float, Float)
CT_TORCH_MAP(double, Double)
CT_TORCH_MAP(c10::complex<c10::Half>, ComplexHalf)
CT_TORCH_MAP(c10::complex<float>, ComplexFloat)
CT_TORCH_MAP(c10::complex<double>, ComplexDouble)
CT_TORCH_MAP(bool, Bool)
CT_TORCH_MAP(c10::qint8, QInt8)
CT_TORCH_MAP(c10::quint8, QUInt8)
CT_TORCH_MAP(c10::qint32, QInt32)
CT_TORCH_MAP(c10::BFloat16, BFloat16)
CT_TORCH_MAP(c10::quint4x2, QUInt4x2)
CT_TORCH_MAP(c10::quint2x4, QUInt2x4)
CT_TORCH_MAP(c10::bits8, Bits8)
CT_TORCH_MAP(c10::bits16, Bits16)
CT_TORCH_MAP(c10::Float8_e5m2, Float8_e5m2)
CT_TORCH_MAP(c10::Float8_e4m3fn, Float8_e4m3fn)
CT_TORCH_MAP(c10::Float8_e5m2fnuz, Float8_e5m2fnuz)
CT_TORCH_MAP(c10::Float8_e4m3fnuz, Float8_e4m3fnuz)
CT_TORCH_MAP(uint16_t, UInt16)
CT_TORCH_MAP(uint32_t, UInt32)
CT_TORCH_MAP(uint64_t, UInt64)
CT_TORCH_MAP(c10::Float8_e8m0fnu, Float8_e8m0fnu)
CT_TORCH_MAP(c10::Float4_e2m1fn_x2, Float4_e2m1fn_x2)
#undef CT_TORCH_MAP
template <ScalarType S>
using ScalarTypeToCPPTypeT = typename ScalarTypeToCPPType<S>::type;
}  // namespace impl

template <class T> struct CppTypeToScalarType;
#define CT_TORCH_RMAP(cpp, name)                                         \
  template <> struct CppTypeToScalarType<cpp>                            \
      : std::integral_constant<ScalarType, ScalarType::name> {};
CT_TORCH_RMAP(uint8_t, Byte)
CT_TORCH_RMAP(int8_t, Char)
CT_TORCH_RMAP(int16_t, Short)
CT_TORCH_RMAP(int, Int)
CT_TORCH_RMAP(int64_t, Long)
CT_TORCH_RMAP(c10::Half, Half)
CT_TORCH_RMAP(float, Float)
CT_TORCH_RMAP(double, Double)
CT_TORCH_RMAP(bool, Bool)
CT_TORCH_RMAP(c10::BFloat16, BFloat16)
CT_TORCH_RMAP(c10::Float8_e5m2, Float8_e5m2)
CT_TORCH_RMAP(c10::Float8_e4m3fn, Float8_e4m3fn)
CT_TORCH_RMAP(c10::Float8_e5m2fnuz, Float8_e5m2fnuz)
CT_TORCH_RMAP(c10::Float8_e4m3fnuz, Float8_e4m3fnuz)
CT_TORCH_RMAP(uint16_t, UInt16)
CT_TORCH_RMAP(uint32_t, UInt32)
CT_TORCH_RMAP(uint64_t, UInt64)
CT_TORCH_RMAP(c10::Float8_e8m0fnu, Float8_e8m0fnu)
CT_TORCH_RMAP(c10::Float4_e2m1fn_x2, Float4_e2m1fn_x2)
#undef CT_TORCH_RMAP

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat8_e5m2 = ScalarType::Float8_e5m2;
constexpr ScalarType kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;
constexpr ScalarType kFloat8_e5m2fnuz = ScalarType::Float8_e5m2fnuz;
constexpr ScalarType kFloat8_e4m3fnuz = ScalarType::Float8_e4m3fnuz;
constexpr ScalarType kFloat8_e8m0fnu = ScalarType::Float8_e8m0fnu;
constexpr ScalarType kFloat4_e2m1fn_x2 = ScalarType::Float4_e2m1fn_x2;
constexpr ScalarType kUInt16 = ScalarType::UInt16;
constexpr ScalarType kUInt32 = ScalarType::UInt32;
constexpr ScalarType kUInt64 = ScalarType::UInt64;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kQUInt4x2 = ScalarType::QUInt4x2;
constexpr ScalarType kQUInt2x4 = ScalarType::QUInt2x4;
constexpr ScalarType kBits8 = ScalarType::Bits8;
constexpr ScalarType kBits16 = ScalarType::Bits16;
// torch's size-named aliases
constexpr ScalarType kUInt8 = ScalarType::Byte;
constexpr ScalarType kU8 = ScalarType::Byte;
constexpr ScalarType kInt8 = ScalarType::Char;
constexpr ScalarType kInt16 = ScalarType::Short;
constexpr ScalarType kInt32 = ScalarType::Int;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kFloat64 = ScalarType::Double;

size_t elementSize(ScalarType);
const char* toString(ScalarType);
bool isFloatingType(ScalarType);
bool isIntegralType(ScalarType, bool includeBool);
bool isReducedFloatingType(ScalarType);
bool isFloat8Type(ScalarType);

}  // namespace c10

// ATen/Dispatch.h's helper (a global namespace detail): the scalar type of a
// ScalarType or of anything that converts to one (TypeMeta).
namespace detail {
inline c10::ScalarType scalar_type(c10::ScalarType s) { return s; }
template <class T>
inline c10::ScalarType scalar_type(const T& t) {
  return static_cast<c10::ScalarType>(t);
}
}  // namespace detail

namespace torch {
namespace headeronly {
using c10::Half;
using c10::BFloat16;
using c10::Float8_e4m3fn;
using c10::Float8_e5m2;
using c10::Float8_e4m3fnuz;
using c10::Float8_e5m2fnuz;
using c10::Float8_e8m0fnu;
using c10::Float4_e2m1fn_x2;
using c10::CppTypeToScalarType;
using c10::elementSize;
using c10::toString;
namespace impl {
using c10::impl::ScalarTypeToCPPType;
using c10::impl::ScalarTypeToCPPTypeT;
}
}  // namespace headeronly
}  // namespace torch

// X-macros over the scalar types (c10/core/ScalarType.h).
#define AT_FORALL_SCALAR_TYPES(_) \
  _(uint8_t, Byte)                \
  _(int8_t, Char)                 \
  _(int16_t, Short)               \
  _(int, Int)                     \
  _(int64_t, Long)                \
  _(float, Float)                 \
  _(double, Double)
#define AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(_)         \
  AT_FORALL_SCALAR_TYPES(_)                            \
  _(c10::Half, Half)                                   \
  _(c10::complex<c10::Half>, ComplexHalf)              \
  _(c10::complex<float>, ComplexFloat)                 \
  _(c10::complex<double>, ComplexDouble)               \
  _(bool, Bool)                                        \
  _(c10::BFloat16, BFloat16)                           \
  _(c10::Float8_e5m2, Float8_e5m2)                     \
  _(c10::Float8_e4m3fn, Float8_e4m3fn)                 \
  _(c10::Float8_e5m2fnuz, Float8_e5m2fnuz)             \
  _(c10::Float8_e4m3fnuz, Float8_e4m3fnuz)
#define AT_FORALL_SCALAR_TYPES_AND(SCALARTYPE, _) \
  AT_FORALL_SCALAR_TYPES(_)                       \
  _(decltype(::c10::impl::ScalarTypeToCPPType<::c10::ScalarType::SCALARTYPE>::t), SCALARTYPE)
#define AT_FORALL_SCALAR_TYPES_AND2(S1, S2, _)                                     \
  AT_FORALL_SCALAR_TYPES_AND(S1, _)                                                \
  _(decltype(::c10::impl::ScalarTypeToCPPType<::c10::ScalarType::S2>::t), S2)
#define AT_FORALL_SCALAR_TYPES_AND3(S1, S2, S3, _)                                 \
  AT_FORALL_SCALAR_TYPES_AND2(S1, S2, _)                                           \
  _(decltype(::c10::impl::ScalarTypeToCPPType<::c10::ScalarType::S3>::t), S3)

// ---------------------------------------------------------------------------
// Dispatch

#define AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...)          \
  case enum_type: {                                                    \
    using HINT [[maybe_unused]] =                                      \
        ::c10::impl::ScalarTypeToCPPTypeT<enum_type>;                  \
    return __VA_ARGS__();                                              \
  }

#define AT_DISPATCH_CASE(enum_type, ...) \
  AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, scalar_t, __VA_ARGS__)

#define AT_DISPATCH_SWITCH(TYPE, NAME, ...)                                 \
  [&] {                                                                     \
    const auto& the_type = TYPE;                                            \
    [[maybe_unused]] constexpr const char* at_dispatch_name = NAME;         \
    ::c10::ScalarType _st = ::detail::scalar_type(the_type);            \
    switch (_st) {                                                          \
      __VA_ARGS__                                                           \
      default:                                                              \
        AT_ERROR('"', at_dispatch_name, "\" not implemented for '",         \
                 ::c10::toString(_st), "'");                                \
    }                                                                       \
  }()

#define AT_DISPATCH_CASE_FLOATING_TYPES(...)            \
  AT_DISPATCH_CASE(::c10::ScalarType::Double, __VA_ARGS__) \
  AT_DISPATCH_CASE(::c10::ScalarType::Float, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(...)   \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)          \
  AT_DISPATCH_CASE(::c10::ScalarType::Half, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                             \
                     AT_DISPATCH_CASE_FLOATING_TYPES_AND_HALF(__VA_ARGS__))
#define AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(...)       \
  AT_DISPATCH_CASE(::c10::ScalarType::Half, __VA_ARGS__)   \
  AT_DISPATCH_CASE(::c10::ScalarType::BFloat16, __VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                            \
                     AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(__VA_ARGS__))
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND(S1, ...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)       \
  AT_DISPATCH_CASE(S1, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(S1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                            \
                     AT_DISPATCH_CASE_FLOATING_TYPES_AND(S1, __VA_ARGS__))
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND2(S1, S2, ...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)            \
  AT_DISPATCH_CASE(S1, __VA_ARGS__)                       \
  AT_DISPATCH_CASE(S2, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                 \
                     AT_DISPATCH_CASE_FLOATING_TYPES_AND2(S1, S2, __VA_ARGS__))
#define AT_DISPATCH_CASE_FLOATING_TYPES_AND3(S1, S2, S3, ...) \
  AT_DISPATCH_CASE_FLOATING_TYPES_AND2(S1, S2, __VA_ARGS__)   \
  AT_DISPATCH_CASE(S3, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND3(S1, S2, S3, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(                                                \
      TYPE, NAME, AT_DISPATCH_CASE_FLOATING_TYPES_AND3(S1, S2, S3, __VA_ARGS__))
#define AT_DISPATCH_CASE_INTEGRAL_TYPES(...)             \
  AT_DISPATCH_CASE(::c10::ScalarType::Byte, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Char, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Int, __VA_ARGS__)   \
  AT_DISPATCH_CASE(::c10::ScalarType::Long, __VA_ARGS__)  \
  AT_DISPATCH_CASE(::c10::ScalarType::Short, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_CASE_INTEGRAL_TYPES_AND(S1, ...) \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__)       \
  AT_DISPATCH_CASE(S1, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES_AND(S1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                            \
                     AT_DISPATCH_CASE_INTEGRAL_TYPES_AND(S1, __VA_ARGS__))
#define AT_DISPATCH_CASE_ALL_TYPES(...)        \
  AT_DISPATCH_CASE_INTEGRAL_TYPES(__VA_ARGS__) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__))
#define AT_DISPATCH_CASE_ALL_TYPES_AND(S1, ...) \
  AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__)       \
  AT_DISPATCH_CASE(S1, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(S1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_ALL_TYPES_AND(S1, __VA_ARGS__))
#define AT_DISPATCH_CASE_ALL_TYPES_AND2(S1, S2, ...) \
  AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__)            \
  AT_DISPATCH_CASE(S1, __VA_ARGS__)                  \
  AT_DISPATCH_CASE(S2, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(S1, S2, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                            \
                     AT_DISPATCH_CASE_ALL_TYPES_AND2(S1, S2, __VA_ARGS__))
#define AT_DISPATCH_CASE_ALL_TYPES_AND3(S1, S2, S3, ...) \
  AT_DISPATCH_CASE_ALL_TYPES_AND2(S1, S2, __VA_ARGS__)   \
  AT_DISPATCH_CASE(S3, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND3(S1, S2, S3, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                \
                     AT_DISPATCH_CASE_ALL_TYPES_AND3(S1, S2, S3, __VA_ARGS__))
#define AT_DISPATCH_CASE_INDEX_TYPES(...)                                  \
  AT_PRIVATE_CASE_TYPE_USING_HINT(::c10::ScalarType::Int, index_t, __VA_ARGS__) \
  AT_PRIVATE_CASE_TYPE_USING_HINT(::c10::ScalarType::Long, index_t, __VA_ARGS__)
#define AT_DISPATCH_INDEX_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, AT_DISPATCH_CASE_INDEX_TYPES(__VA_ARGS__))

// The header-only (stable ABI) spelling of the same macros.
#define THO_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, ...) \
  AT_PRIVATE_CASE_TYPE_USING_HINT(enum_type, HINT, __VA_ARGS__)
#define THO_DISPATCH_CASE(enum_type, ...) AT_DISPATCH_CASE(enum_type, __VA_ARGS__)
#define THO_DISPATCH_SWITCH(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH(TYPE, NAME, __VA_ARGS__)
#define THO_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, __VA_ARGS__)
#define THO_DISPATCH_CASE_FLOATING_TYPES(...) \
  AT_DISPATCH_CASE_FLOATING_TYPES(__VA_ARGS__)
#define THO_DISPATCH_CASE_REDUCED_FLOATING_TYPES(...) \
  AT_DISPATCH_CASE_REDUCED_FLOATING_TYPES(__VA_ARGS__)
#define THO_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, __VA_ARGS__)
#define THO_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, ...) \
  AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, __VA_ARGS__)
#define THO_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, __VA_ARGS__)
#define THO_DISPATCH_INDEX_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_INDEX_TYPES(TYPE, NAME, __VA_ARGS__)
