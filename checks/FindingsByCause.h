//===--- FindingsByCause.h - one finding per divergent cause ----*- C++ -*-===//
//
// One divergent condition can put many synchronizing calls under it: a
// guard on a rounded bound before a reduction unrolled into a dozen
// shuffles, an early return before every barrier of a long kernel. A
// reviewer needs one finding per cause, not one per call (issue 36, §3: one
// file drew 584 warnings from a few guards). A check collects the findings
// of one function with the cause each rests on (the branch, its exit, the
// kind of divergence, the tier), then reports the first of each cause in
// source order with its own notes, and adds a note at the cause that counts
// the others and names each of them.
//
// The lead of that note is fixed (CauseNoteLead): the standalone's
// reporter keys the finding's baseline fingerprint on the cause's line when
// it sees it, so that a site added or removed under the same condition
// leaves the baseline as it was.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_FINDINGSBYCAUSE_H
#define CUDA_TIDY_CHECKS_FINDINGSBYCAUSE_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
namespace tidy {
class ClangTidyCheck;
} // namespace tidy
} // namespace clang

namespace clang::tidy::cuda {

/// How the note at a grouped finding's cause begins.
inline constexpr llvm::StringLiteral CauseNoteLead =
    "the same divergence also reaches ";

class FindingsByCause {
public:
  /// A finding of \p Site (its warning and notes, written by \p Emit),
  /// resting on \p Reason in tier \p Tier (findings of different tiers are
  /// never merged). \p What names the call in the notes ("'__syncthreads()'").
  void add(const analysis::DivergenceReason &Reason, unsigned Tier,
           SourceLocation Site, std::string What, std::function<void()> Emit);

  /// Reports what was added, in source order: with \p Group, the first
  /// finding of each cause, with a note at the cause naming the others
  /// (\p One and \p Many say what they are: "barrier", "barriers");
  /// without, every finding. Forgets them.
  void emit(ClangTidyCheck &Check, const SourceManager &SM, bool Group,
            llvm::StringRef One, llvm::StringRef Many);

private:
  struct Finding {
    const Stmt *Branch = nullptr;
    const Stmt *Exit = nullptr;
    analysis::DivergenceKind Kind = analysis::DivergenceKind::Branch;
    unsigned Tier = 0;
    SourceLocation CauseLoc;
    SourceLocation Site;
    std::string What;
    std::function<void()> Emit;
    unsigned Index = 0; ///< the order of add()
  };
  std::vector<Finding> Findings;
};

} // namespace clang::tidy::cuda

#endif
