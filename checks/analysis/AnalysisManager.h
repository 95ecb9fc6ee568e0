//===--- AnalysisManager.h - per-TU cache of divergence results -----------===//
//
// Several checks ask about the same functions of a translation unit; the
// manager computes each function's divergence analysis and call summary once
// and hands out the cached results.
//
// Lifetime: a manager belongs to one ASTContext. forContext() registers it
// with the context, which deletes it when the TU's AST goes away, so no
// result outlives its TU. Checks call forContext() from check() each time
// instead of keeping the pointer.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_ANALYSISMANAGER_H
#define CUDA_TIDY_CHECKS_ANALYSIS_ANALYSISMANAGER_H

#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/launch/LaunchShape.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>
#include <memory>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class SharedAccessAnalysis;

/// A function whose __shared__ accesses a kernel's rules relate to one
/// another: the kernel itself, or a device function for one call that passes
/// it a __shared__ array (call-site context, SharedAccesses.h).
struct SharedAccessSite {
  const SharedAccessAnalysis *Accesses = nullptr;
  /// The analyzed function's divergence.
  const FunctionDivergence *Divergence = nullptr;
  /// The call, in the kernel; null for the kernel's own accesses.
  const CallExpr *Call = nullptr;
};

class AnalysisManager final : public FactQueries {
public:
  /// A manager owned by the caller (unit tests).
  AnalysisManager(ASTContext &Ctx, const AnalysisOptions &Options);
  ~AnalysisManager() override;
  AnalysisManager(const AnalysisManager &) = delete;
  AnalysisManager &operator=(const AnalysisManager &) = delete;

  /// The manager of \p Ctx for \p Options, created on first use and
  /// destroyed with \p Ctx.
  static AnalysisManager &forContext(ASTContext &Ctx,
                                     const AnalysisOptions &Options);

  ASTContext &context() const { return Ctx; }
  const AnalysisOptions &options() const { return Options; }

  /// The analysis of \p FD's definition, or nullptr when it has no body in
  /// this TU, is a dependent template, or is being analysed right now (a
  /// recursive call).
  const FunctionDivergence *divergence(const FunctionDecl *FD) override;

  /// The summary of \p FD, or nullptr when it has no body in this TU.
  /// Recursion gets a conservative summary.
  const CallSummary *summary(const FunctionDecl *FD) override;
  /// Cached per call; the same guards as divergence().
  const FunctionDivergence *divergenceForCall(
      const FunctionDecl *FD, const CallExpr *Call,
      llvm::ArrayRef<std::optional<Uniformity>> ParameterValues) override;
  /// blockDim.x is a multiple of 32 wherever \p FD runs: the option says so
  /// for every kernel, or the TU's launches and checks do for this one
  /// (LaunchShape.h).
  bool rowsAreWarpAligned(const FunctionDecl *FD) override;
  /// Nothing says how wide \p FD's blocks are: neither the option nor a
  /// launch or check the TU shows (aligned or not).
  bool rowWidthUnknown(const FunctionDecl *FD);
  /// log2 of the power-of-two factor kernel \p Kernel's parameter \p Param
  /// has at every launch the TU shows (LaunchShapes::argumentFactor).
  unsigned launchArgumentAlignLog2(const FunctionDecl *Kernel,
                                   unsigned Param) override;
  /// blockDim's component \p Dim (0 = x) of kernel \p FD's blocks as the TU
  /// shows it (LaunchShapes::blockExtent); the option's whole-warp rows make
  /// x a multiple of 32.
  BlockExtentFact blockExtent(const FunctionDecl *FD, unsigned Dim) override;
  /// Cached per method; a method asked about while its own answer is being
  /// computed (recursion) may write.
  ObjectEffect objectEffect(const CXXMethodDecl *Method) override;
  /// Cached per function and parameter, with the same recursion rule.
  bool mayWriteReferenceParameter(const FunctionDecl *Function,
                                  unsigned Index) override;
  /// \p S diverges within \p Within in \p FD only because threadIdx.y/z
  /// may split a warp: with whole-warp rows it would not, and the TU does
  /// not show \p FD's row width. Such a finding rests on a fact the tool
  /// cannot see (the potential tier).
  bool divergesOnlyForUnknownRowWidth(const FunctionDecl *FD, const Stmt *S,
                                      Level Within);
  /// \p S in \p FD is reached under divergence at \p Within only because
  /// a function \p FD calls does not compile (its analysis is left out, so
  /// it may have stored anything its operands carry into what it got by
  /// reference): asked again with such callees storing nothing, \p S is
  /// not. That callee (the first \p FD calls), or nullptr. Such a finding
  /// rests on a function the tool could not read (the potential tier).
  const FunctionDecl *divergesOnlyThroughUnanalyzedCallee(const FunctionDecl *FD,
                                                          const Stmt *S,
                                                          Level Within);

  /// The kernel's own accesses first, then one site per call
  /// (sharedArrayCalls) whose callee is analyzed, at barrier scope
  /// \p BarrierScope (Block: cuda-shared-memory-race; Warp:
  /// cuda-implicit-warp-sync). Computed once per kernel and scope, and the
  /// two scopes share each access's per-thread evaluation. Empty when
  /// \p Kernel is not a kernel definition the divergence analysis analyzed.
  llvm::ArrayRef<SharedAccessSite> sharedAccessSites(const FunctionDecl *Kernel,
                                                     Scope BarrierScope);

private:
  /// Calls nested deeper than this are treated like calls without a body
  /// (their results are not cached, so a later shallower query is exact).
  static constexpr unsigned MaxDepth = 32;

  ASTContext &Ctx;
  AnalysisOptions Options;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionDivergence>>
      Analyses;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<CallSummary>> Summaries;
  /// FD's definition when it can be analysed (a body, not a dependent
  /// template, compiles), else nullptr.
  const FunctionDecl *analysableDefinition(const FunctionDecl *FD);
  /// A new analysis of \p Definition, or nullptr while one of it is in
  /// progress (recursion) or calls nest deeper than MaxDepth.
  std::unique_ptr<FunctionDivergence>
  analyse(const FunctionDecl *Definition,
          llvm::ArrayRef<std::optional<Uniformity>> ParameterValues);
  /// divergenceForCall's analyses, by call.
  llvm::DenseMap<const CallExpr *, std::unique_ptr<FunctionDivergence>>
      CallAnalyses;
  /// Stand-ins handed to recursive calls while the real summary is built.
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<CallSummary>>
      RecursionSummaries;
  llvm::SmallPtrSet<const FunctionDecl *, 8> InProgress;
  /// Whether each definition asked about compiles (CompileErrors.h): one
  /// that does not gets no analysis, so no check reports in it.
  llvm::DenseMap<const FunctionDecl *, bool> Compiles;
  bool definitionCompiles(const FunctionDecl *Definition);
  unsigned Depth = 0;
  /// objectEffect's answers; nullopt while one is being computed.
  llvm::DenseMap<const CXXMethodDecl *, std::optional<ObjectEffect>>
      ObjectEffects;
  /// mayWriteReferenceParameter's answers, by (function, parameter index).
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, std::optional<bool>>
      ParameterWrites;
  LaunchShapes Shapes;
  struct SharedSites {
    std::vector<std::unique_ptr<SharedAccessAnalysis>> Analyses;
    std::vector<SharedAccessSite> Sites;
  };
  std::map<std::pair<const FunctionDecl *, Scope>, SharedSites> SharedSiteCache;
};

} // namespace clang::tidy::cuda::analysis

#endif
