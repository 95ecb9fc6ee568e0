//===--- GridSyncLaunchCheck.h - cuda-grid-sync-launch ----------*- C++ -*-===//
//
// A kernel that synchronizes the whole grid (grid_group::sync() and friends,
// directly or through any chain of calls) needs a cooperative launch; under
// <<<...>>> it launches with cudaSuccess and fails at run time. Flags such
// launches, cooperative launches whose grid is sized by the data rather than
// by an occupancy query, and the multi-device cooperative API CUDA 13
// removed. With ProjectIndexDir set (the standalone cuda-tidy does), it also
// records what another file needs to know (analysis/launch/LaunchIndex.h), in that
// folder only when it is trusted (the run's own, or CUDA_TIDY_INDEX_DIR's).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_GRIDSYNCLAUNCHCHECK_H
#define CUDA_TIDY_CHECKS_GRIDSYNCLAUNCHCHECK_H

#include "checks/UserFiles.h"
#include "checks/analysis/launch/LaunchIndex.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <memory>
#include <vector>

namespace clang::tidy::cuda {

namespace analysis {
class GridSyncReachability;
} // namespace analysis

class GridSyncLaunchCheck : public ClangTidyCheck {
public:
  GridSyncLaunchCheck(StringRef Name, ClangTidyContext *Context);
  ~GridSyncLaunchCheck() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

  /// What the preprocessor showed of the user's files: which were entered
  /// and which ranges #if skipped. Filled by the PP callbacks.
  struct PreprocessedFiles;

private:
  void checkLaunch(const CallExpr *Call, ASTContext &Context);
  void reportRemovedNames();
  void writeIndexRecord();
  const analysis::GridSyncReachability &reachability();

  const std::string ProjectIndexDir;
  /// ProjectIndexDir names a folder records may go to
  /// (analysis::isTrustedIndexFolder); an untrusted one is ignored.
  const bool IndexTrusted;

  ASTContext *Context = nullptr;
  std::unique_ptr<analysis::GridSyncReachability> Reachability;
  std::shared_ptr<PreprocessedFiles> Files;
  /// Kernels defined in this TU, for the index.
  std::vector<const FunctionDecl *> DefinedKernels;
  analysis::TranslationUnitRecord Record;
  llvm::DenseSet<std::pair<const FunctionDecl *, unsigned>> IndexedLaunches;
};

} // namespace clang::tidy::cuda

#endif
