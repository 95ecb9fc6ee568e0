//===--- WarpExchanges.cpp - lanes of one warp talking through __shared__ -===//

#include "checks/analysis/memory/WarpExchanges.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <optional>

namespace clang::tidy::cuda::analysis {

std::pair<const Stmt *, const CompoundStmt *>
enclosingStatement(const Expr *E, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(*E);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return {nullptr, nullptr};
    if (const auto *Block = Parents[0].get<CompoundStmt>())
      return {Node.get<Stmt>(), Block};
    // A local's initialiser: up through the variable to its DeclStmt.
    if (!Parents[0].get<Stmt>() && !Parents[0].get<VarDecl>())
      return {nullptr, nullptr};
    Node = Parents[0];
  }
  return {nullptr, nullptr};
}

std::vector<WarpExchange> warpExchanges(const SharedAccessAnalysis &AtWarp,
                                        ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Reads = [](const SharedAccess &A) {
    return A.K == SharedAccess::Read || A.K == SharedAccess::ReadWrite;
  };
  auto Changes = [](const SharedAccess &A) {
    return A.writes() || A.K == SharedAccess::Atomic;
  };
  std::vector<WarpExchange> Out;
  for (SharedAccessGroup &Group : AtWarp.groups()) {
    WarpExchange Exchange;
    Exchange.Var = Group.Var;
    bool AcrossWarps = false;
    for (const SharedAccess *R : Group.Members) {
      if (!Reads(*R))
        continue;
      std::optional<RacingRead> Found;
      for (const SharedAccess *W : Group.Members) {
        if (!Changes(*W))
          continue;
        std::optional<SharedConflict> Witness = AtWarp.conflict(*W, *R);
        if (!Witness)
          continue;
        // Threads of different warps: a block race, which a __syncwarp()
        // would not order.
        if (Witness->CrossWarp) {
          AcrossWarps = true;
          break;
        }
        if (!Found)
          Found = RacingRead{R, W, *Witness, false};
        if (enclosingStatement(W->Where, Ctx).first !=
                enclosingStatement(R->Where, Ctx).first &&
            SM.isBeforeInTranslationUnit(W->Where->getBeginLoc(),
                                         R->Where->getBeginLoc()))
          Found->WriteBefore = true;
      }
      if (AcrossWarps)
        break;
      if (Found)
        Exchange.Reads.push_back(*Found);
    }
    if (AcrossWarps || Exchange.Reads.empty())
      continue;
    Exchange.Members = std::move(Group.Members);
    Out.push_back(std::move(Exchange));
  }
  return Out;
}

} // namespace clang::tidy::cuda::analysis
