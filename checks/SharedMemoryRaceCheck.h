//===--- SharedMemoryRaceCheck.h - cuda-shared-memory-race ------*- C++ -*-===//
//
// Two accesses to one `__shared__` variable race when different threads of a
// block make them, at least one writes (atomics do not race with atomics),
// and no block barrier separates them: they lie in one barrier interval
// (analysis/memory/BarrierIntervals.h), also around a loop's back edge. A pair is
// reported only when the analysis shows two threads and a cell
// (analysis/memory/SharedAccesses.h), one warning per variable and interval, at the
// access that comes later, with the count of pairs. Threads of one warp only
// are cuda-implicit-warp-sync's concern, not this rule's. A store of a
// block-uniform value by every thread (`s = 0;`) is benign and not reported.
// A device function a kernel passes a `__shared__` array to is analyzed per
// call site, for the threads that make the call (call-site context).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_SHAREDMEMORYRACECHECK_H
#define CUDA_TIDY_CHECKS_SHAREDMEMORYRACECHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {
namespace analysis {
class SharedAccessAnalysis;
class FunctionDivergence;
} // namespace analysis

class SharedMemoryRaceCheck : public ClangTidyCheck {
public:
  SharedMemoryRaceCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Reports the races of one analysis: a kernel's own, or (with \p Call) a
  /// device function's for the threads that make that call in \p Kernel.
  void report(const analysis::SharedAccessAnalysis &Accesses,
              const analysis::FunctionDivergence &D,
              const analysis::FunctionDivergence &KernelD,
              const FunctionDecl *Kernel,
              const CallExpr *Call, ASTContext &Ctx);
  /// Locations already reported: a template is checked per instantiation.
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif
