//===- Json.h - a small JSON value for the evidence file -----------------===//

#ifndef RUNTIME_VERIFIER_JSON_H
#define RUNTIME_VERIFIER_JSON_H

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace rv {

class Json {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Json() = default;
  Json(bool B) : K(Kind::Bool), Bool(B) {}
  Json(int N) : K(Kind::Number), Num(N) {}
  Json(double N) : K(Kind::Number), Num(N) {}
  Json(const char *S) : K(Kind::String), Str(S) {}
  Json(std::string S) : K(Kind::String), Str(std::move(S)) {}

  static Json array() {
    Json J;
    J.K = Kind::Array;
    return J;
  }
  static Json object() {
    Json J;
    J.K = Kind::Object;
    return J;
  }
  static Json strings(const std::vector<std::string> &V) {
    Json J = array();
    for (const std::string &S : V)
      J.push(S);
    return J;
  }

  Json &push(Json V) {
    Items.push_back(std::move(V));
    return *this;
  }
  /// Sets a member of an object (keeps insertion order).
  Json &set(const std::string &Key, Json V) {
    for (auto &M : Members)
      if (M.first == Key) {
        M.second = std::move(V);
        return *this;
      }
    Members.emplace_back(Key, std::move(V));
    return *this;
  }
  bool empty() const { return Items.empty() && Members.empty(); }

  std::string dump(int Indent = 0) const {
    std::string Out;
    write(Out, Indent);
    Out += "\n";
    return Out;
  }

  static std::string quote(const std::string &S) {
    std::string Out = "\"";
    for (unsigned char C : S) {
      switch (C) {
      case '"':
        Out += "\\\"";
        break;
      case '\\':
        Out += "\\\\";
        break;
      case '\n':
        Out += "\\n";
        break;
      case '\r':
        Out += "\\r";
        break;
      case '\t':
        Out += "\\t";
        break;
      default:
        if (C < 0x20) {
          char Buf[8];
          std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
          Out += Buf;
        } else {
          Out += static_cast<char>(C);
        }
      }
    }
    return Out + "\"";
  }

private:
  void write(std::string &Out, int Depth) const {
    const std::string Pad(2 * (Depth + 1), ' '), End(2 * Depth, ' ');
    switch (K) {
    case Kind::Null:
      Out += "null";
      break;
    case Kind::Bool:
      Out += Bool ? "true" : "false";
      break;
    case Kind::Number: {
      char Buf[64];
      if (std::isfinite(Num) && Num == std::floor(Num) && std::fabs(Num) < 1e15)
        std::snprintf(Buf, sizeof(Buf), "%.0f", Num);
      else if (std::isfinite(Num))
        std::snprintf(Buf, sizeof(Buf), "%.6g", Num);
      else
        std::snprintf(Buf, sizeof(Buf), "null");
      Out += Buf;
      break;
    }
    case Kind::String:
      Out += quote(Str);
      break;
    case Kind::Array:
      if (Items.empty()) {
        Out += "[]";
        break;
      }
      Out += "[\n";
      for (size_t I = 0; I < Items.size(); ++I) {
        Out += Pad;
        Items[I].write(Out, Depth + 1);
        Out += I + 1 < Items.size() ? ",\n" : "\n";
      }
      Out += End + "]";
      break;
    case Kind::Object:
      if (Members.empty()) {
        Out += "{}";
        break;
      }
      Out += "{\n";
      for (size_t I = 0; I < Members.size(); ++I) {
        Out += Pad + quote(Members[I].first) + ": ";
        Members[I].second.write(Out, Depth + 1);
        Out += I + 1 < Members.size() ? ",\n" : "\n";
      }
      Out += End + "}";
      break;
    }
  }

  Kind K = Kind::Null;
  bool Bool = false;
  double Num = 0;
  std::string Str;
  std::vector<Json> Items;
  std::vector<std::pair<std::string, Json>> Members;
};

} // namespace rv

#endif
