//===--- GroupPrivateExchange.cpp - exchanges confined to groups of threads ===//

#include "checks/analysis/memory/GroupPrivateExchange.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::cuda::analysis {
namespace {

/// The group width W: a constant, or a declaration every thread of the
/// block reads alike (an unmodified parameter).
struct Width {
  std::optional<llvm::APSInt> Value;
  const ValueDecl *Decl = nullptr;
  bool operator==(const Width &Other) const {
    if (Value && Other.Value)
      return llvm::APSInt::isSameValue(*Value, *Other.Value);
    return !Value && !Other.Value && Decl == Other.Decl;
  }
};

/// How a __shared__ array's element is chosen, per access.
enum class Partition { None, FirstSubscriptIsGroup, FlatRangeOfGroup };

/// The facts of one kernel body, asked for each candidate width.
class GroupFacts {
public:
  GroupFacts(const FunctionDecl *Kernel, ASTContext &Ctx)
      : Kernel(Kernel), Body(Kernel->getBody()), Ctx(Ctx),
        Mutation(*Body, Ctx) {}

  const FunctionDecl *Kernel;
  const Stmt *Body;
  ASTContext &Ctx;

  /// \p E's value when it is an integer constant expression (never asked
  /// of a dependent expression, or one that holds an error).
  std::optional<llvm::APSInt> constantOf(const Expr *E) const {
    if (!E || E->isValueDependent() || E->containsErrors())
      return std::nullopt;
    return E->getIntegerConstantExpr(Ctx);
  }

  bool unmodified(const VarDecl *Var) {
    auto [It, New] = Unmodified.try_emplace(Var, false);
    if (New)
      It->second = Var->getType().isConstQualified() ||
                   !Mutation.isMutated(Var);
    return It->second;
  }

  /// \p E without parentheses and casts, through unmodified locals to the
  /// value they were initialised with.
  const Expr *resolve(const Expr *E) {
    for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
      E = E->IgnoreParenCasts();
      if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
        E = Subst->getReplacement();
        continue;
      }
      const auto *Ref = dyn_cast<DeclRefExpr>(E);
      const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
          !Var->getInit() || Var->hasAttr<CUDASharedAttr>() ||
          Var->getType()->isReferenceType() || !unmodified(Var))
        return E;
      E = Var->getInit();
    }
    return E;
  }

  bool isThreadX(const Expr *E) {
    std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(resolve(E));
    return Read && Read->Var == BuiltinIndexRead::ThreadIdx &&
           Read->Component == 'x';
  }

  std::optional<Width> widthOf(const Expr *E) {
    E = resolve(E);
    if (!E || E->isValueDependent())
      return std::nullopt;
    if (std::optional<llvm::APSInt> V = constantOf(E)) {
      if (V->isSigned() ? V->getSExtValue() < 2 : V->getZExtValue() < 2)
        return std::nullopt;
      return Width{V, nullptr};
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
          Param && Param->getType()->isIntegerType() && unmodified(Param))
        return Width{std::nullopt, Param};
    return std::nullopt;
  }

  bool sameWidth(const Expr *E, const Width &W) {
    std::optional<Width> Other = widthOf(E);
    return Other && *Other == W;
  }

  /// log2 of W when W is a constant power of two.
  static std::optional<unsigned> log2Of(const Width &W) {
    if (!W.Value || W.Value->isNegative() || !W.Value->isPowerOf2())
      return std::nullopt;
    return W.Value->logBase2();
  }

  /// `threadIdx.x / W` (or `>> k` for W = 2^k).
  bool isGroup(const Expr *E, const Width &W) {
    const auto *Op = dyn_cast_or_null<BinaryOperator>(resolve(E));
    if (!Op || !isThreadX(Op->getLHS()))
      return false;
    if (Op->getOpcode() == BO_Div)
      return sameWidth(Op->getRHS(), W);
    if (Op->getOpcode() == BO_Shr) {
      std::optional<unsigned> Log2 = log2Of(W);
      std::optional<llvm::APSInt> Shift =
          constantOf(Op->getRHS());
      return Log2 && Shift && !Shift->isNegative() &&
             Shift->getZExtValue() == *Log2;
    }
    return false;
  }

  /// `threadIdx.x % W`: the thread's place in its group.
  bool isPlaceInGroup(const Expr *E, const Width &W) {
    const auto *Op = dyn_cast_or_null<BinaryOperator>(resolve(E));
    return Op && Op->getOpcode() == BO_Rem && isThreadX(Op->getLHS()) &&
           sameWidth(Op->getRHS(), W);
  }

  /// A value that is a multiple of W for every thread of a group.
  bool multipleOfWidth(const Expr *E, const Width &W, unsigned Depth = 0) {
    if (Depth > 12)
      return false;
    const Expr *R = resolve(E);
    if (!R || R->isValueDependent())
      return false;
    if (std::optional<llvm::APSInt> V = constantOf(R)) {
      if (V->isZero())
        return true;
      if (!W.Value || V->isNegative())
        return false;
      return (V->extOrTrunc(64).getZExtValue() %
              W.Value->extOrTrunc(64).getZExtValue()) == 0;
    }
    if (sameWidth(R, W))
      return true;
    const auto *Op = dyn_cast<BinaryOperator>(R);
    if (!Op)
      return false;
    switch (Op->getOpcode()) {
    case BO_Mul:
      return multipleOfWidth(Op->getLHS(), W, Depth + 1) ||
             multipleOfWidth(Op->getRHS(), W, Depth + 1);
    case BO_Add:
    case BO_Sub:
      return multipleOfWidth(Op->getLHS(), W, Depth + 1) &&
             multipleOfWidth(Op->getRHS(), W, Depth + 1);
    case BO_Shl: {
      std::optional<unsigned> Log2 = log2Of(W);
      std::optional<llvm::APSInt> Shift =
          constantOf(Op->getRHS());
      return multipleOfWidth(Op->getLHS(), W, Depth + 1) ||
             (Log2 && Shift && !Shift->isNegative() &&
              Shift->getZExtValue() >= *Log2);
    }
    default:
      return false;
    }
  }

  /// `M + threadIdx.x` with M a group-uniform multiple of W (a global
  /// index over groups laid end to end).
  bool isGroupAlignedIndex(const Expr *E, const Width &W, unsigned Depth) {
    if (isThreadX(E))
      return true;
    const auto *Op = dyn_cast_or_null<BinaryOperator>(resolve(E));
    if (!Op || Op->getOpcode() != BO_Add)
      return false;
    auto Aligned = [&](const Expr *Index, const Expr *Offset) {
      return isThreadX(Index) && multipleOfWidth(Offset, W) &&
             groupUniform(Offset, W, nullptr, Depth + 1);
    };
    return Aligned(Op->getLHS(), Op->getRHS()) ||
           Aligned(Op->getRHS(), Op->getLHS());
  }

  std::string spelling(const Expr *E) const {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(E->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }

  /// A comparison whose two sides differ only across group boundaries:
  /// `I >= B` / `I < B` (either way round) with I a group-aligned index and
  /// B group-uniform. Exact when B is a multiple of W; otherwise true with
  /// B recorded in \p Pre (nullptr: not accepted).
  std::optional<bool>
  groupBoundaryTest(const BinaryOperator *Op, const Width &W,
                    std::vector<GroupPrivateExchange::Precondition> *Pre,
                    unsigned Depth) {
    const Expr *Index = nullptr;
    const Expr *Bound = nullptr;
    switch (Op->getOpcode()) {
    case BO_GE:
    case BO_LT:
      Index = Op->getLHS();
      Bound = Op->getRHS();
      break;
    case BO_LE:
    case BO_GT:
      Index = Op->getRHS();
      Bound = Op->getLHS();
      break;
    default:
      return std::nullopt;
    }
    // `threadIdx.x % W >= W` never holds (`< W` always does).
    if (isPlaceInGroup(Index, W) && sameWidth(Bound, W))
      return true;
    if (!isGroupAlignedIndex(Index, W, Depth) ||
        !groupUniform(Bound, W, nullptr, Depth + 1))
      return std::nullopt;
    if (multipleOfWidth(Bound, W))
      return true;
    if (!Pre)
      return false;
    Pre->push_back({spelling(Bound), Bound->getBeginLoc()});
    return true;
  }

  /// The same for every thread of a group of W (see the header).
  bool groupUniform(const Expr *E, const Width &W,
                    std::vector<GroupPrivateExchange::Precondition> *Pre,
                    unsigned Depth = 0) {
    if (!E || Depth > 24)
      return false;
    E = E->IgnoreParenCasts();
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
      return groupUniform(Subst->getReplacement(), W, Pre, Depth + 1);
    if (E->isValueDependent())
      return false;
    if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr,
            CharacterLiteral, CXXNullPtrLiteralExpr,
            UnaryExprOrTypeTraitExpr>(E) ||
        constantOf(E))
      return true;
    if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
      return Read->Var != BuiltinIndexRead::ThreadIdx;
    if (isGroup(E, W))
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      if (isa<EnumConstantDecl>(Ref->getDecl()))
        return true;
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || Var->hasAttr<CUDASharedAttr>() ||
          Var->getType()->isReferenceType())
        return false;
      if (isa<ParmVarDecl>(Var))
        return unmodified(Var);
      if (Var->hasLocalStorage()) {
        const Expr *Value = resolve(E);
        return Value != E && groupUniform(Value, W, Pre, Depth + 1);
      }
      // A global: only what no thread can change.
      return Var->getType().isConstQualified() ||
             Var->hasAttr<CUDAConstantAttr>();
    }
    if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
      if (Op->isAssignmentOp() || Op->getOpcode() == BO_Comma)
        return false;
      if (Op->isRelationalOp())
        if (std::optional<bool> Boundary =
                groupBoundaryTest(Op, W, Pre, Depth))
          return *Boundary;
      return groupUniform(Op->getLHS(), W, Pre, Depth + 1) &&
             groupUniform(Op->getRHS(), W, Pre, Depth + 1);
    }
    if (const auto *Op = dyn_cast<UnaryOperator>(E)) {
      if (Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf)
        return false;
      return groupUniform(Op->getSubExpr(), W, Pre, Depth + 1);
    }
    if (const auto *Cond = dyn_cast<AbstractConditionalOperator>(E))
      return groupUniform(Cond->getCond(), W, Pre, Depth + 1) &&
             groupUniform(Cond->getTrueExpr(), W, Pre, Depth + 1) &&
             groupUniform(Cond->getFalseExpr(), W, Pre, Depth + 1);
    // Global memory read at a group-uniform place (the base is a pointer
    // parameter, never a __shared__ array).
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      return groupUniform(Subscript->getBase(), W, Pre, Depth + 1) &&
             groupUniform(Subscript->getIdx(), W, Pre, Depth + 1);
    if (const auto *Member = dyn_cast<MemberExpr>(E))
      return isa<FieldDecl>(Member->getMemberDecl()) &&
             groupUniform(Member->getBase(), W, Pre, Depth + 1);
    return false;
  }

  /// The counter of a `for (j = 0; j < W; ++j)` loop that holds \p Use in
  /// its body and assigns \p Counter nowhere else.
  bool isCounterBelowWidth(const Expr *E, const Expr *Use, const Width &W) {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenCasts());
    const auto *Counter = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Counter || !Counter->hasLocalStorage())
      return false;
    for (const Stmt *Node = Use; Node;) {
      const auto Parents = Ctx.getParents(*Node);
      if (Parents.empty())
        return false;
      const Stmt *Parent = Parents[0].get<Stmt>();
      if (const auto *Loop = dyn_cast_or_null<ForStmt>(Parent);
          Loop && Loop->getBody() == Node &&
          countsFromZeroBelow(Loop, Counter, W) &&
          !assigns(Loop->getBody(), Counter))
        return true;
      Node = Parent;
    }
    return false;
  }

  bool refersTo(const Expr *E, const VarDecl *Var) const {
    const auto *Ref =
        dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
    return Ref && Ref->getDecl() == Var;
  }

  bool countsFromZeroBelow(const ForStmt *Loop, const VarDecl *Counter,
                           const Width &W) {
    bool StartsAtZero = false;
    if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Loop->getInit())) {
      std::optional<llvm::APSInt> Zero;
      if (Decl->isSingleDecl() && Decl->getSingleDecl() == Counter &&
          Counter->getInit())
        Zero = constantOf(Counter->getInit());
      StartsAtZero = Zero && Zero->isZero();
    } else if (const auto *Init =
                   dyn_cast_or_null<BinaryOperator>(Loop->getInit())) {
      std::optional<llvm::APSInt> Zero =
          constantOf(Init->getRHS());
      StartsAtZero = Init->getOpcode() == BO_Assign &&
                     refersTo(Init->getLHS(), Counter) && Zero &&
                     Zero->isZero();
    }
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(
        Loop->getCond() ? Loop->getCond()->IgnoreParenImpCasts() : nullptr);
    const bool BelowWidth = Cond && Cond->getOpcode() == BO_LT &&
                            refersTo(Cond->getLHS(), Counter) &&
                            sameWidth(Cond->getRHS(), W);
    bool StepsByOne = false;
    if (const auto *Inc = dyn_cast_or_null<UnaryOperator>(Loop->getInc())) {
      StepsByOne = Inc->getOpcode() == UO_PreInc ||
                   Inc->getOpcode() == UO_PostInc;
    } else if (const auto *Add =
                   dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc())) {
      std::optional<llvm::APSInt> One =
          constantOf(Add->getRHS());
      StepsByOne = Add->getOpcode() == BO_AddAssign && One && One->isOne();
    }
    const Expr *Stepped = nullptr;
    if (const auto *Inc = dyn_cast_or_null<UnaryOperator>(Loop->getInc()))
      Stepped = Inc->getSubExpr();
    else if (const auto *Add =
                 dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc()))
      Stepped = Add->getLHS();
    return StartsAtZero && BelowWidth && StepsByOne &&
           refersTo(Stepped, Counter);
  }

  /// Whether \p S assigns, increments or takes the address of \p Var.
  static bool assigns(const Stmt *S, const VarDecl *Var) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *Var;
      bool Found = false;
      bool names(const Expr *E) const {
        const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return Ref && Ref->getDecl() == Var;
      }
      bool VisitBinaryOperator(BinaryOperator *Op) {
        if (Op->isAssignmentOp() && names(Op->getLHS()))
          Found = true;
        return !Found;
      }
      bool VisitUnaryOperator(UnaryOperator *Op) {
        if ((Op->isIncrementDecrementOp() || Op->getOpcode() == UO_AddrOf) &&
            names(Op->getSubExpr()))
          Found = true;
        return !Found;
      }
    } F;
    F.Var = Var;
    F.TraverseStmt(const_cast<Stmt *>(S));
    return F.Found;
  }

  /// How \p Element (the outermost subscript of a __shared__ access) keeps
  /// to the thread's group.
  Partition partitionOf(const ArraySubscriptExpr *Element, const Width &W) {
    const ArraySubscriptExpr *First = Element;
    while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(
               First->getBase()->IgnoreParenImpCasts()))
      First = Inner;
    if (isGroup(First->getIdx(), W))
      return Partition::FirstSubscriptIsGroup;
    if (First != Element)
      return Partition::None;
    const Expr *Index = Element->getIdx();
    if (isThreadX(Index))
      return Partition::FlatRangeOfGroup;
    // (threadIdx.x / W) * W + j, j in [0, W).
    const auto *Sum = dyn_cast_or_null<BinaryOperator>(resolve(Index));
    if (!Sum || Sum->getOpcode() != BO_Add)
      return Partition::None;
    auto GroupStart = [&](const Expr *E) {
      const auto *Product = dyn_cast_or_null<BinaryOperator>(resolve(E));
      if (!Product)
        return false;
      if (Product->getOpcode() == BO_Mul)
        return (isGroup(Product->getLHS(), W) &&
                sameWidth(Product->getRHS(), W)) ||
               (isGroup(Product->getRHS(), W) &&
                sameWidth(Product->getLHS(), W));
      if (Product->getOpcode() == BO_Shl) {
        std::optional<unsigned> Log2 = log2Of(W);
        std::optional<llvm::APSInt> Shift =
            constantOf(Product->getRHS());
        return Log2 && Shift && Shift->getZExtValue() == *Log2 &&
               isGroup(Product->getLHS(), W);
      }
      return false;
    };
    auto Place = [&](const Expr *E) {
      return isPlaceInGroup(E, W) || isCounterBelowWidth(E, Element, W);
    };
    if ((GroupStart(Sum->getLHS()) && Place(Sum->getRHS())) ||
        (GroupStart(Sum->getRHS()) && Place(Sum->getLHS())))
      return Partition::FlatRangeOfGroup;
    return Partition::None;
  }

private:
  ExprMutationAnalyzer Mutation;
  llvm::DenseMap<const VarDecl *, bool> Unmodified;
};

/// Every use of a __shared__ variable in the body, by the outermost
/// subscript it is the base of (nullptr: used otherwise), the group widths
/// the body divides threadIdx.x by, and its returns. Lambdas are other
/// functions and are not entered.
struct BodyScan : RecursiveASTVisitor<BodyScan> {
  BodyScan(GroupFacts &Facts) : Facts(Facts) {}
  GroupFacts &Facts;
  llvm::SmallVector<std::pair<const VarDecl *, const ArraySubscriptExpr *>, 16>
      SharedUses;
  llvm::SmallVector<Width, 2> Widths;
  llvm::SmallVector<const Expr *, 2> WidthSpellings;
  llvm::SmallVector<const ReturnStmt *, 4> Returns;

  /// A call of the project's own code (or through a pointer), or a lambda:
  /// what it does to __shared__ memory is not in this body.
  bool CallsOtherCode = false;

  bool TraverseLambdaExpr(LambdaExpr *) {
    CallsOtherCode = true;
    return true;
  }
  bool isProjectCode(const FunctionDecl *Callee) const {
    if (!Callee)
      return true; // through a pointer: anything
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition) || !Definition)
      return false; // a builtin or a declaration only: no body of ours
    return !Facts.Ctx.getSourceManager().isInSystemHeader(
        Definition->getLocation());
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (isProjectCode(Call->getDirectCallee()))
      CallsOtherCode = true;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    if (Ctor && !Ctor->isTrivial() && isProjectCode(Ctor))
      CallsOtherCode = true;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *Return) {
    Returns.push_back(Return);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->getOpcode() != BO_Div || !Facts.isThreadX(Op->getLHS()))
      return true;
    if (std::optional<Width> W = Facts.widthOf(Op->getRHS());
        W && !llvm::is_contained(Widths, *W)) {
      Widths.push_back(*W);
      WidthSpellings.push_back(Op->getRHS());
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->hasAttr<CUDASharedAttr>())
      return true;
    // Up through the subscripts it is the base of.
    const Stmt *Node = Ref;
    const ArraySubscriptExpr *Outermost = nullptr;
    while (true) {
      const auto Parents = Facts.Ctx.getParents(*Node);
      const Stmt *Parent = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
      if (!Parent)
        break;
      if (isa<ParenExpr, ImplicitCastExpr>(Parent)) {
        Node = Parent;
        continue;
      }
      const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Parent);
      if (!Subscript || Subscript->getBase()->IgnoreParenImpCasts() !=
                            cast<Expr>(Node)->IgnoreParenImpCasts())
        break;
      Outermost = Subscript;
      Node = Parent;
    }
    SharedUses.push_back({Var, Outermost});
    return true;
  }
};

/// The if statements a return is nested in up to the body, innermost
/// first; false when anything else (a loop, a switch, an else branch)
/// holds it.
bool guardingConditions(const ReturnStmt *Return, const Stmt *Body,
                        ASTContext &Ctx,
                        llvm::SmallVectorImpl<const Expr *> &Conditions) {
  const Stmt *Node = Return;
  while (Node != Body) {
    const auto Parents = Ctx.getParents(*Node);
    const Stmt *Parent = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!Parent)
      return false;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (If->getThen() != Node || If->getInit() ||
          If->getConditionVariable())
        return false;
      Conditions.push_back(If->getCond());
    } else if (!isa<CompoundStmt>(Parent)) {
      return false;
    }
    Node = Parent;
  }
  return !Conditions.empty();
}

} // namespace

std::optional<GroupPrivateExchange>
groupPrivateExchange(const FunctionDecl *Kernel, const Stmt *Barrier,
                     ASTContext &Ctx) {
  if (!Kernel || !Barrier || !Kernel->hasAttr<CUDAGlobalAttr>() ||
      !Kernel->getBody() || Kernel->isDependentContext())
    return std::nullopt;
  GroupFacts Facts(Kernel, Ctx);
  BodyScan Scan(Facts);
  Scan.TraverseStmt(const_cast<Stmt *>(Kernel->getBody()));
  if (Scan.Widths.empty() || Scan.SharedUses.empty() || Scan.CallsOtherCode)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallVector<const ReturnStmt *, 4> Exits;
  for (const ReturnStmt *Return : Scan.Returns)
    if (SM.isBeforeInTranslationUnit(Return->getBeginLoc(),
                                     Barrier->getBeginLoc()))
      Exits.push_back(Return);
  if (Exits.empty())
    return std::nullopt;

  for (unsigned I = 0; I < Scan.Widths.size(); ++I) {
    const Width &W = Scan.Widths[I];
    GroupPrivateExchange Result;
    bool Holds = true;
    // Every exit before the barrier leaves by whole groups.
    for (const ReturnStmt *Exit : Exits) {
      llvm::SmallVector<const Expr *, 2> Conditions;
      if (!guardingConditions(Exit, Kernel->getBody(), Ctx, Conditions) ||
          !llvm::all_of(Conditions, [&](const Expr *C) {
            return Facts.groupUniform(C, W, &Result.Preconditions);
          })) {
        Holds = false;
        break;
      }
    }
    // Every __shared__ access keeps to the thread's group, one way per
    // array.
    llvm::DenseMap<const VarDecl *, Partition> PartitionOf;
    for (const auto &[Var, Element] : Scan.SharedUses) {
      if (!Holds)
        break;
      const Partition P =
          Element ? Facts.partitionOf(Element, W) : Partition::None;
      auto [It, New] = PartitionOf.try_emplace(Var, P);
      if (P == Partition::None || It->second != P)
        Holds = false;
    }
    if (!Holds)
      continue;
    Result.Width = Facts.spelling(Scan.WidthSpellings[I]);
    Result.FirstExit = Exits.front()->getBeginLoc();
    return Result;
  }
  return std::nullopt;
}

} // namespace clang::tidy::cuda::analysis
