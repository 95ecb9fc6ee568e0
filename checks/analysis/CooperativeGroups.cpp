//===--- CooperativeGroups.cpp - facts about the cooperative_groups API ---===//

#include "checks/analysis/CooperativeGroups.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda::analysis {

bool isInCooperativeGroupsNamespace(const Decl *D) {
  for (const DeclContext *Ctx = D->getDeclContext(); Ctx;
       Ctx = Ctx->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(Ctx);
    if (!NS)
      continue;
    // Only the outermost namespace decides: cooperative_groups is declared
    // at global scope.
    if (isa<TranslationUnitDecl>(NS->getParent()))
      return NS->getName() == "cooperative_groups";
  }
  return false;
}

/// The class names that identify a kind of group. Internal bases such as
/// __static_size_tile_base are listed because every static tile derives
/// from them and none of them derives from thread_group.
static std::optional<GroupKind> groupKindOfName(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<GroupKind>>(Name)
      .Case("thread_group", GroupKind::ThreadGroup)
      .Case("thread_block", GroupKind::ThreadBlock)
      .Case("thread_block_tile", GroupKind::Tile)
      .Case("__static_size_tile_base", GroupKind::Tile)
      .Case("__static_size_thread_block_tile_base", GroupKind::Tile)
      .Case("__single_warp_thread_block_tile", GroupKind::Tile)
      .Case("__multi_warp_thread_block_tile", GroupKind::Tile)
      .Case("coalesced_group", GroupKind::CoalescedGroup)
      .Case("grid_group", GroupKind::GridGroup)
      .Case("cluster_group", GroupKind::ClusterGroup)
      .Case("multi_grid_group", GroupKind::MultiGridGroup)
      .Default(std::nullopt);
}

std::optional<GroupKind> groupKindOfRecord(const CXXRecordDecl *Record) {
  if (!Record || !isInCooperativeGroupsNamespace(Record))
    return std::nullopt;
  if (auto Kind = groupKindOfName(Record->getName()))
    return Kind;
  if (!Record->hasDefinition())
    return std::nullopt;
  // The most derived named kind wins: thread_block derives from
  // thread_group_base, which derives from thread_group.
  for (const CXXBaseSpecifier &Base : Record->getDefinition()->bases()) {
    if (auto Kind =
            groupKindOfRecord(Base.getType()->getAsCXXRecordDecl()))
      return Kind;
  }
  return std::nullopt;
}

std::optional<GroupKind> groupKindOfType(QualType Type) {
  if (Type.isNull())
    return std::nullopt;
  QualType Canonical = Type.getCanonicalType();
  if (Canonical->isReferenceType() || Canonical->isPointerType())
    return std::nullopt;
  return groupKindOfRecord(Canonical->getAsCXXRecordDecl());
}

const char *groupKindSpelling(GroupKind Kind) {
  switch (Kind) {
  case GroupKind::ThreadGroup:
    return "thread_group";
  case GroupKind::ThreadBlock:
    return "thread_block";
  case GroupKind::Tile:
    return "thread_block_tile";
  case GroupKind::CoalescedGroup:
    return "coalesced_group";
  case GroupKind::GridGroup:
    return "grid_group";
  case GroupKind::ClusterGroup:
    return "cluster_group";
  case GroupKind::MultiGridGroup:
    return "multi_grid_group";
  }
  return "group";
}

const char *gridSyncSpelling(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee)) {
    if (groupKindOfRecord(Method->getParent()) != GroupKind::GridGroup)
      return nullptr;
    return llvm::StringSwitch<const char *>(Name)
        .Case("sync", "grid_group::sync()")
        .Case("barrier_arrive", "grid_group::barrier_arrive()")
        .Case("barrier_wait", "grid_group::barrier_wait()")
        .Default(nullptr);
  }
  // cooperative_groups::sync(g), a template that calls g.sync().
  if (Name != "sync" || !isInCooperativeGroupsNamespace(Callee) ||
      Call->getNumArgs() != 1)
    return nullptr;
  QualType Arg = Call->getArg(0)->getType().getNonReferenceType();
  if (groupKindOfType(Arg) != GroupKind::GridGroup)
    return nullptr;
  return "cooperative_groups::sync(grid_group)";
}

} // namespace clang::tidy::cuda::analysis
