//===--- FactQueries.h - what an analysis may ask about the rest of a TU --===//
//
// An analysis of one function needs facts about others: the divergence of
// the function that calls it, the summary of a callee, what the
// translation unit's launches say about a kernel's block shape. It asks
// through this interface, never through whoever computes and caches those
// facts, so that the arrows between the folders of checks/analysis run one
// way: the caller caches the facts (the analysis manager composes the
// analyses and answers every question), the analyses take what they need as
// arguments. A unit test may answer with fixed facts.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CORE_FACTQUERIES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CORE_FACTQUERIES_H

#include "checks/analysis/core/Uniformity.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class CXXMethodDecl;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FunctionDivergence;
struct CallSummary;

/// What the translation unit shows about one extent of a kernel's blocks
/// (blockDim.x, .y or .z): launch/LaunchShape.h computes it.
struct BlockExtentFact {
  /// A power of two every launch's extent is a multiple of; 1 when unknown.
  uint64_t Factor = 1;
  /// The extent itself, when every launch gives the same constant, or the
  /// kernel stops unless it has it (`assert(blockDim.x == 4)`).
  std::optional<uint64_t> Exact;
};

/// What a call of a member function may do to the object it is called on
/// (divergence/ObjectWrites.h computes it).
enum class ObjectEffect {
  /// Reads it at most.
  None,
  /// Changes nothing, but returns a non-const reference into the object's
  /// storage (an accessor such as `int &m() { return idx[0]; }`): the call
  /// designates that storage, and what the caller does with the result
  /// (assigns to it, binds it to a writable reference) is a write of the
  /// object, judged where the result is used.
  ReturnsStorage,
  /// May change it.
  MayWrite,
};

class FactQueries {
public:
  virtual ~FactQueries();

  /// The divergence analysis of \p FD's definition, or nullptr when it has
  /// no body in this TU, is a dependent template, does not compile, or is
  /// being analysed right now (a recursive call).
  virtual const FunctionDivergence *divergence(const FunctionDecl *FD) = 0;
  /// The call summary of \p FD, or nullptr when it has no body in this TU.
  virtual const CallSummary *summary(const FunctionDecl *FD) = 0;
  /// The divergence analysis of \p FD as \p Call calls it: parameter I
  /// starts as \p ParameterValues[I] where that is set (a value of the
  /// caller with no inputs of its own, such as its thread index, whose
  /// arithmetic facts a symbol cannot carry), the others are inputs as
  /// usual. nullptr where divergence(FD) would be, or when not supported.
  virtual const FunctionDivergence *
  divergenceForCall(const FunctionDecl *FD, const CallExpr *Call,
                    llvm::ArrayRef<std::optional<Uniformity>> ParameterValues) {
    (void)FD;
    (void)Call;
    (void)ParameterValues;
    return nullptr;
  }
  /// blockDim.x is a multiple of 32 wherever \p FD runs.
  virtual bool rowsAreWarpAligned(const FunctionDecl *FD) = 0;
  /// log2 of the power-of-two factor kernel \p Kernel's parameter \p Param
  /// has at every launch the TU shows.
  virtual unsigned launchArgumentAlignLog2(const FunctionDecl *Kernel,
                                           unsigned Param) = 0;
  /// blockDim's component \p Dim (0 = x) of \p FD's blocks as the TU shows.
  virtual BlockExtentFact blockExtent(const FunctionDecl *FD,
                                      unsigned Dim) = 0;
  /// What a call of \p Method may do to the object it is called on
  /// (divergence/ObjectWrites.h).
  virtual ObjectEffect objectEffect(const CXXMethodDecl *Method) = 0;
  /// A call of \p Method may change its object by itself.
  bool mayWriteObject(const CXXMethodDecl *Method) {
    return objectEffect(Method) == ObjectEffect::MayWrite;
  }
  /// A call of \p Function may change the variable its caller binds to
  /// its reference parameter \p Index (divergence/ObjectWrites.h).
  virtual bool mayWriteReferenceParameter(const FunctionDecl *Function,
                                          unsigned Index) = 0;

protected:
  FactQueries() = default;
  FactQueries(const FactQueries &) = default;
  FactQueries &operator=(const FactQueries &) = default;
};

} // namespace clang::tidy::cuda::analysis

#endif
