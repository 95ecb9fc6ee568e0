// cuda-tidy real-code stand-in for Catch2 (bench/real-code/corpora/cucollections.py).
// Written from scratch: only the macros cuCollections' tests use, so that each
// test body compiles as a function and each template test is instantiated for
// every type (or signature tuple) its macro lists.  Assertions evaluate their
// expression; SECTION runs its block; GENERATE yields its first value.
#pragma once
#include <sstream>

#define CUCO_STUB_CAT2(a, b) a##b
#define CUCO_STUB_CAT(a, b) CUCO_STUB_CAT2(a, b)
#define CUCO_STUB_UNIQUE(base) CUCO_STUB_CAT(base, __COUNTER__)
#define CUCO_STUB_STRIP(...) __VA_ARGS__
#define CUCO_STUB_UNPAREN(x) CUCO_STUB_STRIP x
#define CUCO_STUB_FIRST(a, ...) a
#define CUCO_STUB_SIG_PARAMS(sig) CUCO_STUB_UNPAREN(CUCO_STUB_FIRST sig)

// CUCO_STUB_FOR_EACH(M, fn, a, b, ...) -> M(fn, a) M(fn, b) ...
#define CUCO_STUB_NARGS(...) CUCO_STUB_NARGS_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define CUCO_STUB_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, n, ...) n
#define CUCO_STUB_FE_1(M, f, x) M(f, x)
#define CUCO_STUB_FE_2(M, f, x, ...) M(f, x) CUCO_STUB_FE_1(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_3(M, f, x, ...) M(f, x) CUCO_STUB_FE_2(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_4(M, f, x, ...) M(f, x) CUCO_STUB_FE_3(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_5(M, f, x, ...) M(f, x) CUCO_STUB_FE_4(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_6(M, f, x, ...) M(f, x) CUCO_STUB_FE_5(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_7(M, f, x, ...) M(f, x) CUCO_STUB_FE_6(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_8(M, f, x, ...) M(f, x) CUCO_STUB_FE_7(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_9(M, f, x, ...) M(f, x) CUCO_STUB_FE_8(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_10(M, f, x, ...) M(f, x) CUCO_STUB_FE_9(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_11(M, f, x, ...) M(f, x) CUCO_STUB_FE_10(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_12(M, f, x, ...) M(f, x) CUCO_STUB_FE_11(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_13(M, f, x, ...) M(f, x) CUCO_STUB_FE_12(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_14(M, f, x, ...) M(f, x) CUCO_STUB_FE_13(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_15(M, f, x, ...) M(f, x) CUCO_STUB_FE_14(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_16(M, f, x, ...) M(f, x) CUCO_STUB_FE_15(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_17(M, f, x, ...) M(f, x) CUCO_STUB_FE_16(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_18(M, f, x, ...) M(f, x) CUCO_STUB_FE_17(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_19(M, f, x, ...) M(f, x) CUCO_STUB_FE_18(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_20(M, f, x, ...) M(f, x) CUCO_STUB_FE_19(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_21(M, f, x, ...) M(f, x) CUCO_STUB_FE_20(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_22(M, f, x, ...) M(f, x) CUCO_STUB_FE_21(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_23(M, f, x, ...) M(f, x) CUCO_STUB_FE_22(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_24(M, f, x, ...) M(f, x) CUCO_STUB_FE_23(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_25(M, f, x, ...) M(f, x) CUCO_STUB_FE_24(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_26(M, f, x, ...) M(f, x) CUCO_STUB_FE_25(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_27(M, f, x, ...) M(f, x) CUCO_STUB_FE_26(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_28(M, f, x, ...) M(f, x) CUCO_STUB_FE_27(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_29(M, f, x, ...) M(f, x) CUCO_STUB_FE_28(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_30(M, f, x, ...) M(f, x) CUCO_STUB_FE_29(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_31(M, f, x, ...) M(f, x) CUCO_STUB_FE_30(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_32(M, f, x, ...) M(f, x) CUCO_STUB_FE_31(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_33(M, f, x, ...) M(f, x) CUCO_STUB_FE_32(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_34(M, f, x, ...) M(f, x) CUCO_STUB_FE_33(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_35(M, f, x, ...) M(f, x) CUCO_STUB_FE_34(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_36(M, f, x, ...) M(f, x) CUCO_STUB_FE_35(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_37(M, f, x, ...) M(f, x) CUCO_STUB_FE_36(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_38(M, f, x, ...) M(f, x) CUCO_STUB_FE_37(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_39(M, f, x, ...) M(f, x) CUCO_STUB_FE_38(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_40(M, f, x, ...) M(f, x) CUCO_STUB_FE_39(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_41(M, f, x, ...) M(f, x) CUCO_STUB_FE_40(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_42(M, f, x, ...) M(f, x) CUCO_STUB_FE_41(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_43(M, f, x, ...) M(f, x) CUCO_STUB_FE_42(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_44(M, f, x, ...) M(f, x) CUCO_STUB_FE_43(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_45(M, f, x, ...) M(f, x) CUCO_STUB_FE_44(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_46(M, f, x, ...) M(f, x) CUCO_STUB_FE_45(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_47(M, f, x, ...) M(f, x) CUCO_STUB_FE_46(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_48(M, f, x, ...) M(f, x) CUCO_STUB_FE_47(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_49(M, f, x, ...) M(f, x) CUCO_STUB_FE_48(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_50(M, f, x, ...) M(f, x) CUCO_STUB_FE_49(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_51(M, f, x, ...) M(f, x) CUCO_STUB_FE_50(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_52(M, f, x, ...) M(f, x) CUCO_STUB_FE_51(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_53(M, f, x, ...) M(f, x) CUCO_STUB_FE_52(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_54(M, f, x, ...) M(f, x) CUCO_STUB_FE_53(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_55(M, f, x, ...) M(f, x) CUCO_STUB_FE_54(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_56(M, f, x, ...) M(f, x) CUCO_STUB_FE_55(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_57(M, f, x, ...) M(f, x) CUCO_STUB_FE_56(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_58(M, f, x, ...) M(f, x) CUCO_STUB_FE_57(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_59(M, f, x, ...) M(f, x) CUCO_STUB_FE_58(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_60(M, f, x, ...) M(f, x) CUCO_STUB_FE_59(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_61(M, f, x, ...) M(f, x) CUCO_STUB_FE_60(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_62(M, f, x, ...) M(f, x) CUCO_STUB_FE_61(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_63(M, f, x, ...) M(f, x) CUCO_STUB_FE_62(M, f, __VA_ARGS__)
#define CUCO_STUB_FE_64(M, f, x, ...) M(f, x) CUCO_STUB_FE_63(M, f, __VA_ARGS__)
#define CUCO_STUB_FOR_EACH(M, f, ...) \
  CUCO_STUB_CAT(CUCO_STUB_FE_, CUCO_STUB_NARGS(__VA_ARGS__))(M, f, __VA_ARGS__)

// Taking each specialization's address instantiates it (at the end of the
// translation unit, after the body that follows the macro).
#define CUCO_STUB_ADDR_TYPE(f, T) (void)&f<T>;
#define CUCO_STUB_ADDR_TUPLE(f, tup) (void)&f<CUCO_STUB_STRIP tup>;

#define CUCO_STUB_TEST_CASE(fn, ...) \
  static void fn(); \
  [[maybe_unused]] static int const CUCO_STUB_CAT(fn, _registered) = ((void)&fn, 0); \
  static void fn()
#define TEST_CASE(...) CUCO_STUB_TEST_CASE(CUCO_STUB_UNIQUE(cuco_stub_test_))

#define CUCO_STUB_TEMPLATE_TEST_CASE(fn, name, tags, ...) \
  template <typename TestType> \
  static void fn(); \
  [[maybe_unused]] static int const CUCO_STUB_CAT(fn, _registered) = [] { \
    CUCO_STUB_FOR_EACH(CUCO_STUB_ADDR_TYPE, fn, __VA_ARGS__) \
    return 0; \
  }(); \
  template <typename TestType> \
  static void fn()
#define TEMPLATE_TEST_CASE(...) \
  CUCO_STUB_TEMPLATE_TEST_CASE(CUCO_STUB_UNIQUE(cuco_stub_test_), __VA_ARGS__)

#define CUCO_STUB_TEMPLATE_TEST_CASE_SIG(fn, name, tags, sig, ...) \
  template <CUCO_STUB_SIG_PARAMS(sig)> \
  static void fn(); \
  [[maybe_unused]] static int const CUCO_STUB_CAT(fn, _registered) = [] { \
    CUCO_STUB_FOR_EACH(CUCO_STUB_ADDR_TUPLE, fn, __VA_ARGS__) \
    return 0; \
  }(); \
  template <CUCO_STUB_SIG_PARAMS(sig)> \
  static void fn()
#define TEMPLATE_TEST_CASE_SIG(...) \
  CUCO_STUB_TEMPLATE_TEST_CASE_SIG(CUCO_STUB_UNIQUE(cuco_stub_test_), __VA_ARGS__)

#define SECTION(...) if (true)
#define REQUIRE(...) ((void)(__VA_ARGS__))
#define CHECK(...) ((void)(__VA_ARGS__))
#define STATIC_REQUIRE(...) static_assert(__VA_ARGS__, "")
#define INFO(msg) \
  do { \
    std::ostringstream cuco_stub_info; \
    cuco_stub_info << msg; \
  } while (0)

namespace cuco_stub {
template <typename T, typename... Rest>
T generate(T first, Rest...)
{
  return first;
}
}  // namespace cuco_stub
#define GENERATE(...) ::cuco_stub::generate(__VA_ARGS__)
