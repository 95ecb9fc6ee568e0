//===--- DivergentGroupCreationCheck.h - cuda-divergent-group-creation ----===//
//
// Flags cooperative groups made where not every thread of the parent group
// can be: a partition (tiled_partition, labeled_partition, binary_partition)
// reached under control flow that diverges within the group it partitions,
// an implicit handle (this_thread_block(), this_grid(), this_cluster()) made
// inside a branch that diverges within the group it names, and a collective
// on a coalesced group under control flow that diverged after the group was
// made (the group still names the lanes that left). The CUDA Programming
// Guide: partitioning is a collective operation every thread of the parent
// must reach; create implicit handles before any branching;
// coalesced_threads() is meant for divergent code, so it is exempt where it
// is made.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DIVERGENTGROUPCREATIONCHECK_H
#define CUDA_TIDY_CHECKS_DIVERGENTGROUPCREATIONCHECK_H

#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/core/Uniformity.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>

namespace clang::tidy::cuda {

class DivergentGroupCreationCheck : public ClangTidyCheck {
public:
  DivergentGroupCreationCheck(StringRef Name, ClangTidyContext *Context);
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override { Reported.clear(); }

  /// Where a group handle used by a call comes from.
  struct GroupOrigin {
    analysis::GroupKind Kind = analysis::GroupKind::ThreadGroup;
    std::optional<unsigned> TileSize;
    /// The variable that holds the handle, or nullptr for a temporary.
    const VarDecl *Var = nullptr;
    /// The call that made it (this_thread_block(), coalesced_threads(),
    /// tiled_partition(...)), when it is in this function.
    const CallExpr *MadeBy = nullptr;
    /// The handle is a parameter: made by a caller, before this function.
    bool FromCaller = false;
    /// The level within which every member of the group runs together at
    /// the point it is made (a coalesced group: the warp, or the tile it
    /// was split from).
    analysis::Level Span = analysis::Level::warp();
  };

private:
  /// True the first time a finding is made at \p Loc (a template is
  /// checked once per instantiation).
  bool claim(SourceLocation Loc);
  void checkPartition(const CallExpr *Call,
                      const analysis::FunctionDivergence &D,
                      const ASTContext &Ctx,
                      llvm::DenseSet<const CallExpr *> &ReportedParents);
  void checkImplicitHandle(const CallExpr *Call, llvm::StringRef Name,
                           const analysis::FunctionDivergence &D,
                           const ASTContext &Ctx);
  /// The branch that makes \p Call, on the group held in \p Group, be
  /// reached by only part of the group since it was made, if any.
  std::optional<analysis::DivergenceReason>
  staleDivergence(const CallExpr *Call, const GroupOrigin &O,
                  const ValueDecl *Group,
                  const analysis::FunctionDivergence &D);
  /// A collective on a coalesced group under divergence since it was made.
  bool checkStale(const CallExpr *Call, llvm::StringRef Collective,
                  const Expr *Handle, const analysis::FunctionDivergence &D,
                  const ASTContext &Ctx);

  /// The potential tier's message suffix for a divergence at \p Site within
  /// \p Within (DivergenceNotes.h: warpPotentialFact); empty when definite.
  std::string potentialFact(const Stmt *Site,
                            const analysis::DivergenceReason &Reason,
                            analysis::Level Within,
                            const analysis::FunctionDivergence &D,
                            const ASTContext &Ctx) const;

  /// blockDim.x is a multiple of 32: threadIdx.y and .z are warp-uniform.
  const bool AssumeBlockDimXMultipleOf32;
  /// Also report the potential tier (option ReportPotential).
  const bool ReportPotential;
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::cuda

#endif
