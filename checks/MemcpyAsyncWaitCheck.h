//===--- MemcpyAsyncWaitCheck.h - cuda-memcpy-async-wait --------*- C++ -*-===//
//
// An access to the destination of an asynchronous copy (cg::memcpy_async,
// cuda::memcpy_async, __pipeline_memcpy_async) made while the copy may still
// be in flight: no wait completes it on some path from the copy to the
// access, or a multi-stage wait left its stage in flight, or a thread-scope
// wait completed only this thread's copies and no block barrier followed
// before a read of another thread's cell. Also a cuda::aligned_size_t<N>
// promise on a pointer provably not N-byte aligned. The facts are
// analysis/protocols/AsyncCopies.h's; this check reports them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_MEMCPYASYNCWAITCHECK_H
#define CUDA_TIDY_CHECKS_MEMCPYASYNCWAITCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {

class MemcpyAsyncWaitCheck : public ClangTidyCheck {
public:
  MemcpyAsyncWaitCheck(StringRef Name, ClangTidyContext *Context)
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
