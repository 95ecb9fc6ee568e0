//===--- DivergentGroupCreationCheck.cpp - cuda-divergent-group-creation --===//

#include "checks/DivergentGroupCreationCheck.h"
#include "checks/ProjectOptions.h"
#include "checks/DivergenceNotes.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::cuda {

using analysis::AnalysisManager;
using analysis::DivergenceKind;
using analysis::DivergenceReason;
using analysis::FunctionDivergence;
using analysis::GroupKind;
using analysis::Level;
using GroupOrigin = DivergentGroupCreationCheck::GroupOrigin;

namespace {

/// The plain name of a cooperative_groups free function (not a member), or
/// "" for anything else.
llvm::StringRef cgFreeFunctionName(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || isa<CXXMethodDecl>(FD) ||
      !analysis::isCooperativeGroupsFunction(FD))
    return "";
  return FD->getName();
}

/// True when \p Reason is a `return` out of the kernel \p FD itself: the
/// threads that took it have exited.
bool isKernelExit(const DivergenceReason &Reason, const FunctionDecl *FD) {
  return Reason.Kind == DivergenceKind::EarlyExit && Reason.Exit &&
         isa<ReturnStmt>(Reason.Exit) && FD->hasAttr<CUDAGlobalAttr>();
}

/// Through parentheses, implicit conversions (derived to base), temporaries
/// and copy or converting constructors, to the expression that names the
/// group.
const Expr *stripHandle(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *Full = dyn_cast<FullExpr>(Next))
      Next = Full->getSubExpr();
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = Bind->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
             Construct && !isa<CXXTemporaryObjectExpr>(Construct) &&
             Construct->getNumArgs() == 1)
      Next = Construct->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

void setKind(GroupOrigin &O, QualType T) {
  T = T.getNonReferenceType();
  if (std::optional<GroupKind> Kind = analysis::groupKindOfType(T))
    O.Kind = *Kind;
  O.TileSize = analysis::tileSizeOfType(T);
}

/// The level within which the members of a group of this origin run
/// together where it is made.
Level spanOf(const GroupOrigin &O) {
  switch (O.Kind) {
  case GroupKind::ThreadBlock:
    return Level::block();
  case GroupKind::ClusterGroup:
    return Level::cluster();
  case GroupKind::GridGroup:
  case GroupKind::MultiGridGroup:
    return Level::grid();
  case GroupKind::Tile:
    if (O.TileSize)
      if (std::optional<Level> L = Level::tile(*O.TileSize))
        return *L;
    return Level::warp();
  case GroupKind::CoalescedGroup:
  case GroupKind::ThreadGroup:
    break;
  }
  // A coalesced group lies within one warp; one split from a smaller tile
  // lies within that tile.
  if (O.MadeBy) {
    llvm::StringRef Name = cgFreeFunctionName(O.MadeBy);
    if (analysis::isKeyedPartitionName(Name))
      if (std::optional<analysis::GroupOperand> Parent =
              analysis::groupOperandOf(O.MadeBy))
        if (Parent->Kind == GroupKind::Tile && Parent->TileSize &&
            *Parent->TileSize <= 32)
          if (std::optional<Level> L = Level::tile(*Parent->TileSize))
            return *L;
  }
  return Level::warp();
}

class OriginFinder {
public:
  OriginFinder(const FunctionDecl *FD, ASTContext &Ctx) : FD(FD), Ctx(Ctx) {}

  std::optional<GroupOrigin> find(const Expr *Handle, unsigned Depth = 0) {
    if (!Handle || Depth > 8)
      return std::nullopt;
    const Expr *E = stripHandle(Handle);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (isa<CXXMemberCallExpr>(Call) || isa<CXXOperatorCallExpr>(Call))
        return std::nullopt;
      GroupOrigin O;
      O.MadeBy = Call;
      setKind(O, Call->getType());
      O.Span = spanOf(O);
      return O;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    if (!Ref)
      return std::nullopt;
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return std::nullopt;
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
      if (Param->getParentFunctionOrMethod() != FD)
        return std::nullopt;
      GroupOrigin O;
      O.Var = Param;
      O.FromCaller = true;
      setKind(O, Param->getType());
      O.Span = spanOf(O);
      return O;
    }
    if (!Var->isLocalVarDecl() || Var->isStaticLocal() || !Var->getInit() ||
        Var->getType()->isReferenceType() ||
        Var->getParentFunctionOrMethod() != FD || isMutated(Var))
      return std::nullopt;
    std::optional<GroupOrigin> O = find(Var->getInit(), Depth + 1);
    if (O && !O->Var)
      O->Var = Var;
    return O;
  }

private:
  bool isMutated(const VarDecl *Var) {
    const Stmt *Body = FD->getBody();
    if (!Body)
      return true;
    if (!Analyzer)
      Analyzer.emplace(*Body, Ctx);
    return Analyzer->isMutated(Var);
  }

  const FunctionDecl *FD;
  ASTContext &Ctx;
  std::optional<ExprMutationAnalyzer> Analyzer;
};

/// True when \p Call is part of the condition of an `if` or `?:`: a group's
/// thread_rank() there picks which members act for the group (the
/// aggregated-atomic leader), which only works if every member is present.
bool selectsLanes(const CallExpr *Call, ASTContext &Ctx) {
  const Stmt *Child = Call;
  DynTypedNodeList Parents = Ctx.getParents(*Call);
  for (unsigned Depth = 0; Depth < 16 && Parents.size() == 1; ++Depth) {
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return If->getCond() == Child;
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(Parent))
      return Cond->getCond() == Child;
    if (!isa<Expr>(Parent))
      return false;
    Child = Parent;
    Parents = Ctx.getParents(*Parent);
  }
  return false;
}

/// "tiled_partition<32>" for a static partition, the plain name otherwise.
std::string partitionSpelling(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  std::string Name = FD->getNameAsString();
  if (!analysis::isTiledPartitionName(Name))
    return Name; // binary_partition's template argument is deduced
  if (const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs())
    if (Args->size() > 0 &&
        Args->get(0).getKind() == TemplateArgument::Integral)
      Name += "<" + llvm::toString(Args->get(0).getAsIntegral(), 10) + ">";
  return Name;
}

/// How messages name a group: "thread_block 'block'", or for a temporary
/// "the thread_block from 'cg::this_thread_block()'".
std::string describeGroup(const GroupOrigin &O, const Expr *Handle,
                          const ASTContext &Ctx) {
  std::string Kind = analysis::groupKindSpelling(O.Kind);
  if (O.Kind == GroupKind::Tile && O.TileSize)
    Kind += "<" + std::to_string(*O.TileSize) + ">";
  if (const auto *Ref = dyn_cast<DeclRefExpr>(stripHandle(Handle)))
    return Kind + " '" + Ref->getDecl()->getNameAsString() + "'";
  return "the " + Kind + " from '" +
         quoteSource(stripHandle(Handle), Ctx, "a temporary", 60) + "'";
}

} // namespace

DivergentGroupCreationCheck::DivergentGroupCreationCheck(
    StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AssumeBlockDimXMultipleOf32(
          projectFlag(Options, "AssumeBlockDimXMultipleOf32",
                      BlockDimXMultipleOf32Option, false)),
      ReportPotential(Options.get("ReportPotential", false)) {}

void DivergentGroupCreationCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AssumeBlockDimXMultipleOf32",
                AssumeBlockDimXMultipleOf32);
  Options.store(Opts, "ReportPotential", ReportPotential);
}

std::string DivergentGroupCreationCheck::potentialFact(
    const Stmt *Site, const DivergenceReason &Reason, Level Within,
    const FunctionDivergence &D, const ASTContext &Ctx) const {
  analysis::AnalysisOptions Opts;
  Opts.AssumeBlockDimXMultipleOf32 = AssumeBlockDimXMultipleOf32;
  auto &Context = const_cast<ASTContext &>(Ctx);
  AnalysisManager &Manager = AnalysisManager::forContext(Context, Opts);
  return warpPotentialFact(Manager, D.function(), Site, Reason, Context,
                           Within, "threads");
}

void DivergentGroupCreationCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

bool DivergentGroupCreationCheck::claim(SourceLocation Loc) {
  return Reported.insert(Loc.getRawEncoding()).second;
}

/// Notes saying where a group was made.
static void noteOrigin(ClangTidyCheck &Check, const GroupOrigin &O,
                       const Expr *Handle, bool Stale) {
  const auto *Ref = dyn_cast<DeclRefExpr>(stripHandle(Handle));
  if (!Ref)
    return; // a temporary, made where it is used
  std::string Name = Ref->getDecl()->getNameAsString();
  if (O.FromCaller) {
    Check.diag(O.Var->getLocation(),
               Stale ? "'%0' is made by the caller, before this function "
                       "diverges"
                     : "'%0' is made by the caller",
               DiagnosticIDs::Note)
        << Name;
    return;
  }
  SourceLocation Where =
      O.MadeBy ? beginOf(O.MadeBy) : Ref->getDecl()->getLocation();
  Check.diag(Where,
             Stale ? "'%0' is made here, with the lanes converged at this "
                     "point"
                   : "'%0' is made here",
             DiagnosticIDs::Note)
      << Name;
}

/// Calls on a group whose result every member of the group shares.
static bool isGroupInvariantCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  if (isa<CXXMethodDecl>(FD))
    return analysis::isGroupInvariantMemberName(Name);
  return analysis::isGroupInvariantFunctionName(Name);
}

/// Whether \p E has the same value for every member of the group held in
/// \p Group: uniform across \p Span, or computed from what the group says
/// about itself (`g.size()`, `g.any(p)`, `cg::reduce(g, ...)`). A loop
/// `for (o = 1; o < g.size(); o <<= 1)` runs the same trip count for every
/// member of g, though not for the whole warp.
static bool isUniformWithinGroup(const Expr *E, const ValueDecl *Group,
                                 Level Span, const FunctionDivergence &D,
                                 unsigned Depth = 0) {
  if (!E || Depth > 32)
    return false;
  if (D.uniformityOf(E).isUniformAt(Span))
    return true;
  E = E->IgnoreParens();
  // A local every assignment of which the group agrees on
  // (`gt_mask = active.ballot(p)`, twice in cdpAdvancedQuicksort).
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      std::optional<llvm::SmallVector<const Expr *, 4>> Values =
          analysis::assignedValues(Var, D.function());
      return Values && llvm::all_of(*Values, [&](const Expr *Value) {
               return isUniformWithinGroup(Value, Group, Span, D, Depth + 8);
             });
    }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    std::optional<analysis::GroupOperand> Operand =
        analysis::groupOperandOf(Call);
    if (!Operand || !Operand->Handle || !isGroupInvariantCall(Call))
      return false;
    const auto *Ref = dyn_cast<DeclRefExpr>(stripHandle(Operand->Handle));
    return Ref && Ref->getDecl() == Group;
  }
  if (!isa<BinaryOperator>(E) && !isa<UnaryOperator>(E) && !isa<CastExpr>(E) &&
      !isa<AbstractConditionalOperator>(E))
    return false;
  return llvm::all_of(E->children(), [&](const Stmt *Child) {
    return isUniformWithinGroup(dyn_cast_or_null<Expr>(Child), Group, Span, D,
                                Depth + 1);
  });
}

std::optional<DivergenceReason> DivergentGroupCreationCheck::staleDivergence(
    const CallExpr *Call, const GroupOrigin &O, const ValueDecl *Group,
    const FunctionDivergence &D) {
  // The nearest branch that diverged since the group was made; a branch the
  // group decided by itself is stepped over, to the branches around it.
  const Stmt *Target = Call;
  llvm::SmallPtrSet<const Stmt *, 4> SteppedOver;
  for (unsigned Step = 0; Step < 8; ++Step) {
    std::optional<DivergenceReason> Reason;
    if (O.MadeBy)
      Reason = D.divergenceSince(O.MadeBy, Target, O.Span);
    else if (O.FromCaller)
      Reason = D.divergenceAt(Target, O.Span);
    if (!Reason || (Reason->Branch && SteppedOver.contains(Reason->Branch)))
      return std::nullopt;
    // A branch on the very value the group was partitioned on is uniform
    // within the partition: every member took the same side of the split.
    const Expr *Key = analysis::partitionKey(O.MadeBy);
    bool OnKey =
        Key && Reason->Condition &&
        analysis::isDecidedByPartitionKey(
            Reason->Condition, Key, D.function(),
            const_cast<ASTContext &>(D.function()->getASTContext()),
            [&](const Expr *E) {
              return D.uniformityOf(E).isUniformAt(O.Span);
            });
    if (!Reason->Condition ||
        (!OnKey && !isUniformWithinGroup(Reason->Condition, Group, O.Span, D)))
      return Reason;
    SteppedOver.insert(Reason->Branch);
    // Where the branch is decided; a for loop's init runs once, before it.
    Target = Reason->Condition;
    if (const auto *For = dyn_cast_or_null<ForStmt>(Reason->Branch))
      if (For->getInit())
        Target = For->getInit();
  }
  return std::nullopt;
}

bool DivergentGroupCreationCheck::checkStale(const CallExpr *Call,
                                             llvm::StringRef Collective,
                                             const Expr *Handle,
                                             const FunctionDivergence &D,
                                             const ASTContext &Ctx) {
  const FunctionDecl *FD = D.function();
  OriginFinder Finder(FD, const_cast<ASTContext &>(Ctx));
  std::optional<GroupOrigin> O = Finder.find(Handle);
  if (!O || O->Kind != GroupKind::CoalescedGroup)
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(stripHandle(Handle));
  if (!Ref)
    return false; // a temporary is made where it is used: never stale
  std::optional<DivergenceReason> Reason =
      staleDivergence(Call, *O, Ref->getDecl(), D);
  if (!Reason)
    return false;
  llvm::StringRef Name = Call->getDirectCallee()->getName();
  if (analysis::toleratesExitedMembers(Name) && isKernelExit(*Reason, FD))
    return false;
  std::string Fact = potentialFact(Call, *Reason, O->Span, D, Ctx);
  if (!Fact.empty() && !ReportPotential)
    return true;
  SourceLocation Loc = Ctx.getSourceManager().getExpansionLoc(beginOf(Call));
  if (!claim(Loc))
    return true;
  diag(Loc, "'%0' on coalesced group '%1' is reached under control flow "
            "that diverged after the group was made (%2): %3 are still "
            "members of the group%4")
      << Collective << Ref->getDecl()->getName()
      << analysis::divergenceKindName(Reason->Kind)
      << missingThreads(Reason->Kind, "lanes") << Fact;
  noteOrigin(*this, *O, Handle, /*Stale=*/true);
  explainDivergence(*this, *Reason, levelName(O->Span), "the collective", Ctx);
  return true;
}

void DivergentGroupCreationCheck::checkPartition(
    const CallExpr *Call, const FunctionDivergence &D, const ASTContext &Ctx,
    llvm::DenseSet<const CallExpr *> &ReportedParents) {
  if (Call->getNumArgs() == 0)
    return;
  const Expr *Handle = Call->getArg(0);
  OriginFinder Finder(D.function(), const_cast<ASTContext &>(Ctx));
  std::optional<GroupOrigin> Parent = Finder.find(Handle);
  if (!Parent) {
    // An unnamed parent of a known type (a member, an array element).
    std::optional<analysis::GroupOperand> Operand =
        analysis::groupOperandOf(Call);
    if (!Operand)
      return;
    Parent.emplace();
    Parent->Kind = Operand->Kind;
    Parent->TileSize = Operand->TileSize;
    Parent->Span = spanOf(*Parent);
  }
  std::string Spelling = partitionSpelling(Call);

  if (Parent->Kind == GroupKind::CoalescedGroup) {
    checkStale(Call, "cooperative_groups::" + Spelling, Handle, D, Ctx);
    return;
  }
  bool KnownParent = Parent->Kind == GroupKind::ThreadBlock ||
                     (Parent->Kind == GroupKind::Tile && Parent->TileSize);
  if (!KnownParent)
    return; // a type-erased parent: its membership is not known here
  Level Within = Parent->Span;
  std::optional<DivergenceReason> Reason = D.divergenceAt(Call, Within);
  if (!Reason)
    return;
  std::string Fact = potentialFact(Call, *Reason, Within, D, Ctx);
  SourceLocation Loc = Ctx.getSourceManager().getExpansionLoc(beginOf(Call));
  if (Parent->MadeBy)
    ReportedParents.insert(Parent->MadeBy);
  if ((!Fact.empty() && !ReportPotential) || !claim(Loc))
    return;
  diag(Loc, "'%0' partitions %1 under control flow that diverges within the "
            "%2 (%3); every thread of the parent group must reach it%4")
      << Spelling << describeGroup(*Parent, Handle, Ctx) << levelName(Within)
      << analysis::divergenceKindName(Reason->Kind) << Fact;
  noteOrigin(*this, *Parent, Handle, /*Stale=*/false);
  explainDivergence(*this, *Reason, levelName(Within), "the partition", Ctx);
}

void DivergentGroupCreationCheck::checkImplicitHandle(
    const CallExpr *Call, llvm::StringRef Name, const FunctionDivergence &D,
    const ASTContext &Ctx) {
  Level Within = Level::grid();
  if (std::optional<GroupKind> Kind = analysis::implicitGroupKind(Name))
    Within = *Kind == GroupKind::ThreadBlock    ? Level::block()
             : *Kind == GroupKind::ClusterGroup ? Level::cluster()
                                                : Level::grid();
  std::optional<DivergenceReason> Reason = D.divergenceAt(Call, Within);
  if (!Reason)
    return;
  std::string Fact = potentialFact(Call, *Reason, Within, D, Ctx);
  if (!Fact.empty() && !ReportPotential)
    return;
  SourceLocation Loc = Ctx.getSourceManager().getExpansionLoc(beginOf(Call));
  if (!claim(Loc))
    return;
  diag(Loc, "'%0()' is made under control flow that diverges within the %1 "
            "(%2); create implicit group handles before any branching%3")
      << Name << levelName(Within)
      << analysis::divergenceKindName(Reason->Kind) << Fact;
  explainDivergence(*this, *Reason, levelName(Within), "it", Ctx);
}

void DivergentGroupCreationCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || Function->isDependentContext() || !Function->getBody() ||
      !isDeviceCode(Function))
    return;
  ASTContext &Ctx = *Result.Context;
  analysis::AnalysisOptions Opts;
  Opts.AssumeBlockDimXMultipleOf32 = AssumeBlockDimXMultipleOf32;
  AnalysisManager &Manager = AnalysisManager::forContext(Ctx, Opts);
  const FunctionDivergence *D = Manager.divergence(Function);
  if (!D || !D->isAnalyzed())
    return;
  const SourceManager &SM = Ctx.getSourceManager();

  // Partitions first: an implicit handle made as a partition's argument is
  // covered by the partition's finding.
  llvm::DenseSet<const CallExpr *> ReportedParents;
  for (const CallExpr *Call : D->calls()) {
    if (!D->isReachable(Call) ||
        SM.isInSystemHeader(SM.getExpansionLoc(beginOf(Call))))
      continue;
    llvm::StringRef Name = cgFreeFunctionName(Call);
    if (analysis::isPartitionName(Name))
      checkPartition(Call, *D, Ctx, ReportedParents);
  }

  for (const CallExpr *Call : D->calls()) {
    if (!D->isReachable(Call) ||
        SM.isInSystemHeader(SM.getExpansionLoc(beginOf(Call))))
      continue;
    llvm::StringRef Name = cgFreeFunctionName(Call);
    if (analysis::implicitGroupKind(Name)) {
      if (Call->getNumArgs() == 0 && !ReportedParents.contains(Call))
        checkImplicitHandle(Call, Name, *D, Ctx);
      continue;
    }
    if (analysis::isPartitionName(Name))
      continue;

    // Collectives on a coalesced group (or a thread_group holding one).
    std::optional<analysis::GroupOperand> Group =
        analysis::groupOperandOf(Call);
    if (!Group || !Group->Handle ||
        (Group->Kind != GroupKind::CoalescedGroup &&
         Group->Kind != GroupKind::ThreadGroup))
      continue;
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      continue;
    std::string Collective;
    if (isa<CXXMethodDecl>(Callee)) {
      if (!analysis::isCollectiveMemberName(Callee->getName()) &&
          !(analysis::isThreadRankName(Callee->getName()) &&
            selectsLanes(Call, Ctx)))
        continue;
      Collective = (llvm::Twine(analysis::groupKindSpelling(Group->Kind)) +
                    "::" + Callee->getName() + "()")
                       .str();
    } else {
      if (!analysis::isCollectiveFunctionName(Name) &&
          !analysis::isPartitionName(Name))
        continue;
      Collective = ("cooperative_groups::" + Name).str();
    }
    checkStale(Call, Collective, Group->Handle, *D, Ctx);
  }
}

} // namespace clang::tidy::cuda
