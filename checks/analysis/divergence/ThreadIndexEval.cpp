//===--- ThreadIndexEval.cpp - index expressions evaluated for one thread -===//

#include "checks/analysis/divergence/ThreadIndexEval.h"

#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/api/CooperativeGroups.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::cuda::analysis {

// --- IndexValue ---------------------------------------------------------------

IndexValue IndexValue::constant(int64_t Value) {
  IndexValue V;
  V.Constant = Value;
  return V;
}

IndexValue IndexValue::symbol(unsigned Symbol) {
  IndexValue V;
  V.Terms.emplace_back(Symbol, 1);
  return V;
}

IndexValue &IndexValue::add(const IndexValue &Other, int64_t Sign) {
  Constant += Sign * Other.Constant;
  for (const auto &[Symbol, Coeff] : Other.Terms) {
    auto *It = llvm::lower_bound(
        Terms, Symbol, [](const auto &T, unsigned S) { return T.first < S; });
    if (It == Terms.end() || It->first != Symbol)
      It = Terms.insert(It, {Symbol, 0});
    It->second += Sign * Coeff;
    if (It->second == 0)
      Terms.erase(It);
  }
  return *this;
}

IndexValue &IndexValue::scale(int64_t Factor) {
  Constant *= Factor;
  for (auto &Term : Terms)
    Term.second *= Factor;
  llvm::erase_if(Terms, [](const auto &T) { return T.second == 0; });
  return *this;
}

bool IndexValue::symbolsMultipleOf(int64_t M) const {
  return llvm::all_of(Terms, [&](const auto &T) {
    return T.second >= 0 && T.second % M == 0;
  });
}

// --- ThreadEnv ----------------------------------------------------------------

const int64_t *ThreadEnv::counter(const VarDecl *Var) const {
  for (const auto &[V, Value] : Counters)
    if (V == Var)
      return &Value;
  return nullptr;
}

void ThreadEnv::setCounter(const VarDecl *Var, int64_t Value) {
  for (auto &[V, Old] : Counters)
    if (V == Var) {
      Old = Value;
      return;
    }
  Counters.emplace_back(Var, Value);
}

// --- operators ----------------------------------------------------------------

std::optional<int64_t> foldConstantOperator(BinaryOperatorKind Op, int64_t A,
                                            int64_t B) {
  switch (Op) {
  case BO_Div:
    if (B == 0)
      return std::nullopt;
    return A / B;
  case BO_Rem:
    if (B == 0)
      return std::nullopt;
    return A % B;
  case BO_Shl:
    if (B < 0 || B > 62)
      return std::nullopt;
    return A << B;
  case BO_Shr:
    if (B < 0 || B > 62)
      return std::nullopt;
    return A >> B;
  case BO_And:
    return A & B;
  case BO_Or:
    return A | B;
  case BO_Xor:
    return A ^ B;
  default:
    return std::nullopt;
  }
}

std::optional<IndexValue> alignedSymbolOperator(BinaryOperatorKind Op,
                                                const IndexValue &L,
                                                const IndexValue &R) {
  if (!R.isConstant())
    return std::nullopt;
  int64_t B = R.Constant;
  int64_t A = L.Constant;
  // The low bits of a value whose symbols are multiples of a power of two
  // above the operand's are its constant's.
  auto PowerAbove = [](int64_t V) {
    int64_t P = 1;
    while (P <= V && P < (static_cast<int64_t>(1) << 40))
      P <<= 1;
    return P;
  };
  bool Symbolic = !L.isConstant();
  if (Symbolic && A < 0)
    return std::nullopt;
  switch (Op) {
  case BO_Div:
  case BO_Rem: {
    if (B <= 0)
      return std::nullopt;
    if (Symbolic && ((B & (B - 1)) != 0 || !L.symbolsMultipleOf(B)))
      return std::nullopt;
    if (Op == BO_Rem)
      return IndexValue::constant(A % B);
    IndexValue Out = L;
    for (auto &T : Out.Terms)
      T.second /= B;
    Out.Constant = A / B;
    return Out;
  }
  case BO_Shr: {
    if (B < 0 || B > 40)
      return std::nullopt;
    int64_t P = static_cast<int64_t>(1) << B;
    if (Symbolic && !L.symbolsMultipleOf(P))
      return std::nullopt;
    IndexValue Out = L;
    for (auto &T : Out.Terms)
      T.second /= P;
    Out.Constant = A >> B;
    return Out;
  }
  case BO_Shl:
    if (B < 0 || B > 40)
      return std::nullopt;
    return IndexValue(L).scale(static_cast<int64_t>(1) << B);
  case BO_And:
  case BO_Or:
  case BO_Xor: {
    if (B < 0)
      return std::nullopt;
    if (Symbolic && !L.symbolsMultipleOf(PowerAbove(B)))
      return std::nullopt;
    IndexValue Out = L;
    int64_t P = PowerAbove(B);
    int64_t High = Symbolic ? A - (A % P) : 0;
    int64_t Low = Symbolic ? A % P : A;
    if (Op == BO_And) {
      Out.Terms.clear();
      Out.Constant = Low & B;
    } else if (Op == BO_Or) {
      Out.Constant = High + (Low | B);
    } else {
      Out.Constant = High + (Low ^ B);
    }
    return Out;
  }
  default:
    return std::nullopt;
  }
}

// --- IndexEvaluator -----------------------------------------------------------

IndexEvaluator::IndexEvaluator(ASTContext &Ctx, IndexEvalRules Rules,
                               const FunctionDecl *Function,
                               const CallExpr *Call,
                               const FunctionDecl *Caller)
    : Ctx(Ctx), Rules(Rules), Function(Function), Call(Call), Caller(Caller) {}

IndexEvaluator::~IndexEvaluator() = default;

std::optional<IndexValue> IndexEvaluator::callValue(const Expr *,
                                                    const ThreadEnv &) {
  return std::nullopt;
}

unsigned IndexEvaluator::symbol(const void *Key, llvm::StringRef Name) {
  auto [It, New] =
      SymbolIds.try_emplace(Key, static_cast<unsigned>(SymbolNames.size()));
  if (New)
    SymbolNames.push_back(Name.str());
  return It->second;
}

unsigned IndexEvaluator::builtinSymbol(BuiltinIndexRead::Variable Var,
                                       unsigned Dim) {
  std::string Name =
      (builtinIndexName(Var) + "." + std::string(1, "xyz"[Dim])).str();
  // The builtins' symbols are keyed by their spelling's storage.
  return symbol(&BuiltinKeys[Var][Dim], Name);
}

std::optional<int64_t> IndexEvaluator::constant(const Expr *E) {
  auto [It, New] = Constants.try_emplace(E, std::nullopt);
  if (New && E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult Value;
    if (E->EvaluateAsInt(Value, Ctx) &&
        (Rules.WrapWideConstants ||
         Value.Val.getInt().getSignificantBits() <= 63))
      It->second = Value.Val.getInt().getExtValue();
  }
  return It->second;
}

std::optional<IndexValue> IndexEvaluator::eval(const Expr *E,
                                               const ThreadEnv &En,
                                               unsigned Depth) {
  if (!E || Depth > Rules.MaxDepth)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E)) {
    if (!Read->Component)
      return std::nullopt;
    unsigned Dim = Read->Component == 'y' ? 1 : Read->Component == 'z' ? 2 : 0;
    return builtin(Read->Var, Dim, En);
  }
  if (std::optional<int64_t> Value = constant(E))
    return IndexValue::constant(*Value);
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    if (Rules.CastsMustBeIntegral &&
        !Cast->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    return eval(Cast->getSubExpr(), En, Depth + 1);
  }
  if (isa<CallExpr, MemberExpr>(E))
    return callValue(E, En);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return variable(Ref, En, Depth);
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    std::optional<IndexValue> Sub = eval(Unary->getSubExpr(), En, Depth + 1);
    if (!Sub)
      return std::nullopt;
    switch (Unary->getOpcode()) {
    case UO_Plus:
      return Sub;
    case UO_Minus:
      return Sub->scale(-1);
    case UO_Not:
      if (!Sub->isConstant())
        return std::nullopt;
      return IndexValue::constant(~Sub->Constant);
    default:
      return std::nullopt;
    }
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E)) {
    std::optional<bool> Cond = truth(Conditional->getCond(), En, Depth + 1);
    if (!Cond)
      return std::nullopt;
    return eval(*Cond ? Conditional->getTrueExpr()
                      : Conditional->getFalseExpr(),
                En, Depth + 1);
  }
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary)
    return std::nullopt;
  if (Binary->isComparisonOp() || Binary->isLogicalOp()) {
    std::optional<bool> B = truth(Binary, En, Depth + 1);
    if (!B)
      return std::nullopt;
    return IndexValue::constant(*B);
  }
  std::optional<IndexValue> L = eval(Binary->getLHS(), En, Depth + 1);
  if (!L)
    return std::nullopt;
  std::optional<IndexValue> R = eval(Binary->getRHS(), En, Depth + 1);
  if (!R)
    return std::nullopt;
  switch (Binary->getOpcode()) {
  case BO_Add:
    return L->add(*R, 1);
  case BO_Sub:
    return L->add(*R, -1);
  case BO_Mul:
    if (R->isConstant())
      return L->scale(R->Constant);
    if (L->isConstant())
      return R->scale(L->Constant);
    return std::nullopt;
  default:
    return nonLinear(Binary->getOpcode(), *L, *R);
  }
}

std::optional<IndexValue>
IndexEvaluator::nonLinear(BinaryOperatorKind Op, const IndexValue &L,
                          const IndexValue &R) const {
  if (Rules.NonLinear == NonLinearOperators::KeepAlignedSymbols)
    return alignedSymbolOperator(Op, L, R);
  if (!L.isConstant() || !R.isConstant())
    return std::nullopt;
  if (std::optional<int64_t> V = foldConstantOperator(Op, L.Constant, R.Constant))
    return IndexValue::constant(*V);
  return std::nullopt;
}

std::optional<IndexValue> IndexEvaluator::variable(const DeclRefExpr *Ref,
                                                   const ThreadEnv &En,
                                                   unsigned Depth) {
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  if (const int64_t *Value = En.counter(Var))
    return IndexValue::constant(*Value);
  if (isMutated(Var))
    return std::nullopt;
  if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
    if (Call && Param->getDeclContext() == Function) {
      // A callee's parameter is the call's argument.
      unsigned Index = Param->getFunctionScopeIndex();
      if (Index >= Call->getNumArgs())
        return std::nullopt;
      return eval(Call->getArg(Index), En, Depth + 1);
    }
    if (isGridUniformParameter(Param))
      return IndexValue::symbol(symbol(Var, Var->getName()));
    return std::nullopt;
  }
  if (!Var->hasLocalStorage() || !Var->getInit())
    return std::nullopt;
  if (std::optional<IndexValue> Init = eval(Var->getInit(), En, Depth + 1))
    return Init;
  if (isBlockUniformLocal(Ref, Caller && Var->getDeclContext() == Caller))
    return IndexValue::symbol(symbol(Var, Var->getName()));
  return std::nullopt;
}

std::optional<bool> IndexEvaluator::truth(const Expr *E, const ThreadEnv &En,
                                          unsigned Depth) {
  if (!E || Depth > Rules.MaxDepth)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot) {
    std::optional<bool> Sub = truth(Not->getSubExpr(), En, Depth + 1);
    if (!Sub)
      return std::nullopt;
    return !*Sub;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->isLogicalOp()) {
      bool And = Binary->getOpcode() == BO_LAnd;
      std::optional<bool> L = truth(Binary->getLHS(), En, Depth + 1);
      if (L && *L != And)
        return L; // false && ..., true || ...
      std::optional<bool> R = truth(Binary->getRHS(), En, Depth + 1);
      if (R && *R != And)
        return R;
      if (L && R)
        return And;
      return std::nullopt;
    }
    if (Binary->isComparisonOp()) {
      std::optional<IndexValue> L = eval(Binary->getLHS(), En, Depth + 1);
      std::optional<IndexValue> R = eval(Binary->getRHS(), En, Depth + 1);
      // The symbols must cancel: then the constants decide.
      if (!L || !R || L->Terms != R->Terms)
        return std::nullopt;
      int64_t A = L->Constant;
      int64_t B = R->Constant;
      switch (Binary->getOpcode()) {
      case BO_LT:
        return A < B;
      case BO_GT:
        return A > B;
      case BO_LE:
        return A <= B;
      case BO_GE:
        return A >= B;
      case BO_EQ:
        return A == B;
      case BO_NE:
        return A != B;
      default:
        return std::nullopt;
      }
    }
  }
  if (Rules.TruthNeedsIntegralType && !E->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isBooleanType())
    return std::nullopt;
  std::optional<IndexValue> V = eval(E, En, Depth + 1);
  if (!V || !V->isConstant())
    return std::nullopt;
  return V->Constant != 0;
}

std::optional<std::vector<int64_t>>
IndexEvaluator::runLoop(const ForStmt *For, const VarDecl *Counter,
                        const ThreadEnv &En, const LoopRules &Loop) {
  const Expr *Init = nullptr;
  if (isa_and_nonnull<DeclStmt>(For->getInit()))
    Init = Counter->getInit();
  else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(For->getInit()))
    Init = Assign->getRHS();
  std::optional<IndexValue> Start = eval(Init, En);
  if (!Start || !Start->isConstant())
    return std::nullopt;
  ThreadEnv Inner = En;
  int64_t Value = Start->Constant;
  std::vector<int64_t> Values;
  for (unsigned I = 0; I <= Loop.MaxIterations; ++I) {
    Inner.setCounter(Counter, Value);
    std::optional<bool> Go = truth(For->getCond(), Inner);
    if (!Go)
      return std::nullopt;
    if (!*Go)
      return Values;
    if (I == Loop.MaxIterations) {
      if (Loop.KeepValuesAtCap)
        return Values;
      return std::nullopt;
    }
    Values.push_back(Value);
    const Expr *Inc = For->getInc()->IgnoreParenImpCasts();
    if (const auto *Unary = dyn_cast<UnaryOperator>(Inc);
        Unary && Unary->isIncrementDecrementOp()) {
      Value += Unary->isIncrementOp() ? 1 : -1;
      continue;
    }
    const auto *Step = Loop.AnyAssignmentToCounter
                           ? dyn_cast<BinaryOperator>(Inc)
                           : dyn_cast<CompoundAssignOperator>(Inc);
    if (!Step)
      return std::nullopt;
    if (Loop.AnyAssignmentToCounter) {
      const auto *Ref = dyn_cast<DeclRefExpr>(Step->getLHS()->IgnoreParens());
      if (!Ref || Ref->getDecl() != Counter)
        return std::nullopt;
    }
    std::optional<IndexValue> By = eval(Step->getRHS(), Inner);
    if (!By || !By->isConstant())
      return std::nullopt;
    int64_t B = By->Constant;
    switch (Step->getOpcode()) {
    case BO_AddAssign:
      Value += B;
      break;
    case BO_SubAssign:
      Value -= B;
      break;
    case BO_MulAssign:
      Value *= B;
      break;
    case BO_DivAssign:
      if (B == 0)
        return std::nullopt;
      Value /= B;
      break;
    case BO_ShrAssign:
      if (B < 0 || B > Loop.MaxShift)
        return std::nullopt;
      Value >>= B;
      break;
    case BO_ShlAssign:
      if (B < 0 || B > Loop.MaxShift)
        return std::nullopt;
      Value <<= B;
      break;
    case BO_Assign:
      Value = B;
      break;
    default:
      return std::nullopt;
    }
  }
  return Values;
}

// --- statements around an access ----------------------------------------------

const VarDecl *loopVariable(const ForStmt *For, bool AllowAssignedInit) {
  const VarDecl *Var = nullptr;
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (!Decl->isSingleDecl())
      return nullptr;
    Var = dyn_cast<VarDecl>(Decl->getSingleDecl());
    if (!Var || !Var->getInit())
      return nullptr;
  } else if (const auto *Assign =
                 dyn_cast_or_null<BinaryOperator>(For->getInit());
             Assign && AllowAssignedInit) {
    if (Assign->getOpcode() != BO_Assign)
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens());
    Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  }
  if (!Var || !For->getCond() || !For->getInc())
    return nullptr;
  return Var;
}

std::optional<std::pair<const Expr *, bool>>
branchCondition(const Stmt *Parent, const Stmt *Child) {
  if (const auto *If = dyn_cast<IfStmt>(Parent)) {
    // `if consteval` has no condition.
    if (If->getCond() && Child == If->getThen())
      return std::make_pair(If->getCond(), true);
    if (If->getCond() && Child == If->getElse())
      return std::make_pair(If->getCond(), false);
  } else if (const auto *Choice = dyn_cast<ConditionalOperator>(Parent)) {
    // `c ? s[i] : v` reads s[i] only where c holds.
    if (Child == Choice->getTrueExpr())
      return std::make_pair(Choice->getCond(), true);
    if (Child == Choice->getFalseExpr())
      return std::make_pair(Choice->getCond(), false);
  } else if (const auto *Logic = dyn_cast<BinaryOperator>(Parent);
             Logic && Logic->isLogicalOp() && Child == Logic->getRHS()) {
    // `c && s[i]` reads s[i] only where c holds; `c || s[i]` where not.
    return std::make_pair(Logic->getLHS(), Logic->getOpcode() == BO_LAnd);
  }
  return std::nullopt;
}

bool isPlainRead(const DeclRefExpr *Ref, const ParentMap &Parents) {
  const auto *Cast =
      dyn_cast_or_null<ImplicitCastExpr>(Parents.getParentIgnoreParens(Ref));
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

void addCapturedVariables(const LambdaExpr *Lambda,
                          llvm::DenseSet<const VarDecl *> &Into) {
  for (const LambdaCapture &Capture : Lambda->captures())
    if (Capture.capturesVariable())
      if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
        Into.insert(Var);
}

namespace {

/// \p Ref, or a `.` member access on it (however nested), is what an
/// assignment, a compound assignment or an increment or decrement changes.
bool isAssignedThrough(const DeclRefExpr *Ref, const ParentMap &Parents) {
  const Expr *Changed = Ref;
  const Stmt *Parent = Parents.getParentIgnoreParens(Ref);
  while (const auto *Member = dyn_cast_or_null<MemberExpr>(Parent)) {
    if (Member->isArrow() || Member->getBase()->IgnoreParens() != Changed)
      return false;
    Changed = Member;
    Parent = Parents.getParentIgnoreParens(Member);
  }
  if (!Parent)
    return false;
  if (const auto *Assign = dyn_cast<BinaryOperator>(Parent))
    return Assign->isAssignmentOp() &&
           Assign->getLHS()->IgnoreParens() == Changed;
  if (const auto *Step = dyn_cast<UnaryOperator>(Parent))
    return Step->isIncrementDecrementOp() &&
           Step->getSubExpr()->IgnoreParens() == Changed;
  if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(Parent)) {
    const OverloadedOperatorKind Op = Call->getOperator();
    const bool Changes = CXXOperatorCallExpr::isAssignmentOp(Op) ||
                         Op == OO_PlusPlus || Op == OO_MinusMinus;
    if (!Changes || Call->getNumArgs() < 1 ||
        Call->getArg(0)->IgnoreParens() != Changed)
      return false;
    // (An operator that takes its left side as const changes nothing.)
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return false;
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
      return !Method->isConst() && !Method->isStatic();
    if (Callee->getNumParams() < 1)
      return false;
    const QualType First = Callee->getParamDecl(0)->getType();
    return First->isLValueReferenceType() &&
           !First->getPointeeType().isConstQualified();
  }
  return false;
}

} // namespace

void addVariablesNotOnlyRead(
    const Stmt *Body, const ParentMap &Parents,
    llvm::DenseSet<const VarDecl *> &NotOnlyRead,
    llvm::DenseSet<const VarDecl *> *Assigned, bool WithArrays,
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 2>>
        *RefsOf) {
  struct Scan : RecursiveASTVisitor<Scan> {
    const ParentMap &Parents;
    llvm::DenseSet<const VarDecl *> &NotOnlyRead;
    llvm::DenseSet<const VarDecl *> *Assigned;
    bool WithArrays;
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 2>>
        *RefsOf;
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || (!WithArrays && Var->getType()->isArrayType()) ||
          isPlainRead(Ref, Parents))
        return true;
      NotOnlyRead.insert(Var);
      if (Assigned && isAssignedThrough(Ref, Parents))
        Assigned->insert(Var);
      if (RefsOf)
        (*RefsOf)[Var].push_back(Ref);
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *Lambda) {
      addCapturedVariables(Lambda, NotOnlyRead);
      return true;
    }
  } Walk{{}, Parents, NotOnlyRead, Assigned, WithArrays, RefsOf};
  Walk.TraverseStmt(const_cast<Stmt *>(Body));
}

// --- warp-scope synchronisation -----------------------------------------------

std::vector<const CallExpr *> callsIn(const Stmt *Body) {
  struct Calls : RecursiveASTVisitor<Calls> {
    std::vector<const CallExpr *> Found;
    bool VisitCallExpr(CallExpr *C) {
      Found.push_back(C);
      return true;
    }
  } Scan;
  Scan.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(Scan.Found);
}

bool WarpSyncCalls::isWarpSync(const CallExpr *Call, unsigned Depth) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  if (const IdentifierInfo *Name = Callee->getIdentifier()) {
    if (isSyncWarpName(Name->getName()))
      return true;
    // A cooperative group's sync(), or cooperative_groups::sync(group).
    if (Name->getName() == "sync" &&
        (isa<CXXMemberCallExpr>(Call) || Call->getNumArgs() == 1) &&
        isInCooperativeGroupsNamespace(Callee))
      return true;
  }
  if (asBarrierCall(Call))
    return true;
  if (Summaries)
    if (const CallSummary *Summary = Summaries->summary(Callee))
      if (llvm::any_of(Summary->Barriers, [](const BarrierSite &S) {
            return S.BarrierScope >= Scope::Block;
          }))
        return true;
  // A function of the program that runs one.
  if (Depth > 3 || !Callee->hasBody())
    return false;
  const FunctionDecl *Def = Callee->getDefinition();
  auto [It, New] = Syncs.try_emplace(Def, false);
  if (!New)
    return It->second;
  bool Runs = llvm::any_of(callsIn(Def->getBody()), [&](const CallExpr *C) {
    return isWarpSync(C, Depth + 1);
  });
  Syncs[Def] = Runs;
  return Runs;
}

} // namespace clang::tidy::cuda::analysis
