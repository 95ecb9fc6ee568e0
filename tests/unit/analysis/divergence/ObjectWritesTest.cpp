//===--- ObjectWritesTest.cpp - which member functions change their object ===//

#include "checks/analysis/divergence/ObjectWrites.h"
#include "tests/unit/ParsedCuda.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::cuda::analysis {
namespace {

using namespace clang::ast_matchers;

/// methodObjectEffect for the method \p Name of class \p Class, with a
/// memo and recursion guard as the manager keeps them; operator() asks
/// whether the call may write its object by itself.
class Writes {
public:
  explicit Writes(ParsedCuda &P) : P(P) {}
  bool operator()(llvm::StringRef Class, llvm::StringRef Name) {
    return effect(Class, Name) == ObjectEffect::MayWrite;
  }
  ObjectEffect effect(llvm::StringRef Class, llvm::StringRef Name) {
    auto Nodes = match(
        cxxMethodDecl(hasName(Name), ofClass(hasName(Class))).bind("m"),
        P.context());
    for (const auto &N : Nodes)
      if (const auto *M = N.getNodeAs<CXXMethodDecl>("m"))
        if (!M->isDependentContext())
          return ask(M);
    ADD_FAILURE() << "no method " << Class.str() << "::" << Name.str();
    return ObjectEffect::MayWrite;
  }

private:
  ObjectEffect ask(const CXXMethodDecl *M) {
    M = M->getCanonicalDecl();
    auto [It, New] = Memo.try_emplace(M, std::nullopt);
    if (!New)
      return It->second.value_or(ObjectEffect::MayWrite);
    ObjectEffect E = methodObjectEffect(
        M, [this](const CXXMethodDecl *C) { return ask(C); });
    Memo[M] = E;
    return E;
  }
  ParsedCuda &P;
  llvm::DenseMap<const CXXMethodDecl *, std::optional<ObjectEffect>> Memo;
};

TEST(ObjectWrites, AccessorsThatReadOrWriteThroughPointersChangeNothing) {
  ParsedCuda P(R"cu(
struct Span {
  float *p; int n;
  __device__ float &operator[](int i) { return p[i]; }
  __device__ float *data() { return p; }
  __device__ int size() { return n; }
  __device__ void fill(float v) { for (int i = 0; i < n; ++i) p[i] = v; }
  __device__ int twice() { return size() * 2; }
};
struct Holder {
  Span s;
  __device__ float &first() { return s[0]; }
};
template <typename T> struct Tensor;
template <typename T> struct Sub {
  __device__ Sub(Tensor<T> &t, T *d) : t_(t), d_(d) {}
  __device__ T &operator[](int i) { return d_[i]; }
  Tensor<T> &t_; T *d_;
};
template <typename T> struct Tensor {
  T *data_; int size_[2]; int stride_[2];
  __device__ Sub<T> operator[](int i) { return Sub<T>(*this, data_ + i * stride_[0]); }
};
__global__ void use(Span a, Holder h, Tensor<float> t) {
  a[0] = 1; a.data(); a.size(); a.fill(2); a.twice(); h.first(); t[0][1] = 3;
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  Writes W(P);
  EXPECT_FALSE(W("Span", "operator[]"));
  EXPECT_FALSE(W("Span", "data"));
  EXPECT_FALSE(W("Span", "size"));
  EXPECT_FALSE(W("Span", "fill"));
  EXPECT_FALSE(W("Span", "twice"));
  // A by-value field's accessor that writes nothing of the field.
  EXPECT_FALSE(W("Holder", "first"));
  // A view made from *this whose constructor only binds it.
  EXPECT_FALSE(W("Tensor", "operator[]"));
}

TEST(ObjectWrites, StoresToTheObjectAndEscapesOfItsStorage) {
  ParsedCuda P(R"cu(
__device__ void setRef(int &r, int v) { r = v; }
__device__ void readRef(const int &r) {}
struct Box {
  int n; int a[4]; Box *self; int *p;
  __device__ void set(int v) { n = v; }
  __device__ void bump() { ++a[1]; }
  __device__ void viaThis(int v) { this->n = v; }
  __device__ void whole(const Box &o) { *this = o; }
  __device__ int &ref() { return n; }
  __device__ int *addr() { return &a[0]; }
  __device__ void handOver(int v) { setRef(n, v); }
  __device__ void readOnly() { readRef(n); }
  __device__ void keep() { self = this; }
  __device__ void pointer(int *q) { p = q; }
  __device__ void callsSet(int v) { set(v); }
  __device__ void recursive(int v) { if (v > 0) recursive(v - 1); }
  __device__ void recursiveWrite(int v) { if (v > 0) recursiveWrite(v - 1); else n = v; }
  __device__ void asmOut() { asm volatile("mov.u32 %0, 1;" : "=r"(n)); }
};
struct Outer {
  Box b; Box *pb;
  __device__ void inner(int v) { b.set(v); }
  __device__ void throughPointer(int v) { pb->set(v); }
};
__global__ void use(Box x, Outer o) {
  x.set(1); x.bump(); x.viaThis(1); x.whole(x); x.ref(); x.addr();
  x.handOver(1); x.readOnly(); x.keep(); x.pointer(nullptr); x.callsSet(1);
  x.recursive(1); x.recursiveWrite(1); x.asmOut(); o.inner(1); o.throughPointer(1);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  Writes W(P);
  EXPECT_TRUE(W("Box", "set"));
  EXPECT_TRUE(W("Box", "bump"));
  EXPECT_TRUE(W("Box", "viaThis"));
  EXPECT_TRUE(W("Box", "whole"));
  // Returning a reference into the object is no write by itself: the
  // caller's use of the result decides (see AccessorsReturningReferences).
  EXPECT_EQ(W.effect("Box", "ref"), ObjectEffect::ReturnsStorage);
  EXPECT_TRUE(W("Box", "addr"));
  EXPECT_TRUE(W("Box", "handOver"));
  EXPECT_FALSE(W("Box", "readOnly"));
  EXPECT_TRUE(W("Box", "keep"));
  EXPECT_TRUE(W("Box", "pointer")); // the pointer field itself is storage
  EXPECT_TRUE(W("Box", "callsSet"));
  // A recursive call is asked while its answer is pending: it may write.
  EXPECT_TRUE(W("Box", "recursive"));
  EXPECT_TRUE(W("Box", "recursiveWrite"));
  EXPECT_TRUE(W("Box", "asmOut"));
  EXPECT_TRUE(W("Outer", "inner"));
  // What a pointer field points to is not the object.
  EXPECT_FALSE(W("Outer", "throughPointer"));
}

TEST(ObjectWrites, WhatTheAnalysisCannotSeeMayWrite) {
  ParsedCuda P(R"cu(
struct Base { virtual __device__ void v() {} };
struct Opaque { int n; __device__ void external(); __device__ void v2(); };
struct Constant { mutable int cache; int n;
  __device__ int get() const { return n; }
  __device__ int memo() const { cache = n; return cache; } };
__global__ void use(Opaque o, Constant c) { o.external(); c.get(); c.memo(); }
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  Writes W(P);
  EXPECT_TRUE(W("Base", "v"));
  EXPECT_TRUE(W("Opaque", "external"));
  EXPECT_FALSE(W("Constant", "get"));
  EXPECT_TRUE(W("Constant", "memo"));
}

TEST(ObjectWrites, AccessorsReturningReferencesWriteWhereTheResultIsWritten) {
  ParsedCuda P(R"cu(
struct Coord {
  int idx[3];
  __device__ int &at(int d) { return idx[d]; }
  __device__ int const &at(int d) const { return idx[d]; }
  __device__ int &operator[](int d) { return idx[d]; }
};
struct Gemm : Coord {
  __device__ int &m() { return this->at(0); }
  __device__ int &n() { return at(1); }
  __device__ bool below(int k) { return m() < k; }
  __device__ void setM(int v) { m() = v; }
  __device__ void bumpN() { ++(*this)[1]; }
  __device__ void bindM(int v) { int &r = at(0); r = v; }
  __device__ Gemm &self() { return *this; }
  __device__ void viaSelf(int v) { self().at(2) = v; }
  __device__ int *pointer() { return &idx[0]; }
};
struct Holder {
  int *p; Coord c;
  __device__ int &outside() { return p[0]; }
  __device__ int &inner() { return c.at(0); }
  __device__ void setInner(int v) { c[2] = v; }
};
__global__ void use(Gemm g, Holder h) {
  g.m(); g.n(); g.below(1); g.setM(1); g.bumpN(); g.bindM(1); g.self();
  g.viaSelf(1); g.pointer(); h.outside(); h.inner(); h.setInner(1);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  Writes W(P);
  EXPECT_EQ(W.effect("Coord", "at"), ObjectEffect::ReturnsStorage);
  EXPECT_EQ(W.effect("Coord", "operator[]"), ObjectEffect::ReturnsStorage);
  // Through another accessor of the same object (a base class's).
  EXPECT_EQ(W.effect("Gemm", "m"), ObjectEffect::ReturnsStorage);
  EXPECT_EQ(W.effect("Gemm", "n"), ObjectEffect::ReturnsStorage);
  EXPECT_EQ(W.effect("Gemm", "self"), ObjectEffect::ReturnsStorage);
  EXPECT_EQ(W.effect("Gemm", "below"), ObjectEffect::None);
  // Writes through what an accessor returns are writes of the object.
  EXPECT_TRUE(W("Gemm", "setM"));
  EXPECT_TRUE(W("Gemm", "bumpN"));
  EXPECT_TRUE(W("Gemm", "bindM"));
  EXPECT_TRUE(W("Gemm", "viaSelf"));
  EXPECT_TRUE(W("Holder", "setInner"));
  // A pointer into the object is not followed.
  EXPECT_TRUE(W("Gemm", "pointer"));
  // What a pointer field points to is not the object.
  EXPECT_EQ(W.effect("Holder", "outside"), ObjectEffect::None);
  EXPECT_EQ(W.effect("Holder", "inner"), ObjectEffect::ReturnsStorage);
}

} // namespace
} // namespace clang::tidy::cuda::analysis

namespace clang::tidy::cuda::analysis {
namespace {

/// functionMayWriteReferenceParameter for parameter \p Index of the
/// function \p Name, memoised with the manager's recursion rule.
class ParamWrites {
public:
  explicit ParamWrites(ParsedCuda &P) : P(P) {}
  bool operator()(llvm::StringRef Name, unsigned Index) {
    auto Nodes = match(functionDecl(hasName(Name), isDefinition()).bind("f"),
                       P.context());
    for (const auto &N : Nodes)
      if (const auto *F = N.getNodeAs<FunctionDecl>("f"))
        if (!F->isDependentContext())
          return ask(F, Index);
    ADD_FAILURE() << "no function " << Name.str();
    return true;
  }

private:
  bool ask(const FunctionDecl *F, unsigned Index) {
    F = F->getCanonicalDecl();
    auto [It, New] = Memo.try_emplace({F, Index}, std::nullopt);
    if (!New)
      return It->second.value_or(true);
    bool W = functionMayWriteReferenceParameter(
        F, Index,
        [](const CXXMethodDecl *M) {
          return M->isConst() ? ObjectEffect::None : ObjectEffect::MayWrite;
        },
        [this](const FunctionDecl *G, unsigned I) { return ask(G, I); });
    Memo[{F, Index}] = W;
    return W;
  }
  ParsedCuda &P;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>,
                 std::optional<bool>>
      Memo;
};

TEST(ObjectWrites, LocalPointersReadOnlyAsPointersToConstWriteNothing) {
  // A packed accessor's row view is made from pointers into the accessor's
  // own size and stride arrays; held in `int *` locals but only handed to
  // `const int *` parameters, they cannot be written through.
  ParsedCuda P(R"cu(
struct View {
  __device__ View(float *d, const int *s) : d(d), s(s) {}
  float *d; const int *s;
};
struct Packed {
  float *data; int sizes[2]; int strides[2];
  __device__ View row(int i) {
    int *rest = this->sizes + 1;
    return View(data + strides[0] * i, rest);
  }
  __device__ View reshaped(int i) {
    int *rest = sizes + 1;
    rest[0] = 1;
    return View(data + i, rest);
  }
  __device__ View moved(int i) {
    int *rest = sizes;
    ++rest;
    return View(data + i, rest);
  }
  __device__ int *leak() {
    int *rest = sizes + 1;
    return rest;
  }
};
__global__ void use(Packed p) { p.row(0); p.reshaped(0); p.moved(0); p.leak(); }
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  Writes W(P);
  EXPECT_FALSE(W("Packed", "row"));
  EXPECT_TRUE(W("Packed", "reshaped")) << "stores through the local";
  EXPECT_TRUE(W("Packed", "moved")) << "the local itself changes";
  EXPECT_TRUE(W("Packed", "leak")) << "returned as a writable pointer";
}

TEST(ReferenceParameterWrites, ReadersAndStoresThroughPointersWriteNothing) {
  ParsedCuda P(R"cu(
struct Pool { unsigned *slots; };
struct Pair { int a, b; };
__device__ unsigned *at(Pool *&pool, unsigned &index) {
  return pool->slots + index * 32;
}
__device__ void store(Pool *&pool, unsigned &index, unsigned v) {
  at(pool, index)[threadIdx.x % 32] = v;
  pool->slots[index] = v;
}
__device__ void assign(int &x, int v) { x = v; }
__device__ void increment(int &x) { ++x; }
__device__ void field(Pair &p) { p.b = 1; }
__device__ void forward(int &x) { assign(x, 2); }
__device__ void forwardReader(unsigned &i, Pool *&pool) { at(pool, i); }
__device__ int *address(int &x) { return &x; }
__device__ void alias(int &x) { int &y = x; y = 3; }
__device__ void captured(int &x) { auto f = [&] { x = 4; }; f(); }
__device__ void array(int (&a)[4]) { a[1] = 5; }
__device__ void method(Pair &p, Pool &q) { (void)p; (void)q; }
__device__ void recursive(int &x, int n) { if (n) recursive(x, n - 1); }
__global__ void use(Pool *pool, unsigned index, int x, Pair p, int (&a)[4]) {
  store(pool, index, 1); assign(x, 1); increment(x); field(p); forward(x);
  forwardReader(index, pool); address(x); alias(x); captured(x); array(a);
  Pool q; method(p, q); recursive(x, 3);
}
)cu");
  ASSERT_TRUE(P.parsedCleanly());
  ParamWrites W(P);
  EXPECT_FALSE(W("at", 0));
  EXPECT_FALSE(W("at", 1));
  EXPECT_FALSE(W("store", 0)) << "stores through the pointer, not into it";
  EXPECT_FALSE(W("store", 1));
  EXPECT_TRUE(W("assign", 0));
  EXPECT_TRUE(W("increment", 0));
  EXPECT_TRUE(W("field", 0));
  EXPECT_TRUE(W("forward", 0)) << "handed on to a writer";
  EXPECT_FALSE(W("forwardReader", 0)) << "handed on to a reader";
  EXPECT_FALSE(W("forwardReader", 1));
  EXPECT_TRUE(W("address", 0));
  EXPECT_TRUE(W("alias", 0));
  EXPECT_TRUE(W("captured", 0));
  EXPECT_TRUE(W("array", 0));
  EXPECT_FALSE(W("method", 0));
  EXPECT_TRUE(W("recursive", 0)) << "recursion is taken as a write";
}

} // namespace
} // namespace clang::tidy::cuda::analysis
