//===--- ImplicitWarpSyncCheck.h - cuda-implicit-warp-sync ------*- C++ -*-===//
//
// Lanes of one warp that talk through `__shared__` memory with no
// `__syncwarp()` between the store and the other lane's load: the code
// written for lockstep warps (the `volatile` last-warp reduction under
// `if (tid < 32)`, a per-warp scratch row read at `lane ^ 1`). Since Volta
// the lanes of a warp are scheduled independently, and nothing orders one
// lane's store before another lane's load without a warp barrier.
//
// The facts are cuda-shared-memory-race's (analysis/memory/SharedAccesses.h) at warp
// barrier scope: `__syncwarp()`, a group's `sync()` and block barriers end an
// interval. A read is reported when it can see another lane's write of one
// interval and every pair of threads the two accesses conflict through is in
// one warp (pairs across warps are cuda-shared-memory-race's). Device
// functions a kernel passes an array to are analyzed per call site, for the
// threads that make the call (`if (tid < 32) warpReduce(sdata, tid);`).
// One warning per array and interval, at the first racing read, with the
// count of the later ones; a fix-it inserts `__syncwarp();` before each
// racing read's statement and rewrites a racing `x op= y` into its register
// form.
//
// The same question for global memory (a per-warp scratch buffer passed as a
// kernel parameter, written at `base + lane` and read at `base + (lane ^ 1)`)
// and for the tile a warp's `wmma::store_matrix_sync` writes, read by the
// warp's lanes with plain loads (analysis/memory/GlobalAccesses.h): one warning per
// buffer and interval at the first racing read, a note at the write or the
// store, and a `__syncwarp();` fix-it before each racing read's statement
// when the write is in an earlier statement of the same block.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_IMPLICITWARPSYNCCHECK_H
#define CUDA_TIDY_CHECKS_IMPLICITWARPSYNCCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::cuda {
namespace analysis {
class SharedAccessAnalysis;
class FunctionDivergence;
class GlobalAccessAnalysis;
} // namespace analysis

class ImplicitWarpSyncCheck : public ClangTidyCheck {
public:
  ImplicitWarpSyncCheck(StringRef Name, ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context) {}
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const analysis::SharedAccessAnalysis &Accesses,
              const analysis::FunctionDivergence &D, const CallExpr *Call,
              ASTContext &Ctx);
  /// Global-memory scratch exchanges and reads of wmma tiles
  /// (GlobalAccesses.h).
  void reportMemory(const analysis::GlobalAccessAnalysis &Accesses,
                    const analysis::FunctionDivergence &D, const CallExpr *Call,
                    ASTContext &Ctx);
  /// Locations already reported: a template per instantiation, a device
  /// function per call site.
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif
