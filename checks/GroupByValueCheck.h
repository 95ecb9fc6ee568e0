//===--- GroupByValueCheck.h - cuda-group-by-value --------------*- C++ -*-===//
//
// Flags cooperative-groups handles taken by value as parameters. The CUDA
// Programming Guide: only pass group handles by reference.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_GROUPBYVALUECHECK_H
#define CUDA_TIDY_CHECKS_GROUPBYVALUECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

/// Finds parameters of functions, function-template instantiations and
/// lambdas whose type is a cooperative-groups handle, and offers to take them
/// by const reference in every redeclaration.
class GroupByValueCheck : public ClangTidyCheck {
public:
  GroupByValueCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// (canonical function, parameter index) pairs already reported: a
  /// function is seen once per redeclaration and per instantiation.
  llvm::DenseSet<std::pair<const Decl *, unsigned>> Reported;
};

} // namespace clang::tidy::cuda

#endif
