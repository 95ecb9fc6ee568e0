//===--- ObjectWrites.h - does a member function change its own object? ---===//
//
// A call of a non-const member function is, to the caller's analysis, a
// possible write of the object: the object then takes the join of what the
// call depends on, and a call under a thread-dependent branch makes the
// object thread-dependent after the branch (sync divergence). Many non-const
// members change nothing of their object: the accessors of view types
// (`Tensor::operator[]` returning a view of the data it points to, a
// `span`-like `operator[]` returning `ptr_[i]`), members that store only
// through pointers the object holds, members that are non-const by
// oversight. Treating their calls as writes makes every later read of the
// object (its sizes, its strides) as divergent as the index of the first
// access: a whole class of false positives (faiss's `Tensor`, NCCL's
// session objects).
//
// A member function may write its object when its body, or a member
// function it calls on the same object, does one of:
//  - assigns (=, op=, ++, --) to storage of the object: a field, an element
//    of an array field, a field of a field, `*this`;
//  - calls a non-const member function of a field held by value (or of the
//    object) that may write its own object;
//  - hands the object's storage to a call that may write it: `this`, `*this`
//    or a field (not the value of a pointer field) bound to a non-const
//    reference or pointer parameter, a constructor, or a call the analysis
//    cannot see into;
//  - lets the object's storage escape: returns a pointer to a field or to
//    `this`, or takes the address of a field (a later store through the
//    address may write);
//  - is virtual, has no body in this translation unit, or is a
//    constructor, destructor or assignment operator.
// What a pointer or reference field points to is not the object: a store
// through `ptr_[i]` or `ref_.x` leaves the object as it was.
//
// A member function that does none of that but returns a non-const
// reference into its object (`Index &m() { return idx[0]; }`, a
// std::array-like `operator[]`, `return *this`) is an accessor: the call
// itself changes nothing, and its result designates the object's storage.
// `c.m() = v`, `++c[i]`, `int &r = c.m()` are then writes of `c`, seen
// where the result is used (storageAccessorObject), while `c.m() < n`
// only reads. Counting every call of such an accessor as a write made a
// coordinate read under a warp-dependent branch (cutlass's `GemmCoord::m()`
// has a non-const overload) a write under that branch, and the coordinate
// thread-dependent after it.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_OBJECTWRITES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCE_OBJECTWRITES_H

#include "checks/analysis/core/FactQueries.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class CallExpr;
class CXXMethodDecl;
class Expr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// The question methodObjectEffect asks of the member functions a method
/// calls on its own object or its fields.
using ObjectEffectQuery =
    llvm::function_ref<ObjectEffect(const CXXMethodDecl *)>;

/// What a call of \p Method may do to the object it is called on (see
/// above). \p Callee answers the same question for the member functions
/// \p Method calls on its own object or its fields (the caller caches the
/// answers with a recursion guard; the analysis manager composes analyses).
ObjectEffect methodObjectEffect(const CXXMethodDecl *Method,
                                ObjectEffectQuery Callee);

/// The object whose storage \p Call designates: the object argument of a
/// call of an accessor (ObjectEffect::ReturnsStorage) returning a non-const
/// lvalue reference, as written (`c` of `c.m()`, `this` of `this->at(0)`,
/// `v` of `v[i]`); nullptr for any other call.
const Expr *storageAccessorObject(const CallExpr *Call,
                                  ObjectEffectQuery Effect);

/// Whether a function may change what its parameter of the given index
/// refers to (the caller caches it with a recursion guard; the analysis
/// manager composes analyses).
using ParameterWriteQuery =
    llvm::function_ref<bool(const FunctionDecl *, unsigned)>;

/// Whether a call of \p Function may change the variable the caller binds
/// to its reference parameter \p Index: the rules above, with the
/// parameter's referee in place of the object (`p = v`, `p.f = v`, `++p`,
/// `&p`, `p` bound to a writable reference or pointer, a writing member
/// function called on it, `p` captured by reference). A store through a
/// reference to a pointer (`p[i] = v`, `p->f = v`) writes what the pointer
/// points to, not the caller's pointer. \p MethodCallee answers for member
/// functions called on the parameter, \p ParamCallee for the parameters of
/// functions it is passed on to. A parameter that is not a reference: true.
bool functionMayWriteReferenceParameter(const FunctionDecl *Function,
                                        unsigned Index,
                                        ObjectEffectQuery MethodCallee,
                                        ParameterWriteQuery ParamCallee);

} // namespace clang::tidy::cuda::analysis

#endif
