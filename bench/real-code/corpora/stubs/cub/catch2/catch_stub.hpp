// cuda-tidy bench stand-in for Catch2 3, written for the cub corpus from the
// names cccl's c2h headers use at namespace scope; it is not Catch2 and runs
// nothing.  Only declarations and no-op macros, so that CUB's examples (which
// include cub/test/test_util.h, which includes c2h) parse.
#pragma once
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#define CATCH_FORWARD(...) static_cast<decltype(__VA_ARGS__)&&>(__VA_ARGS__)
#define CATCH_INTERNAL_STRINGIFY(...) #__VA_ARGS__
#define CATCH_INTERNAL_LINEINFO ::Catch::SourceLineInfo{__FILE__, __LINE__}
#define CATCH_INTERNAL_START_WARNINGS_SUPPRESSION
#define CATCH_INTERNAL_STOP_WARNINGS_SUPPRESSION
#define CATCH_INTERNAL_SUPPRESS_UNUSED_VARIABLE_WARNINGS
#define INTERNAL_CATCH_TRY
#define INTERNAL_CATCH_CATCH(handler)

namespace Catch {
struct SourceLineInfo { const char* file; unsigned long line; };

enum class ResultDisposition { Normal = 1, ContinueOnFailure = 2 };

class ITransientExpression {
 public:
  constexpr ITransientExpression(bool isBinary, bool result)
      : m_isBinaryExpression(isBinary), m_result(result) {}
  virtual void streamReconstructedExpression(std::ostream& os) const = 0;
  bool m_isBinaryExpression;
  bool m_result;
};

class ReusableStringStream {
  std::ostringstream m_ss;
 public:
  template <typename T>
  ReusableStringStream& operator<<(const T& v) { m_ss << v; return *this; }
  std::string str() const { return m_ss.str(); }
};

class IResultCapture {
 public:
  virtual ~IResultCapture() = default;
  virtual const std::string& getCurrentTestName() const = 0;
};
IResultCapture& getResultCapture();

template <typename T, typename = void>
struct StringMaker {
  static std::string convert(const T&) { return std::string(); }
};

template <typename T, typename = void>
struct is_range { static constexpr bool value = false; };

namespace Detail {
template <typename T>
std::string stringify(const T& e) { return StringMaker<T>::convert(e); }
}  // namespace Detail

template <typename Range>
std::string rangeToString(const Range&) { return std::string(); }

namespace Matchers {
class MatcherUntypedBase {
 public:
  virtual ~MatcherUntypedBase() = default;
  std::string toString() const { return describe(); }
 protected:
  virtual std::string describe() const = 0;
};

template <typename ObjectT>
class MatcherBase : public MatcherUntypedBase {
 public:
  virtual bool match(ObjectT const& arg) const = 0;
};

class MatcherGenericBase : public MatcherUntypedBase {};
}  // namespace Matchers
}  // namespace Catch
