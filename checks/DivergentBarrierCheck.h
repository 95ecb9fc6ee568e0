//===--- DivergentBarrierCheck.h - cuda-divergent-barrier -------*- C++ -*-===//
//
// Flags block-, cluster- and grid-scope barriers reached under control flow
// that diverges at the barrier's scope, directly or through a call to a
// function that executes such a barrier. The CUDA Programming Guide:
// __syncthreads() is allowed in conditional code only if the condition
// evaluates identically across the entire thread block.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DIVERGENTBARRIERCHECK_H
#define CUDA_TIDY_CHECKS_DIVERGENTBARRIERCHECK_H

#include "checks/FindingsByCause.h"
#include "checks/UserFiles.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/core/Uniformity.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

class DivergentBarrierCheck : public ClangTidyCheck {
public:
  DivergentBarrierCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override {
    Reported.clear();
    Portability.reset();
  }

private:
  /// The notes that explain a reason: the condition, the jump that skips
  /// the barrier, and where the non-uniform value came from.
  void explainReason(const analysis::DivergenceReason &Reason,
                     analysis::Scope Within, const ASTContext &Ctx);
  /// The same, for a group named \p Within ("tile of 16 threads") and a
  /// call named \p Skipped in the jump's note ("the collective").
  void explainReason(const analysis::DivergenceReason &Reason,
                     llvm::StringRef Within, llvm::StringRef Skipped,
                     const ASTContext &Ctx);
  /// Tile- and block-scope collectives other than barriers (tile.sync(),
  /// tile.shfl*(), cg::reduce(tile, ...), ...): reported when reached under
  /// control flow that diverges within their group. True if \p Call is one.
  bool checkGroupCollective(const CallExpr *Call,
                            const analysis::FunctionDivergence &D,
                            const ASTContext &Ctx);

  /// Whether this translation unit is also built for HIP, and where it
  /// shows it (a directive testing a HIP platform macro, an include of a
  /// hip/ header): computed on first need from the user's files.
  struct HipPortability {
    bool Portable = false;
    SourceLocation Where; ///< Invalid when the option says so.
    std::string What;
  };
  const HipPortability &portability(const SourceManager &SM);

  /// blockDim.x is a multiple of 32: threadIdx.y and .z are warp-uniform.
  const bool AssumeBlockDimXMultipleOf32;
  /// Platforms: "auto" (HIP when a file shows it), "cuda", "hip",
  /// "cuda,hip" (also the project's platforms: in .cuda-tidy.yaml).
  const std::string Platforms;
  std::shared_ptr<UserFiles> Entered = std::make_shared<UserFiles>();
  std::optional<HipPortability> Portability;
  /// Also report barriers that only threads returned from the kernel miss,
  /// where no surviving thread is seen reading what they should have
  /// written (the potential tier; off by default).
  const bool ReportPotential;
  /// One finding per cause (FindingsByCause.h): the first barrier a
  /// divergent branch reaches stands for the others (on by default).
  const bool GroupByCause;
  /// Locations already reported: a template is checked once per
  /// instantiation, a barrier is reported once.
  llvm::DenseSet<unsigned> Reported;
  /// The findings of the function being checked, until they are grouped.
  FindingsByCause Causes;
};

} // namespace clang::tidy::cuda

#endif
