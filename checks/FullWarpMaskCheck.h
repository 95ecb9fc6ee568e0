//===--- FullWarpMaskCheck.h - cuda-full-warp-mask --------------*- C++ -*-===//
//
// Flags a hardcoded mask naming all 32 lanes (0xffffffff and every other
// spelling of it) in a warp-synchronous intrinsic. The CUDA Programming
// Guide: each thread named in the mask must execute the same intrinsic with
// the same mask, or the result is undefined. Under control flow that
// diverges within the warp this is a definite bug (the lanes that skipped the
// branch are named in the mask). Elsewhere the mask only assumes the whole
// warp is converged, which is often true: that advisory is a check of its
// own, cuda-prefer-tile-collectives (PreferTileCollectivesCheck.h), off in
// the default check set, built on this class.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_FULLWARPMASKCHECK_H
#define CUDA_TIDY_CHECKS_FULLWARPMASKCHECK_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda {

class FullWarpMaskCheck : public ClangTidyCheck {
public:
  FullWarpMaskCheck(StringRef Name, ClangTidyContext *Context)
      : FullWarpMaskCheck(Name, Context, Report::Hazards) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

  /// A warp intrinsic called with a hardcoded full mask.
  struct MaskSite {
    const CallExpr *Call = nullptr;
    const FunctionDecl *Function = nullptr;
    /// The intrinsic's name ("__shfl_down_sync").
    std::string Intrinsic;
    /// The mask is the default argument (`__syncwarp()`).
    bool DefaultMask = false;
    /// The variable the mask is read from, when it is one.
    const VarDecl *Variable = nullptr;
    /// The site diverges within the warp in its own function.
    bool DivergesOnItsOwn = false;
    /// The mask is this parameter of Function, passed on unchanged: full
    /// only where a call binds it to a full mask (-1: not a parameter).
    int MaskParam = -1;
    /// Where a call made the mask full: the argument it passes, or the
    /// parameter's default it leaves (BoundDefault). Only for the call that
    /// binds the mask parameter of Function itself.
    const Expr *BoundMask = nullptr;
    bool BoundDefault = false;
    /// The function whose parameter MaskParam is (Function, or a caller
    /// that passes its own parameter on).
    const FunctionDecl *MaskOwner = nullptr;
    /// For a bound mask: the parameter of MaskOwner it was bound to.
    int BoundParam = -1;
  };

protected:
  /// What a check built on this class reports: the hazards (a full mask
  /// under lane-divergent control flow, here or through a call), or the
  /// advisory for full masks in converged code.
  enum class Report { Hazards, ConvergedAdvisory };
  FullWarpMaskCheck(StringRef Name, ClangTidyContext *Context, Report What);

private:
  /// A finding waiting for the end of the TU: a template is analysed once
  /// per instantiation, and a divergent verdict from one replaces a
  /// convergent one from another at the same place.
  struct Pending {
    enum Kind { Convergent, Divergent, ViaCall } K = Convergent;
    SourceLocation Loc;
    MaskSite Site;
    std::optional<analysis::DivergenceReason> Reason;
    /// ViaCall: the call in the caller, and the argument that carries the
    /// non-uniform value into the callee (when known).
    const CallExpr *Call = nullptr;
    const Expr *Argument = nullptr;
    /// ViaCall: the divergence is inside the callee, on a value this call
    /// passes (Reason describes the callee's branch).
    bool ThroughArgument = false;
    /// Divergent only through a fact the TU does not show (the potential
    /// tier): an unknown block width, or a launch wider than an exit's bound.
    bool Potential = false;
    /// For the potential tier: what the message adds, naming the fact the
    /// tool does not see.
    std::string PotentialFact;
    unsigned Order = 0;
  };

  /// The full-mask sites of \p FD and of the functions it calls (a few
  /// levels deep), memoised for the TU.
  const std::vector<MaskSite> &sitesReachedFrom(const FunctionDecl *FD,
                                                unsigned Depth);
  void record(Pending P);
  void emit(const Pending &P);

  const Report What;
  /// Also report the potential tier (option ReportPotential).
  const bool ReportPotential;
  /// blockDim.x is a multiple of 32: threadIdx.y and .z are warp-uniform.
  const bool AssumeBlockDimXMultipleOf32;
  /// One finding per cause (FindingsByCause.h; option GroupByCause, on by
  /// default).
  const bool GroupByCause;

  ASTContext *Ctx = nullptr;
  llvm::DenseMap<unsigned, Pending> Findings;
  unsigned NextOrder = 0;
  llvm::DenseMap<const FunctionDecl *, std::vector<MaskSite>> ReachedSites;
};

} // namespace clang::tidy::cuda

#endif
