//===--- CooperativeGroups.cpp - facts about the cooperative_groups API ---===//

#include "checks/analysis/api/CooperativeGroups.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::cuda::analysis {

bool isCollectiveMemberName(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"sync", "shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot",
              "any", "all", "match_any", "match_all"},
             true)
      .Default(false);
}

bool isCollectiveFunctionName(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases({"reduce", "reduce_update_async", "reduce_store_async",
              "inclusive_scan", "exclusive_scan", "inclusive_scan_update",
              "exclusive_scan_update"},
             true)
      .Cases({"invoke_one", "invoke_one_broadcast", "sync", "memcpy_async",
              "wait", "wait_prior"},
             true)
      .Default(false);
}

bool isPartitionName(llvm::StringRef Name) {
  return Name == "tiled_partition" || Name == "labeled_partition" ||
         Name == "binary_partition";
}

bool toleratesExitedMembers(llvm::StringRef Name) {
  return Name == "sync" || Name == "ballot" || Name == "any" || Name == "all";
}

bool isKeyedPartitionName(llvm::StringRef Name) {
  return Name == "labeled_partition" || Name == "binary_partition";
}

bool isTiledPartitionName(llvm::StringRef Name) {
  return Name == "tiled_partition";
}

bool isThreadRankName(llvm::StringRef Name) { return Name == "thread_rank"; }

bool isMetaGroupRankName(llvm::StringRef Name) {
  return Name == "meta_group_rank";
}

bool isGroupInvariantMemberName(llvm::StringRef Name) {
  return Name == "size" || Name == "num_threads" ||
         Name == "meta_group_size" || Name == "meta_group_rank" ||
         Name == "any" || Name == "all" || Name == "ballot";
}

bool isGroupInvariantFunctionName(llvm::StringRef Name) {
  return Name == "reduce";
}

bool mentionsThreadRank(llvm::StringRef Name) {
  return Name.contains("thread_rank");
}

std::optional<GroupQuery> groupMemberQuery(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<GroupQuery>>(Name)
      .Case("thread_rank", GroupQuery::ThreadRank)
      .Case("thread_index", GroupQuery::ThreadIndex)
      .Cases({"num_threads", "size"}, GroupQuery::NumThreads)
      .Cases({"dim_threads", "group_dim"}, GroupQuery::DimThreads)
      .Default(std::nullopt);
}

std::optional<GroupQuery> groupFunctionQuery(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<GroupQuery>>(Name)
      .Case("thread_rank", GroupQuery::ThreadRank)
      .Case("group_size", GroupQuery::NumThreads)
      .Default(std::nullopt);
}

std::optional<GroupKind> implicitGroupKind(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<GroupKind>>(Name)
      .Case("this_thread_block", GroupKind::ThreadBlock)
      .Case("this_grid", GroupKind::GridGroup)
      .Case("this_cluster", GroupKind::ClusterGroup)
      .Default(std::nullopt);
}

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

const Expr *partitionKey(const CallExpr *MadeBy) {
  if (!MadeBy || MadeBy->getNumArgs() < 2)
    return nullptr;
  const FunctionDecl *Callee = MadeBy->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      !isInCooperativeGroupsNamespace(Callee))
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  if (Name != "binary_partition" && Name != "labeled_partition")
    return nullptr;
  return MadeBy->getArg(1)->IgnoreParenImpCasts();
}

namespace {

/// The locals \p Body assigns, increments or takes the address of. (Not
/// clang's ExprMutationAnalyzer: it counts every binding to a forwarding
/// reference, such as cg::reduce's value argument, as a change.)
llvm::SmallPtrSet<const VarDecl *, 8> assignedLocals(const Stmt *Body) {
  llvm::SmallPtrSet<const VarDecl *, 8> Assigned;
  llvm::SmallVector<const Stmt *, 32> Work = {Body};
  auto Target = [&](const Expr *E) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        Assigned.insert(Var);
  };
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
      if (Binary->isAssignmentOp())
        Target(Binary->getLHS());
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
      if (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf)
        Target(Unary->getSubExpr());
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
        Target(Op->getArg(0));
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Assigned;
}

/// Every variable \p E reads holds one value in \p Function: a parameter
/// or local that nothing in the body assigns (a local's initializer is its
/// one value), or a constant.
bool readsOnlyUnchangedVariables(const Expr *E, const FunctionDecl *Function) {
  std::optional<llvm::SmallPtrSet<const VarDecl *, 8>> Assigned;
  llvm::SmallVector<const Stmt *, 8> Work = {E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var)
        continue;
      if (!Var->hasLocalStorage()) {
        if (!Var->getType().isConstQualified())
          return false;
        continue;
      }
      if (!Assigned)
        Assigned = assignedLocals(Function->getBody());
      if (Assigned->contains(Var))
        return false;
      continue;
    }
    if (isa<CallExpr>(S))
      return false; // a call may answer differently the second time
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return true;
}

bool sameExpression(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA;
  llvm::FoldingSetNodeID IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

bool decidedByKey(const Expr *E, const Expr *Key, const ASTContext &Ctx,
                  llvm::function_ref<bool(const Expr *)> IsUniform,
                  unsigned Depth) {
  if (!E || Depth > 16)
    return false;
  if (sameExpression(E, Key, Ctx))
    return true;
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    return Unary->getOpcode() == UO_LNot &&
           decidedByKey(Unary->getSubExpr(), Key, Ctx, IsUniform, Depth + 1);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    bool L = decidedByKey(Binary->getLHS(), Key, Ctx, IsUniform, Depth + 1);
    bool R = decidedByKey(Binary->getRHS(), Key, Ctx, IsUniform, Depth + 1);
    if (Binary->isLogicalOp())
      return (L || IsUniform(Binary->getLHS())) &&
             (R || IsUniform(Binary->getRHS())) && (L || R);
    if (Binary->isComparisonOp())
      return (L && IsUniform(Binary->getRHS())) ||
             (R && IsUniform(Binary->getLHS()));
  }
  return false;
}

} // namespace

bool isDecidedByPartitionKey(const Expr *Condition, const Expr *Key,
                             const FunctionDecl *Function, ASTContext &Context,
                             llvm::function_ref<bool(const Expr *)> IsUniform) {
  if (!Condition || !Key || !Function || !Function->getBody())
    return false;
  return decidedByKey(Condition, Key, Context, IsUniform, 0) &&
         readsOnlyUnchangedVariables(Key, Function);
}

std::optional<llvm::SmallVector<const Expr *, 4>>
assignedValues(const VarDecl *Var, const FunctionDecl *Function) {
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Function ||
      !Function->getBody())
    return std::nullopt;
  llvm::SmallVector<const Expr *, 4> Values;
  if (const Expr *Init = Var->getInit())
    Values.push_back(Init);
  auto IsVar = [&](const Expr *E) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Var;
  };
  llvm::SmallVector<const Stmt *, 32> Work = {Function->getBody()};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
      if (Binary->isAssignmentOp() && IsVar(Binary->getLHS())) {
        if (Binary->getOpcode() != BO_Assign)
          return std::nullopt;
        Values.push_back(Binary->getRHS());
      }
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
      if ((Unary->isIncrementDecrementOp() ||
           Unary->getOpcode() == UO_AddrOf) &&
          IsVar(Unary->getSubExpr()))
        return std::nullopt;
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() > 0 && IsVar(Op->getArg(0)))
        return std::nullopt;
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const clang::Decl *D : DS->decls())
        if (const auto *Ref = dyn_cast<VarDecl>(D);
            Ref && Ref != Var && Ref->getType()->isReferenceType() &&
            !Ref->getType()->getPointeeType().isConstQualified() &&
            Ref->getInit() && IsVar(Ref->getInit()))
          return std::nullopt;
    } else if (const auto *Call = dyn_cast<CallExpr>(S)) {
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
        if (IsVar(Member->getImplicitObjectArgument()) &&
            (!Member->getMethodDecl() || !Member->getMethodDecl()->isConst()))
          return std::nullopt;
      // Passed to a non-const reference parameter: the callee may change it.
      const FunctionDecl *Callee = Call->getDirectCallee();
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        if (!IsVar(Call->getArg(I)))
          continue;
        if (!Callee || I >= Callee->getNumParams())
          return std::nullopt;
        QualType Param = Callee->getParamDecl(I)->getType();
        if (Param->isReferenceType() &&
            !Param->getPointeeType().isConstQualified())
          return std::nullopt;
      }
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  if (Values.empty())
    return std::nullopt;
  return Values;
}

} // namespace clang::tidy::cuda::analysis
