//===--- MissingFenceCheck.h - cuda-missing-fence ---------------*- C++ -*-===//
//
// One block tells other blocks that its data is ready (a ticket, a flag, a
// relaxed atomic) with no device-scope fence between its global stores and
// the signal, or with no block barrier ordering other threads' stores before
// it; or a block that saw the signal reads the data with no fence (or
// volatile / __ldcg / acquiring load) after the branch. The facts are
// analysis/memory/CrossBlockSignals.h's.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_MISSINGFENCECHECK_H
#define CUDA_TIDY_CHECKS_MISSINGFENCECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

class MissingFenceCheck : public ClangTidyCheck {
public:
  MissingFenceCheck(StringRef Name, ClangTidyContext *Context)
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
