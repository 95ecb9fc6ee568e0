//===--- ClusterExitSyncCheck.h - cuda-cluster-exit-sync --------*- C++ -*-===//
//
// The last access to another block's shared memory (distributed shared
// memory, through cluster.map_shared_rank and its kin) on a path to the
// kernel's exit with no cluster barrier after it: the block whose shared
// memory it is may have exited, and its shared memory with it. The note says
// where the path leaves. The facts are analysis/protocols/ClusterExits.h's; a cluster
// barrier under divergent control flow is cuda-divergent-barrier's finding.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_CLUSTEREXITSYNCCHECK_H
#define CUDA_TIDY_CHECKS_CLUSTEREXITSYNCCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

class ClusterExitSyncCheck : public ClangTidyCheck {
public:
  ClusterExitSyncCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Locations already reported: a template is checked per instantiation.
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif
