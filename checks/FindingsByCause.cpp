//===--- FindingsByCause.cpp - one finding per divergent cause ------------===//

#include "checks/FindingsByCause.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace clang::tidy::cuda {

namespace {

/// The notes at most named one by one; the rest are counted.
constexpr size_t MaxNamedSites = 8;

} // namespace

void FindingsByCause::add(const analysis::DivergenceReason &Reason,
                          unsigned Tier, SourceLocation Site, std::string What,
                          std::function<void()> Emit) {
  Finding F;
  F.Branch = Reason.Branch;
  F.Exit = Reason.Exit;
  F.Kind = Reason.Kind;
  F.Tier = Tier;
  if (Reason.Condition)
    F.CauseLoc = Reason.Condition->getBeginLoc();
  else if (Reason.Branch)
    F.CauseLoc = Reason.Branch->getBeginLoc();
  F.Site = Site;
  F.What = std::move(What);
  F.Emit = std::move(Emit);
  F.Index = static_cast<unsigned>(Findings.size());
  Findings.push_back(std::move(F));
}

void FindingsByCause::emit(ClangTidyCheck &Check, const SourceManager &SM,
                           bool Group, llvm::StringRef One,
                           llvm::StringRef Many) {
  std::vector<Finding> All = std::move(Findings);
  Findings.clear();
  // Source order, then the order they were added: a total order, so no
  // stable sort (its temporary buffer is deprecated in libstdc++ 12).
  std::sort(All.begin(), All.end(), [&](const Finding &A, const Finding &B) {
    if (A.Site != B.Site)
      return SM.isBeforeInTranslationUnit(A.Site, B.Site);
    return A.Index < B.Index;
  });
  std::vector<bool> Done(All.size(), false);
  for (size_t I = 0; I < All.size(); ++I) {
    if (Done[I])
      continue;
    const Finding &First = All[I];
    First.Emit();
    // Only a cause the analysis names (a branch) groups; a finding with no
    // branch stands alone.
    if (!Group || !First.Branch || First.CauseLoc.isInvalid())
      continue;
    std::vector<size_t> Others;
    for (size_t J = I + 1; J < All.size(); ++J)
      if (!Done[J] && All[J].Branch == First.Branch &&
          All[J].Exit == First.Exit && All[J].Kind == First.Kind &&
          All[J].Tier == First.Tier) {
        Others.push_back(J);
        Done[J] = true;
      }
    if (Others.empty())
      continue;
    Check.diag(First.CauseLoc,
               (CauseNoteLead + "%0 more %1; this finding stands for all "
                                "of them (GroupByCause)")
                   .str(),
               DiagnosticIDs::Note)
        << static_cast<unsigned>(Others.size())
        << (Others.size() == 1 ? One : Many);
    for (size_t K = 0; K < Others.size() && K < MaxNamedSites; ++K)
      Check.diag(All[Others[K]].Site, "%0 is also reached under it",
                 DiagnosticIDs::Note)
          << All[Others[K]].What;
    if (Others.size() > MaxNamedSites)
      Check.diag(All[Others[MaxNamedSites]].Site,
                 "and %0 more from here on", DiagnosticIDs::Note)
          << static_cast<unsigned>(Others.size() - MaxNamedSites);
  }
}

} // namespace clang::tidy::cuda
