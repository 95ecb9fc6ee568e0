//===--- WarpMaskMismatchCheck.h - cuda-warp-mask-mismatch ------*- C++ -*-===//
//
// Compares the lane mask of each warp intrinsic (`__shfl*_sync`, votes,
// `__match_*_sync`, `__reduce_*_sync`, `__syncwarp`) with the lanes that can
// reach the call (analysis/lanes/WarpLaneSets.h). The Programming Guide: each
// calling thread must have its own bit set in the mask, and every
// non-exited thread the mask names must execute the same intrinsic with the
// same mask. Reported, when the mask is known (a constant, a macro, a
// default argument, a template argument, a local with one value, a
// function of the lane, a `__ballot_sync` of a lane predicate):
//  - lanes that reach the call with a mask that leaves them out (on an H200
//    an illegal instruction);
//  - lanes the mask names that cannot reach the call (exited lanes excused
//    for votes, matches and __syncwarp, as in cuda-full-warp-mask);
//  - `__activemask()` as the mask of a shuffle (a reduction, scan or
//    broadcast needs a fixed set of lanes, not whichever are converged),
//    unless the mask also feeds __ffs/__popc (leader election: "whoever is
//    here" is meant);
//  - a shuffle width that is not a power of two from 1 to 32, or one that
//    splits the mask: a segment named in part while the offsets change,
//    or a caller that reads a lane the mask leaves out.
// Device functions are also judged as each call makes them (call-site
// context: the caller's lanes and arguments), reported at the call with a
// note at the intrinsic, unless the function alone is already wrong.
// Full masks are cuda-full-warp-mask's: they are not reported here, so a
// site gets one finding.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_WARPMASKMISMATCHCHECK_H
#define CUDA_TIDY_CHECKS_WARPMASKMISMATCHCHECK_H

#include "checks/analysis/lanes/WarpLaneSets.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>

namespace clang::tidy::cuda {

namespace analysis {
class AnalysisManager;
} // namespace analysis

class WarpMaskMismatchCheck : public ClangTidyCheck {
public:
  WarpMaskMismatchCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  /// Report `__activemask()` masks of shuffles (option ReportActiveMask).
  const bool ReportActiveMask;
  /// blockDim.x is a multiple of 32 (the global option, as read by
  /// cuda-full-warp-mask).
  const bool AssumeBlockDimXMultipleOf32;
  /// Sites already reported in this TU (a template's instantiations share
  /// them).
  llvm::DenseSet<unsigned> Reported;

  /// Whether \p FD calls a masked warp intrinsic, or a function that does
  /// within the context depth left after \p Depth calls.
  bool reachesIntrinsics(const FunctionDecl *FD, unsigned Depth,
                         analysis::AnalysisManager &Manager);
  /// \p FD walked alone, and \p Callee walked as \p Call (in \p Caller,
  /// walked alone) makes it; kept for the TU.
  const analysis::WarpLaneSets &ownWalk(const FunctionDecl *FD,
                                        analysis::AnalysisManager &Manager);
  const analysis::WarpLaneSets &callWalk(const CallExpr *Call,
                                         const FunctionDecl *Callee,
                                         const FunctionDecl *Caller,
                                         analysis::AnalysisManager &Manager);
  /// Reports, at \p Outer (a call of the function being checked), the
  /// first intrinsic of \p Callee that \p Call (in \p Caller) makes wrong
  /// and that neither \p Callee alone nor a shorter chain of calls does;
  /// follows \p Callee's calls. True when it reported.
  bool reportThroughCall(const CallExpr *Outer, const CallExpr *Call,
                         const FunctionDecl *Caller,
                         const FunctionDecl *Callee, unsigned Depth,
                         bool Aligned, analysis::AnalysisManager &Manager);

  llvm::DenseMap<const FunctionDecl *,
                 std::unique_ptr<analysis::WarpLaneSets>>
      OwnWalks;
  llvm::DenseMap<const CallExpr *, std::unique_ptr<analysis::WarpLaneSets>>
      CallWalks;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, bool> HasSites;
  /// While a chain of calls is followed: the walk of the function that
  /// makes the call being followed.
  const analysis::WarpLaneSets *ChainCaller = nullptr;
};

} // namespace clang::tidy::cuda

#endif
