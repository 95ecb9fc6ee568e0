//===--- LaunchShape.cpp - what a TU tells about a kernel's block shape ---===//

#include "checks/analysis/launch/LaunchShape.h"

#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/launch/KernelLaunch.h"
#include "checks/analysis/divergence/ThreadIndexEval.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace clang::tidy::cuda::analysis {

namespace {

constexpr uint64_t MaxFactor = static_cast<uint64_t>(1) << 31;
constexpr unsigned MaxDepth = 8;

uint64_t powerOfTwoPart(uint64_t V) {
  if (V == 0)
    return MaxFactor;
  return std::min<uint64_t>(V & (~V + 1), MaxFactor);
}

bool isDim3(QualType T) {
  if (const CXXRecordDecl *Record =
          T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl())
    return isDim3Record(Record);
  return false;
}

const Expr *stripTemporaries(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temporary->getSubExpr();
    else if (const auto *Full = dyn_cast<FullExpr>(E))
      E = Full->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else
      return E;
  }
}

/// Whether a local is changed in its function, answered once per variable
/// and with one ExprMutationAnalyzer per function body (its memo is what
/// keeps repeated questions linear: a TU with many launches and template
/// instances asked about the same locals thousands of times, each time
/// with a fresh analyzer, and cuda-samples' reduction_kernel.cu took more
/// than 15 minutes). One cache per ASTContext, freed with it.
class MutationCache {
public:
  static MutationCache &of(ASTContext &Ctx) {
    static std::mutex Lock;
    static std::map<const ASTContext *, MutationCache *> Live;
    std::scoped_lock Guard(Lock);
    MutationCache *&Slot = Live[&Ctx];
    if (!Slot) {
      Slot = new MutationCache(Ctx);
      Ctx.AddDeallocation(
          [](void *Data) {
            auto *Cache = static_cast<MutationCache *>(Data);
            {
              std::scoped_lock Inner(Lock);
              Live.erase(&Cache->Ctx);
            }
            delete Cache;
          },
          Slot);
    }
    return *Slot;
  }

  bool isMutated(const VarDecl *Var, const Stmt &Body) {
    auto [It, New] = Mutated.try_emplace(Var, true);
    if (!New)
      return It->second;
    // The analyzer's matchers walk the whole body for every reference of
    // every variable asked about, and a host function with many locals and
    // instantiations (ggml's binbcast.cu: 23 instances of one launcher,
    // each with 15 locals handed to a variadic launch helper) spent 50 s
    // in them. Three answers need no walk of the body: a variable whose
    // every reference in it is a plain read is not changed there; one the
    // body assigns (as a whole or a member of it: `block.x = n`, as ggml
    // sets its dim3 locals) is; and the others are asked about each
    // reference within its own statement (statementsMutate).
    const References &Refs = references(Body);
    if (!Var->getType()->isReferenceType()) {
      if (!Refs.NotOnlyRead.contains(Var)) {
        It->second = false;
        return false;
      }
      if (Refs.Assigned.contains(Var))
        return true;
      if (std::optional<bool> Local = statementsMutate(Var, Refs)) {
        It->second = *Local;
        return *Local;
      }
    }
    std::unique_ptr<ExprMutationAnalyzer> &Analyzer = Analyzers[&Body];
    if (!Analyzer)
      Analyzer = std::make_unique<ExprMutationAnalyzer>(Body, Ctx);
    It->second = Analyzer->isMutated(Var);
    return It->second;
  }

private:
  explicit MutationCache(ASTContext &Ctx) : Ctx(Ctx) {}

  /// What one walk of a body finds (addVariablesNotOnlyRead).
  struct References {
    std::unique_ptr<ParentMap> Parents;
    llvm::DenseSet<const VarDecl *> NotOnlyRead;
    llvm::DenseSet<const VarDecl *> Assigned;
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 2>>
        RefsOf;
  };
  const References &references(const Stmt &Body) {
    auto [It, New] = Bodies.try_emplace(&Body);
    if (New) {
      It->second.Parents =
          std::make_unique<ParentMap>(const_cast<Stmt *>(&Body));
      addVariablesNotOnlyRead(&Body, *It->second.Parents,
                              It->second.NotOnlyRead, &It->second.Assigned,
                              /*WithArrays=*/true, &It->second.RefsOf);
    }
    return It->second;
  }

  /// Whether the analyzer finds \p Var changed by one of its references
  /// that are not plain reads, each asked about within the statement of
  /// its block that holds it (its call, its assignment, its loop), or
  /// nullopt when that would not be the answer over the whole body: a
  /// reference inside a declaration may be bound to a reference or a
  /// pointer that a later statement changes it through. Anything else a
  /// reference gives (a non-const address, an argument the callee may
  /// change, a non-const member call, a lambda that changes it) the
  /// analyzer sees in that statement. The callees' answers are kept for
  /// the whole TU (one ExprMutationAnalyzer::Memoized).
  std::optional<bool> statementsMutate(const VarDecl *Var,
                                       const References &Refs) {
    auto Found = Refs.RefsOf.find(Var);
    if (Found == Refs.RefsOf.end())
      return std::nullopt; // (captured by a lambda only)
    llvm::SmallVector<const Stmt *, 4> Statements;
    for (const DeclRefExpr *Ref : Found->second) {
      const Stmt *Statement = Ref;
      const Stmt *Parent = Refs.Parents->getParent(Ref);
      while (Parent && !isa<CompoundStmt>(Parent)) {
        if (isa<DeclStmt>(Parent) || isa<LambdaExpr>(Parent))
          return std::nullopt;
        Statement = Parent;
        Parent = Refs.Parents->getParent(Parent);
      }
      if (!Parent || isa<DeclStmt>(Statement))
        return std::nullopt;
      Statements.push_back(Statement);
    }
    for (size_t I = 0; I < Statements.size(); ++I) {
      ExprMutationAnalyzer::Analyzer InStatement(*Statements[I], Ctx,
                                                  StatementMemo);
      if (InStatement.findMutation(Found->second[I]))
        return true;
    }
    return false;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const Stmt *, std::unique_ptr<ExprMutationAnalyzer>>
      Analyzers;
  llvm::DenseMap<const Stmt *, References> Bodies;
  ExprMutationAnalyzer::Memoized StatementMemo;
  llvm::DenseMap<const VarDecl *, bool> Mutated;
};

/// The value a variable holds wherever it is read: a constant's
/// initializer, or a local's when nothing in its function changes it.
const Expr *singleValue(const VarDecl *Var, ASTContext &Ctx) {
  const Expr *Init = Var->getInit();
  if (!Init || isa<ParmVarDecl>(Var))
    return nullptr;
  if (Var->isConstexpr() || Var->getType().isConstQualified())
    return Init;
  if (!Var->hasLocalStorage())
    return nullptr;
  const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!Function || !Function->getBody())
    return nullptr;
  return MutationCache::of(Ctx).isMutated(Var, *Function->getBody()) ? nullptr
                                                                     : Init;
}

uint64_t integerFactor(const Expr *E, ASTContext &Ctx, unsigned Depth);

/// The calls of the runtime's occupancy calculator whose second argument
/// receives a block size. cuda_runtime.h tries sizes in steps of warpSize
/// (`granularity = warpSize`), starting at the block-size limit (argument 4,
/// 0 by default, meaning the device's or the kernel's maximum).
bool isOccupancyBlockSizeCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return false;
  return isRuntimeBlockSizeSearch(Callee->getName());
}

/// The first size such a call tries is the smallest of its limit, the
/// kernel's __launch_bounds__ maximum and the device's (1024); every later
/// one is a multiple of 32. So the result is a multiple of 32 when the limit
/// is 0 or a multiple of 32 and so is the kernel's bound, if it has one.
bool occupancyStepsInWarps(const CallExpr *Call, ASTContext &Ctx) {
  if (Call->getNumArgs() < 3)
    return false;
  if (Call->getNumArgs() > 4) {
    Expr::EvalResult Limit;
    const Expr *LimitArg = Call->getArg(4);
    if (LimitArg->isValueDependent() || !LimitArg->EvaluateAsInt(Limit, Ctx) ||
        Limit.Val.getInt().getExtValue() % 32 != 0)
      return false;
  }
  const Expr *KernelArg = Call->getArg(2)->IgnoreParenImpCasts();
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(KernelArg);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf)
    KernelArg = AddrOf->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(KernelArg);
  const auto *Kernel = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  if (!Kernel)
    return false;
  if (const auto *Bounds = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult Max;
    const Expr *MaxThreads = Bounds->getMaxThreads();
    if (!MaxThreads || MaxThreads->isValueDependent() ||
        !MaxThreads->EvaluateAsInt(Max, Ctx) ||
        Max.Val.getInt().getExtValue() % 32 != 0)
      return false;
  }
  return true;
}

/// A local whose only writes are its initializer and the block-size output
/// of occupancy calls that step in warps (`int threads = 0;
/// cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, kernel, 0, 0);`):
/// 32, or its initializer's factor if smaller. 1 when anything else writes
/// it, takes its address or binds a reference to it.
uint64_t occupancyOutputFactor(const VarDecl *Var, ASTContext &Ctx,
                               unsigned Depth) {
  if (!Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !Var->getType()->isIntegerType())
    return 1;
  const auto *Function = dyn_cast<FunctionDecl>(Var->getDeclContext());
  if (!Function || !Function->getBody())
    return 1;
  struct UseScan : RecursiveASTVisitor<UseScan> {
    const VarDecl *Var;
    ASTContext &Ctx;
    bool Written = false;
    bool Other = false;
    UseScan(const VarDecl *Var, ASTContext &Ctx) : Var(Var), Ctx(Ctx) {}
    bool VisitDeclRefExpr(DeclRefExpr *Ref) {
      if (Ref->getDecl() != Var)
        return true;
      DynTypedNodeList Parents = Ctx.getParents(*Ref);
      if (Parents.size() != 1) {
        Other = true;
        return true;
      }
      if (const auto *Cast = Parents[0].get<ImplicitCastExpr>();
          Cast && Cast->getCastKind() == CK_LValueToRValue)
        return true;
      const auto *AddrOf = Parents[0].get<UnaryOperator>();
      if (AddrOf && AddrOf->getOpcode() == UO_AddrOf) {
        // Up through the casts of an argument to the call that takes it.
        const Expr *Argument = AddrOf;
        const CallExpr *Call = nullptr;
        while (true) {
          DynTypedNodeList Outer = Ctx.getParents(*Argument);
          if (Outer.size() != 1)
            break;
          Call = Outer[0].get<CallExpr>();
          if (Call)
            break;
          const auto *Up = Outer[0].get<Expr>();
          if (!Up || !(isa<ImplicitCastExpr>(Up) || isa<ParenExpr>(Up)))
            break;
          Argument = Up;
        }
        if (Call && isOccupancyBlockSizeCall(Call) && Call->getNumArgs() > 1 &&
            Call->getArg(1)->IgnoreParenImpCasts() == AddrOf &&
            occupancyStepsInWarps(Call, Ctx)) {
          Written = true;
          return true;
        }
      }
      Other = true;
      return true;
    }
  } Scan(Var, Ctx);
  Scan.TraverseStmt(Function->getBody());
  if (!Scan.Written || Scan.Other)
    return 1;
  uint64_t Initial = Var->getInit()
                         ? integerFactor(Var->getInit(), Ctx, Depth + 1)
                         : MaxFactor;
  return std::min<uint64_t>(Initial, 32);
}

uint64_t dim3Factor(const Expr *E, ASTContext &Ctx, unsigned Depth) {
  if (Depth > MaxDepth)
    return 1;
  E = stripTemporaries(E);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return 1;
    const Expr *X = Construct->getArg(0);
    if (isa<CXXDefaultArgExpr>(X))
      return 1;
    if (isDim3(X->getType()))
      return dim3Factor(X, Ctx, Depth + 1);
    return integerFactor(X, Ctx, Depth + 1);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleValue(Var, Ctx))
        return dim3Factor(Init, Ctx, Depth + 1);
  return 1;
}

/// The expression a block argument's x extent is, through dim3
/// constructions and locals with one value; \p E itself for an integer.
const Expr *blockXOf(const Expr *E, ASTContext &Ctx, unsigned Depth = 0) {
  if (Depth > MaxDepth)
    return nullptr;
  E = stripTemporaries(E);
  if (!isDim3(E->getType()))
    return E;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0 ||
        isa<CXXDefaultArgExpr>(Construct->getArg(0)))
      return nullptr;
    return blockXOf(Construct->getArg(0), Ctx, Depth + 1);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleValue(Var, Ctx))
        return blockXOf(Init, Ctx, Depth + 1);
  return nullptr;
}

/// One extent of a block argument: the expression it is, through dim3
/// constructions, copies and locals with one value; or \p IsOne when it is 1
/// by construction (an integer block's y and z, a defaulted dim3 argument).
/// nullptr, IsOne false: not known.
const Expr *blockComponentOf(const Expr *E, unsigned Dim, bool &IsOne,
                             ASTContext &Ctx, unsigned Depth = 0) {
  if (Depth > MaxDepth)
    return nullptr;
  E = stripTemporaries(E);
  if (!isDim3(E->getType())) {
    if (Dim == 0)
      return E;
    IsOne = E->getType()->isIntegralOrEnumerationType();
    return nullptr;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 1 &&
        isDim3(Construct->getArg(0)->getType()))
      return blockComponentOf(Construct->getArg(0), Dim, IsOne, Ctx,
                              Depth + 1);
    if (Dim >= Construct->getNumArgs() ||
        isa<CXXDefaultArgExpr>(Construct->getArg(Dim))) {
      // dim3's constructor defaults every extent to 1.
      IsOne = Construct->getConstructor() &&
              !Construct->getConstructor()->isCopyOrMoveConstructor();
      return nullptr;
    }
    return Construct->getArg(Dim);
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleValue(Var, Ctx))
        return blockComponentOf(Init, Dim, IsOne, Ctx, Depth + 1);
  return nullptr;
}

/// The constant an extent expression has, through locals with one value.
std::optional<uint64_t> exactValue(const Expr *E, ASTContext &Ctx,
                                   unsigned Depth = 0) {
  if (Depth > MaxDepth)
    return std::nullopt;
  E = stripTemporaries(E);
  if (E->isValueDependent() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult Result;
  if (E->EvaluateAsInt(Result, Ctx)) {
    const llvm::APSInt &V = Result.Val.getInt();
    if (V.isNegative() || V.getActiveBits() > 32)
      return std::nullopt;
    return V.getZExtValue();
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return exactValue(Cast->getSubExpr(), Ctx, Depth + 1);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleValue(Var, Ctx))
        return exactValue(Init, Ctx, Depth + 1);
  return std::nullopt;
}

/// A launch whose block is a known number of threads wide that is not a
/// multiple of 32: its rows straddle warps.
bool isKnownUnaligned(const Expr *Block, ASTContext &Ctx) {
  const Expr *X = Block ? blockXOf(Block, Ctx) : nullptr;
  Expr::EvalResult Width;
  if (!X || X->isValueDependent() || !X->EvaluateAsInt(Width, Ctx))
    return false;
  return Width.Val.getInt().getExtValue() % 32 != 0;
}

uint64_t integerFactor(const Expr *E, ASTContext &Ctx, unsigned Depth) {
  if (Depth > MaxDepth)
    return 1;
  E = stripTemporaries(E);
  if (E->isValueDependent() || E->isTypeDependent())
    return 1;
  if (isDim3(E->getType()))
    return dim3Factor(E, Ctx, Depth + 1);
  if (E->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Ctx)) {
      const llvm::APSInt &V = Result.Val.getInt();
      if (V.isNegative() || V.getActiveBits() > 63)
        return 1;
      return powerOfTwoPart(V.getZExtValue());
    }
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    uint64_t L = integerFactor(Binary->getLHS(), Ctx, Depth + 1);
    switch (Binary->getOpcode()) {
    case BO_Mul:
      return std::min<uint64_t>(
          L * integerFactor(Binary->getRHS(), Ctx, Depth + 1), MaxFactor);
    case BO_Shl: {
      Expr::EvalResult Shift;
      if (Binary->getRHS()->EvaluateAsInt(Shift, Ctx) &&
          !Shift.Val.getInt().isNegative() &&
          Shift.Val.getInt().getZExtValue() < 32)
        return std::min<uint64_t>(L << Shift.Val.getInt().getZExtValue(),
                                  MaxFactor);
      return L;
    }
    case BO_Add:
    case BO_Sub:
      return std::min(L, integerFactor(Binary->getRHS(), Ctx, Depth + 1));
    case BO_Div: {
      // An exact division by a power of two: a multiple of 2^(a + k) over
      // 2^k is a multiple of 2^a (llm.c's `block_size / WARP_SIZE` with
      // block_size 768 or 1024 is a multiple of 8).
      Expr::EvalResult Divisor;
      if (!Binary->getRHS()->EvaluateAsInt(Divisor, Ctx) ||
          !Divisor.Val.getInt().isStrictlyPositive() ||
          Divisor.Val.getInt().getActiveBits() > 32)
        return 1;
      uint64_t D = Divisor.Val.getInt().getZExtValue();
      if (!llvm::isPowerOf2_64(D) || L < D)
        return 1;
      return L / D;
    }
    default:
      return 1;
    }
  }
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E))
    return std::min(integerFactor(Conditional->getTrueExpr(), Ctx, Depth + 1),
                    integerFactor(Conditional->getFalseExpr(), Ctx, Depth + 1));
  // `(unsigned)block_size`: a conversion between integer types keeps the
  // factors below 2^31 that both can hold.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
      Cast && Cast->getSubExpr()->getType()->isIntegralOrEnumerationType())
    return integerFactor(Cast->getSubExpr(), Ctx, Depth + 1);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      // Its initializer's factor when nothing changes it, else what the
      // occupancy calls give it. Whether anything changes it is the costly
      // question (MutationCache): not asked when both answers are 1, as
      // they are for most kernel arguments (ggml hands a launch helper 15
      // strides at a time).
      const Expr *Init = Var->getInit();
      const uint64_t FromInit =
          Init ? integerFactor(Init, Ctx, Depth + 1) : 1;
      const uint64_t FromOccupancy = occupancyOutputFactor(Var, Ctx, Depth);
      if (FromInit == 1 && FromOccupancy == 1)
        return 1;
      return singleValue(Var, Ctx) ? FromInit : FromOccupancy;
    }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1)
      return integerFactor(Construct->getArg(0), Ctx, Depth + 1);
  return 1;
}

bool isBlockDimX(const Expr *E) {
  std::optional<BuiltinIndexRead> Read =
      asBuiltinIndexRead(E->IgnoreParenImpCasts());
  return Read && Read->Var == BuiltinIndexRead::BlockDim &&
         Read->Component == 'x';
}

bool isWarpMultiple(const Expr *E, ASTContext &Ctx) {
  return integerFactor(E, Ctx, 0) % 32 == 0;
}

/// blockDim.x % C or blockDim.x & (C - 1), with C a multiple of 32: zero
/// exactly when rows hold whole warps.
bool isRowRemainder(const Expr *E, ASTContext &Ctx) {
  const auto *Binary = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!Binary || !isBlockDimX(Binary->getLHS()))
    return false;
  if (Binary->getOpcode() == BO_Rem)
    return isWarpMultiple(Binary->getRHS(), Ctx);
  if (Binary->getOpcode() == BO_And) {
    Expr::EvalResult Mask;
    if (!Binary->getRHS()->EvaluateAsInt(Mask, Ctx))
      return false;
    uint64_t M = Mask.Val.getInt().getZExtValue();
    return M >= 31 && (M & 31) == 31 && ((M + 1) & M) == 0;
  }
  return false;
}

bool isZero(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult Value;
  return E->EvaluateAsInt(Value, Ctx) && Value.Val.getInt() == 0;
}

/// Does \p Condition having the truth value \p Holds imply that
/// blockDim.x is a multiple of 32?
bool implies(const Expr *Condition, bool Holds, ASTContext &Ctx) {
  const Expr *E = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    return implies(Not->getSubExpr(), !Holds, Ctx);
  if (const auto *Cast = dyn_cast<CXXStaticCastExpr>(E))
    return implies(Cast->getSubExpr(), Holds, Ctx);
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary) {
    // `if (blockDim.x % 32) return;`: a false remainder is a zero one.
    return !Holds && isRowRemainder(E, Ctx);
  }
  BinaryOperatorKind Op = Binary->getOpcode();
  const Expr *L = Binary->getLHS();
  const Expr *R = Binary->getRHS();
  if (Op == BO_LAnd)
    return Holds && (implies(L, true, Ctx) || implies(R, true, Ctx));
  if (Op == BO_LOr)
    return !Holds && (implies(L, false, Ctx) || implies(R, false, Ctx));
  bool Equal = (Op == BO_EQ && Holds) || (Op == BO_NE && !Holds);
  if (!Equal)
    return false;
  if (isBlockDimX(L) && isWarpMultiple(R, Ctx))
    return true;
  if (isBlockDimX(R) && isWarpMultiple(L, Ctx))
    return true;
  return (isRowRemainder(L, Ctx) && isZero(R, Ctx)) ||
         (isRowRemainder(R, Ctx) && isZero(L, Ctx));
}

/// A call that does not come back: assert's failure path, __trap(), abort().
bool isNoReturnCall(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!Call)
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  if (Callee->isNoReturn())
    return true;
  return isUnmarkedDeviceStop(Callee);
}

/// A statement that leaves the kernel: return, a call that does not come
/// back, `asm("trap;")`, or a block ending in one.
bool leavesKernel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    return !Block->body_empty() && leavesKernel(Block->body_back());
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return llvm::StringRef(Asm->getAsmString()).contains("trap");
  if (const auto *E = dyn_cast<Expr>(S))
    return isNoReturnCall(E);
  return false;
}

/// One statement of a kernel body that stops every thread for which
/// \p Implies(condition, truth value) does not hold: `assert(c)` (a `?:`
/// whose false arm does not return), `if (!c) return;` and its trapping
/// variants.
bool stopsUnless(const Stmt *S, ASTContext &Ctx,
                 llvm::function_ref<bool(const Expr *, bool)> Implies) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() && If->getCond() && leavesKernel(If->getThen()) &&
           Implies(If->getCond(), false);
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    // A multi-statement assert macro: do { ... } while (0).
    if (!isZero(Do->getCond(), Ctx))
      return false;
    const auto *Body = dyn_cast<CompoundStmt>(Do->getBody());
    return Body && llvm::any_of(Body->body(), [&](const Stmt *Inner) {
             return stopsUnless(Inner, Ctx, Implies);
           });
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *Stripped = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<CastExpr>(Stripped))
      Stripped = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(Stripped))
      return isNoReturnCall(Conditional->getFalseExpr()) &&
             Implies(Conditional->getCond(), true);
    if (const auto *Or = dyn_cast<BinaryOperator>(Stripped);
        Or && Or->getOpcode() == BO_LOr)
      // `(cond) || (__assert_fail(...), 0)` spellings.
      return Implies(Or->getLHS(), true) &&
             (isNoReturnCall(Or->getRHS()) ||
              (isa<BinaryOperator>(Or->getRHS()->IgnoreParenImpCasts()) &&
               isNoReturnCall(cast<BinaryOperator>(
                                  Or->getRHS()->IgnoreParenImpCasts())
                                  ->getLHS())));
  }
  return false;
}

/// One statement of a kernel body that lets only warp-aligned rows past:
/// `assert(blockDim.x == 32)`, `if (blockDim.x != 32) return;`.
bool checksWarpAlignedRows(const Stmt *S, ASTContext &Ctx) {
  return stopsUnless(S, Ctx, [&](const Expr *Condition, bool Holds) {
    return implies(Condition, Holds, Ctx);
  });
}

/// Does \p Condition having the truth value \p Holds fix blockDim's
/// component \p Dim to a constant? Sets \p Value to it.
bool impliesExtent(const Expr *Condition, bool Holds, char Dim,
                   uint64_t &Value, ASTContext &Ctx) {
  const Expr *E = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    return impliesExtent(Not->getSubExpr(), !Holds, Dim, Value, Ctx);
  if (const auto *Cast = dyn_cast<CXXStaticCastExpr>(E))
    return impliesExtent(Cast->getSubExpr(), Holds, Dim, Value, Ctx);
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary)
    return false;
  BinaryOperatorKind Op = Binary->getOpcode();
  if (Op == BO_LAnd && Holds)
    return impliesExtent(Binary->getLHS(), true, Dim, Value, Ctx) ||
           impliesExtent(Binary->getRHS(), true, Dim, Value, Ctx);
  if (Op == BO_LOr && !Holds)
    return impliesExtent(Binary->getLHS(), false, Dim, Value, Ctx) ||
           impliesExtent(Binary->getRHS(), false, Dim, Value, Ctx);
  bool Equal = (Op == BO_EQ && Holds) || (Op == BO_NE && !Holds);
  if (!Equal)
    return false;
  auto IsExtent = [&](const Expr *Side) {
    std::optional<BuiltinIndexRead> Read =
        asBuiltinIndexRead(Side->IgnoreParenImpCasts());
    return Read && Read->Var == BuiltinIndexRead::BlockDim &&
           Read->Component == Dim;
  };
  for (auto [Extent, Other] : {std::pair(Binary->getLHS(), Binary->getRHS()),
                               std::pair(Binary->getRHS(), Binary->getLHS())})
    if (IsExtent(Extent))
      if (std::optional<uint64_t> Constant = exactValue(Other, Ctx)) {
        Value = *Constant;
        return true;
      }
  return false;
}

/// The extent a kernel's body fixes for blockDim's component \p Dim: a
/// top-level `assert(blockDim.x == 4)` or `if (blockDim.x != 4) return;`.
std::optional<uint64_t> bodyChecksExtent(const FunctionDecl *Kernel, char Dim,
                                         ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return std::nullopt;
  for (const Stmt *S : Body->body()) {
    uint64_t Value = 0;
    if (stopsUnless(S, Ctx, [&](const Expr *Condition, bool Holds) {
          return impliesExtent(Condition, Holds, Dim, Value, Ctx);
        }))
      return Value;
  }
  return std::nullopt;
}

/// The power-of-two factor of \p Var that \p Condition having the truth
/// value \p Holds implies: `Var % C == 0` (C's power-of-two part), the same
/// through `!`, `&&` and `||`, `(Var & (2^k - 1)) == 0`. 1 when nothing.
uint64_t impliedFactor(const Expr *Condition, bool Holds, const VarDecl *Var,
                       ASTContext &Ctx) {
  const Expr *E = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    return impliedFactor(Not->getSubExpr(), !Holds, Var, Ctx);
  if (const auto *Cast = dyn_cast<CXXStaticCastExpr>(E))
    return impliedFactor(Cast->getSubExpr(), Holds, Var, Ctx);
  auto IsVar = [&](const Expr *Operand) {
    const auto *Ref = dyn_cast<DeclRefExpr>(Operand->IgnoreParenImpCasts());
    return Ref && Ref->getDecl() == Var;
  };
  // `Var % C` or `Var & (2^k - 1)`, zero exactly when Var has the factor.
  auto RemainderFactor = [&](const Expr *Operand) -> uint64_t {
    const auto *Binary =
        dyn_cast<BinaryOperator>(Operand->IgnoreParenImpCasts());
    if (!Binary || !IsVar(Binary->getLHS()))
      return 1;
    Expr::EvalResult C;
    if (!Binary->getRHS()->EvaluateAsInt(C, Ctx) || C.Val.getInt().isNegative() ||
        C.Val.getInt().getActiveBits() > 63)
      return 1;
    uint64_t Value = C.Val.getInt().getZExtValue();
    if (Binary->getOpcode() == BO_Rem)
      return Value ? powerOfTwoPart(Value) : 1;
    if (Binary->getOpcode() == BO_And && ((Value + 1) & Value) == 0)
      return std::min<uint64_t>(Value + 1, MaxFactor);
    return 1;
  };
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary)
    // `if (n % 32) abort();`: a false remainder is a zero one.
    return Holds ? 1 : RemainderFactor(E);
  BinaryOperatorKind Op = Binary->getOpcode();
  const Expr *L = Binary->getLHS();
  const Expr *R = Binary->getRHS();
  if (Op == BO_LAnd && Holds)
    return std::max(impliedFactor(L, true, Var, Ctx),
                    impliedFactor(R, true, Var, Ctx));
  if (Op == BO_LOr && !Holds)
    return std::max(impliedFactor(L, false, Var, Ctx),
                    impliedFactor(R, false, Var, Ctx));
  bool Equal = (Op == BO_EQ && Holds) || (Op == BO_NE && !Holds);
  if (!Equal)
    return 1;
  if (isZero(R, Ctx))
    return RemainderFactor(L);
  if (isZero(L, Ctx))
    return RemainderFactor(R);
  return 1;
}

/// What one statement guarantees before the code after it runs, as told by
/// \p Implied (a condition and the truth value it must have to get past):
/// `assert(c)` (a `?:` or `||` whose failing arm does not return),
/// `if (!c) return/abort();` (GGML_ASSERT), and the `do { ... } while (0)`
/// forms. Returns the largest factor any of them implies, 1 for none.
uint64_t ensuredFactor(const Stmt *S,
                       llvm::function_ref<uint64_t(const Expr *, bool)> Implied,
                       ASTContext &Ctx) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() && If->getCond() && leavesKernel(If->getThen())
               ? Implied(If->getCond(), false)
               : 1;
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    if (!isZero(Do->getCond(), Ctx))
      return 1;
    const auto *Body = dyn_cast<CompoundStmt>(Do->getBody());
    uint64_t Best = 1;
    if (Body)
      for (const Stmt *Inner : Body->body())
        Best = std::max(Best, ensuredFactor(Inner, Implied, Ctx));
    return Best;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *Stripped = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<CastExpr>(Stripped))
      Stripped = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(Stripped))
      return isNoReturnCall(Conditional->getFalseExpr())
                 ? Implied(Conditional->getCond(), true)
                 : 1;
    if (const auto *Or = dyn_cast<BinaryOperator>(Stripped);
        Or && Or->getOpcode() == BO_LOr) {
      const Expr *Fail = Or->getRHS()->IgnoreParenImpCasts();
      if (const auto *Comma = dyn_cast<BinaryOperator>(Fail))
        Fail = Comma->getLHS();
      return isNoReturnCall(Fail) ? Implied(Or->getLHS(), true) : 1;
    }
  }
  return 1;
}

/// The statement of \p Body's top level that holds \p At, or null.
const Stmt *topLevelStatementHolding(const CompoundStmt *Body, const Stmt *At,
                                     const SourceManager &SM) {
  SourceLocation Where = SM.getExpansionLoc(At->getBeginLoc());
  for (const Stmt *S : Body->body()) {
    SourceLocation Begin = SM.getExpansionLoc(S->getBeginLoc());
    SourceLocation End = SM.getExpansionLoc(S->getEndLoc());
    if (!SM.isBeforeInTranslationUnit(Where, Begin) &&
        !SM.isBeforeInTranslationUnit(End, Where))
      return S;
  }
  return nullptr;
}

/// The factor a whole-value write of \p Var gives it, when \p S is one:
/// `v = e` (e's factor), `v *= e` (at least e's), `v <<= k` (2^k). nullopt
/// when \p S is no such statement.
std::optional<uint64_t> wholeWriteFactor(const Stmt *S, const VarDecl *Var,
                                         ASTContext &Ctx) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *Assign =
      E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
  if (!Assign || !Assign->isAssignmentOp())
    return std::nullopt;
  const auto *Target =
      dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts());
  if (!Target || Target->getDecl() != Var)
    return std::nullopt;
  switch (Assign->getOpcode()) {
  case BO_Assign:
  case BO_MulAssign:
    return integerFactor(Assign->getRHS(), Ctx, 0);
  case BO_ShlAssign: {
    Expr::EvalResult Shift;
    if (Assign->getRHS()->EvaluateAsInt(Shift, Ctx) &&
        !Shift.Val.getInt().isNegative() &&
        Shift.Val.getInt().getZExtValue() < 31)
      return static_cast<uint64_t>(1) << Shift.Val.getInt().getZExtValue();
    return 1;
  }
  default:
    return 1;
  }
}

/// \p Var's address is taken, or a non-const reference or a by-reference
/// lambda capture is bound to it, somewhere in \p Body: a statement may then
/// change it without naming it.
class AliasedLocal : public RecursiveASTVisitor<AliasedLocal> {
public:
  AliasedLocal(const VarDecl *Var, const Stmt *Body)
      : Var(Var), Parents(const_cast<Stmt *>(Body)) {}
  bool Found = false;
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() != Var)
      return true;
    const Stmt *Parent = Parents.getParentIgnoreParenImpCasts(Ref);
    if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Parent);
        Unary && Unary->getOpcode() == UO_AddrOf)
      Found = true;
    if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Parent))
      for (const class Decl *D : Decl->decls())
        if (const auto *Bound = dyn_cast<VarDecl>(D);
            Bound && Bound->getType()->isReferenceType() &&
            !Bound->getType().getNonReferenceType().isConstQualified())
          Found = true;
    return !Found;
  }
  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() && Capture.getCapturedVar() == Var &&
          Capture.getCaptureKind() == LCK_ByRef)
        Found = true;
    return !Found;
  }

private:
  const VarDecl *Var;
  ParentMap Parents;
};

/// `Var.x = E` (Dim 0), `.y`, `.z`: the component a statement assigns as a
/// whole, and its value; nullopt when \p S is no such statement.
std::optional<std::pair<unsigned, const Expr *>>
componentWrite(const Stmt *S, const VarDecl *Var) {
  const auto *E = dyn_cast<Expr>(S);
  const Expr *Stripped = E ? E->IgnoreParenImpCasts() : nullptr;
  const Expr *LHS = nullptr;
  const Expr *RHS = nullptr;
  if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Stripped);
      Assign && Assign->getOpcode() == BO_Assign) {
    LHS = Assign->getLHS();
    RHS = Assign->getRHS();
  } else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Stripped);
             Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    LHS = Op->getArg(0);
    RHS = Op->getArg(1);
  }
  const auto *Member =
      LHS ? dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts()) : nullptr;
  if (!Member || Member->isArrow())
    return std::nullopt;
  const auto *Base = dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParens());
  if (!Base || Base->getDecl() != Var || !Member->getMemberDecl()->getIdentifier())
    return std::nullopt;
  std::optional<unsigned> Dim =
      dimComponentIndex(Member->getMemberDecl()->getName());
  if (!Dim)
    return std::nullopt;
  return std::make_pair(*Dim, RHS);
}

/// A statement control may enter other than from its start.
bool hasLabel(const Stmt *S) {
  if (!S)
    return false;
  if (isa<LabelStmt>(S) || isa<SwitchCase>(S))
    return true;
  return llvm::any_of(S->children(),
                      [](const Stmt *Child) { return hasLabel(Child); });
}

/// The expression component \p Dim of the dim3 local \p Var holds at \p At
/// in \p Function, for a dim3 built component by component and reused
/// (`dim3 t; t.x = 16; t.y = 4; k<<<g, t>>>(...); t.x = 32; ...`, HeCBench
/// jaccard): walking back over the statements that run before the one
/// holding \p At in each compound statement around it, the last that
/// assigns that component, or the declaration (its initializer's component,
/// 1 for `dim3 t;`), when nothing between changes \p Var otherwise. Climbs
/// out of `if` arms, never out of a loop body (a later statement of the
/// body would reach the next trip). nullptr, IsOne false: unknown.
const Expr *componentReaching(const VarDecl *Var, unsigned Dim,
                              const FunctionDecl *Function, const Stmt *At,
                              bool &IsOne, ASTContext &Ctx) {
  const Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body || !At || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      Var->getDeclContext() != Function || !isDim3(Var->getType()))
    return nullptr;
  AliasedLocal Aliased(Var, Body);
  Aliased.TraverseStmt(const_cast<Stmt *>(Body));
  if (Aliased.Found)
    return nullptr;
  ParentMap Parents(const_cast<Stmt *>(Body));
  auto Changes = [&](const Stmt *S) {
    return ExprMutationAnalyzer(*S, Ctx).isMutated(Var);
  };
  const Stmt *Inner = At;
  while (const Stmt *Parent = Parents.getParent(Inner)) {
    if (const auto *Compound = dyn_cast<CompoundStmt>(Parent)) {
      const auto *Position = llvm::find(Compound->body(), Inner);
      // The statement holding At: what of it runs before At on this path
      // was walked already (an `if` arm climbed out of); the rest of it runs
      // after At or on other paths.
      if (Position == Compound->body_end() || hasLabel(*Position))
        return nullptr;
      while (Position != Compound->body_begin()) {
        --Position;
        const Stmt *S = *Position;
        if (hasLabel(S))
          return nullptr;
        if (const auto *Decl = dyn_cast<DeclStmt>(S);
            Decl && llvm::is_contained(Decl->decls(), Var)) {
          if (!Var->getInit())
            return nullptr;
          return blockComponentOf(Var->getInit(), Dim, IsOne, Ctx, 1);
        }
        if (auto Write = componentWrite(S, Var)) {
          if (Write->first == Dim)
            return Write->second;
          continue;
        }
        if (Changes(S))
          return nullptr;
      }
    } else if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (If->getCond() == Inner || (If->getCond() && Changes(If->getCond())) ||
          If->getInit() || If->getConditionVariableDeclStmt())
        return nullptr;
    } else if (!isa<Expr>(Parent) && !isa<ReturnStmt>(Parent)) {
      // A loop body (a later statement of the body reaches the next trip),
      // a switch, or any other statement: unknown.
      return nullptr;
    }
    if (Parent == Body)
      return nullptr;
    Inner = Parent;
  }
  return nullptr;
}

/// The power-of-two factor local \p Var of \p Function holds at \p At:
/// walking back over the top-level statements before the one holding \p At
/// (each runs before it on every path), the last that writes the whole
/// variable (`num_paths *= 1024;`) or declares it, when no statement after
/// that one, up to and including the one holding \p At, changes it. 1 when
/// unknown. HeCBench aop's main scales the path count read from the command
/// line by 1024 before every launch.
uint64_t factorReaching(const VarDecl *Var, const FunctionDecl *Function,
                        const Stmt *At, ASTContext &Ctx) {
  const auto *Body =
      Function ? dyn_cast_or_null<CompoundStmt>(Function->getBody()) : nullptr;
  // A const local holds its initializer, which integerFactor already read.
  if (!Body || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !Var->getType()->isIntegerType() || Var->getType().isConstQualified() ||
      Var->getDeclContext() != Function)
    return 1;
  const Stmt *Holding =
      topLevelStatementHolding(Body, At, Ctx.getSourceManager());
  if (!Holding)
    return 1;
  AliasedLocal Aliased(Var, Body);
  Aliased.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (Aliased.Found)
    return 1;
  const auto *Position = llvm::find(Body->body(), Holding);
  auto Changes = [&](const Stmt *S) {
    return ExprMutationAnalyzer(*S, Ctx).isMutated(Var);
  };
  if (Changes(Holding))
    return 1;
  while (Position != Body->body_begin()) {
    --Position;
    const Stmt *S = *Position;
    if (const auto *Decl = dyn_cast<DeclStmt>(S))
      if (llvm::is_contained(Decl->decls(), Var))
        return Var->getInit() ? integerFactor(Var->getInit(), Ctx, 0) : 1;
    if (std::optional<uint64_t> Written = wholeWriteFactor(S, Var, Ctx))
      return *Written;
    if (Changes(S))
      return 1;
  }
  return 1;
}

/// The power-of-two factor a launch argument is known to have where
/// \p Launch (in \p Launcher) passes it: from its value (a constant, a
/// product with one, a local that holds one), or from an assertion on the
/// variable it names among the statements of \p Launcher's body that come
/// before the statement holding the launch (they run before it on every
/// path that reaches it), when nothing in \p Launcher changes the variable.
uint64_t launchArgumentFactor(const Expr *Arg, const FunctionDecl *Launcher,
                              const Stmt *Launch, ASTContext &Ctx) {
  uint64_t Factor = integerFactor(Arg, Ctx, 0);
  const auto *Ref = dyn_cast<DeclRefExpr>(stripTemporaries(Arg));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *Body =
      Launcher ? dyn_cast_or_null<CompoundStmt>(Launcher->getBody()) : nullptr;
  if (!Var || !Body || !Var->getType()->isIntegerType())
    return Factor;
  const SourceManager &SM = Ctx.getSourceManager();
  uint64_t Asserted = 1;
  for (const Stmt *S : Body->body()) {
    if (!SM.isBeforeInTranslationUnit(S->getEndLoc(), Launch->getBeginLoc()))
      break;
    Asserted = std::max(
        Asserted, ensuredFactor(
                      S,
                      [&](const Expr *Condition, bool Holds) {
                        return impliedFactor(Condition, Holds, Var, Ctx);
                      },
                      Ctx));
  }
  if (Asserted > Factor &&
      !ExprMutationAnalyzer(*Body, Ctx).isMutated(Var))
    Factor = Asserted;
  if (Factor < MaxFactor && !isa<ParmVarDecl>(Var))
    Factor = std::max(Factor, factorReaching(Var, Launcher, Launch, Ctx));
  return Factor;
}

bool bodyChecksWarpAlignedRows(const FunctionDecl *Kernel, ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return false;
  return llvm::any_of(Body->body(), [&](const Stmt *S) {
    return checksWarpAlignedRows(S, Ctx);
  });
}

/// The block argument of a launch whose form takes one.
const Expr *blockArgument(const KernelLaunch &Launch) {
  switch (Launch.Form) {
  case LaunchForm::TripleChevron:
    if (const auto *Kernel = dyn_cast<CUDAKernelCallExpr>(Launch.Call))
      if (const CallExpr *Config = Kernel->getConfig();
          Config && Config->getNumArgs() >= 2)
        return Config->getArg(1);
    return nullptr;
  case LaunchForm::LaunchKernel:
  case LaunchForm::LaunchCooperativeKernel:
    return Launch.Call->getNumArgs() >= 3 ? Launch.Call->getArg(2) : nullptr;
  case LaunchForm::LaunchKernelEx:
  case LaunchForm::LaunchKernelExC:
    return nullptr;
  }
  return nullptr;
}

/// The parameter of \p Function that \p E reads as it is: through
/// parentheses, casts, temporaries and std::forward / std::move.
const ParmVarDecl *forwardedParameter(const Expr *E,
                                      const FunctionDecl *Function) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = stripTemporaries(E);
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || Call->getNumArgs() != 1 || !Callee->isInStdNamespace() ||
          !Callee->getIdentifier() ||
          (Callee->getName() != "forward" && Callee->getName() != "move"))
        return nullptr;
      E = Call->getArg(0);
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    return Param && Param->getDeclContext() == Function ? Param : nullptr;
  }
  return nullptr;
}

/// The `<<<>>>` in \p Wrapper's body whose kernel is its parameter
/// \p KernelParam (`kernel<<<params.block_nums, params.block_dims>>>(
/// std::forward<Args>(args)...)`), or nullptr.
const CUDAKernelCallExpr *launchOfParameter(const Stmt *S,
                                            const ParmVarDecl *KernelParam,
                                            const FunctionDecl *Wrapper) {
  if (!S)
    return nullptr;
  if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(S))
    if (forwardedParameter(Launch->getCallee(), Wrapper) == KernelParam)
      return Launch;
  for (const Stmt *Child : S->children())
    if (const CUDAKernelCallExpr *Found =
            launchOfParameter(Child, KernelParam, Wrapper))
      return Found;
  return nullptr;
}

/// \p E, an expression of \p Wrapper's launch, as the caller \p Call
/// spells it: a parameter becomes the caller's argument, and a member of a
/// parameter (`params.block_dims`) the argument its class's constructor
/// stored in that member, when the caller's argument is a local built by
/// that constructor (`launch_params(num_blocks, block_size, 0, stream)`).
const Expr *asCallerSpells(const Expr *E, const FunctionDecl *Wrapper,
                           const CallExpr *Call, ASTContext &Ctx) {
  E = stripTemporaries(E);
  // A dim3 passed by value to cudaConfigureCall is a copy of the operand.
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1 &&
      Copy->getConstructor()->isCopyOrMoveConstructor())
    E = stripTemporaries(Copy->getArg(0));
  if (const ParmVarDecl *Param = forwardedParameter(E, Wrapper))
    return Param->getFunctionScopeIndex() < Call->getNumArgs()
               ? Call->getArg(Param->getFunctionScopeIndex())
               : nullptr;
  const auto *Member = dyn_cast<MemberExpr>(E);
  if (!Member)
    return nullptr;
  const ParmVarDecl *Param = forwardedParameter(Member->getBase(), Wrapper);
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Param || !Field || Param->getFunctionScopeIndex() >= Call->getNumArgs())
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(
      stripTemporaries(Call->getArg(Param->getFunctionScopeIndex())));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const Expr *Init = Var ? singleValue(Var, Ctx) : nullptr;
  const auto *Construct =
      Init ? dyn_cast<CXXConstructExpr>(stripTemporaries(Init)) : nullptr;
  if (!Construct)
    return nullptr;
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  if (!Ctor)
    return nullptr;
  if (const FunctionDecl *Definition = Ctor->getDefinition())
    Ctor = cast<CXXConstructorDecl>(Definition);
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (Init->getMember() != Field)
      continue;
    const Expr *Value = stripTemporaries(Init->getInit());
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(Value);
        Copy && Copy->getNumArgs() == 1)
      Value = stripTemporaries(Copy->getArg(0));
    const auto *From = dyn_cast<DeclRefExpr>(Value);
    const auto *CtorParam =
        From ? dyn_cast<ParmVarDecl>(From->getDecl()) : nullptr;
    if (!CtorParam || CtorParam->getFunctionScopeIndex() >=
                          Construct->getNumArgs())
      return nullptr;
    return Construct->getArg(CtorParam->getFunctionScopeIndex());
  }
  return nullptr;
}

/// Every launch site and every kernel definition of the user's code (system
/// headers are skipped: they define no kernels a project launches).
class LaunchScanner : public RecursiveASTVisitor<LaunchScanner> {
public:
  explicit LaunchScanner(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Current = Saved;
    return Result;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    const FunctionDecl *Saved = Current;
    Current = MD;
    bool Result = RecursiveASTVisitor::TraverseCXXMethodDecl(MD);
    Current = Saved;
    return Result;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext())
      Kernels.push_back(FD);
    if (FD->isMain() && FD->doesThisDeclarationHaveABody())
      DefinesMain = true;
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Current && Current->isDependentContext())
      return true;
    std::optional<KernelLaunch> Launch = asKernelLaunch(Call, Ctx);
    if (!Launch) {
      recordHostCall(Call);
      recordWrapperLaunch(Call);
      return true;
    }
    if (!Launch->Kernel)
      return true;
    const Expr *Block = blockArgument(*Launch);
    // What each argument is known to be a multiple of (the smallest over
    // the launch sites). Only `<<<>>>` passes the arguments as written.
    const FunctionDecl *Kernel = Launch->Kernel->getCanonicalDecl();
    auto [Factors, First] = ArgumentFactors.try_emplace(Kernel);
    if (Launch->Form == LaunchForm::TripleChevron &&
        Call->getNumArgs() == Launch->Kernel->getNumParams()) {
      if (First)
        Factors->second.assign(Call->getNumArgs(), MaxFactor);
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        uint64_t Factor =
            launchArgumentFactor(Call->getArg(I), Current, Call, Ctx);
        // A parameter of the launching function: its callers decide, once
        // the whole TU has been seen (resolveCallerFactors).
        if (const ParmVarDecl *Param =
                launcherParameter(Call->getArg(I), Factor)) {
          Pending.push_back({Kernel, I, Current, Param, Factor});
          continue;
        }
        Factors->second[I] = std::min(Factors->second[I], Factor);
      }
    } else {
      Factors->second.assign(Launch->Kernel->getNumParams(), 1);
    }
    recordBlock(Kernel, Block, Call);
    return true;
  }

  /// A launch of \p Kernel with block \p Block (null: not read), as written
  /// at \p At: whether its rows are whole warps, and its extents.
  void recordBlock(const FunctionDecl *Kernel, const Expr *Block,
                   const CallExpr *At) {
    bool Aligned = Block && integerFactor(Block, Ctx, 0) % 32 == 0;
    // A dim3 built component by component: its width where this launch is.
    bool KnownUnaligned = false;
    if (Block && !Aligned) {
      bool IsOne = false;
      const Expr *X = componentAt(Block, 0, IsOne, At);
      Aligned = X && integerFactor(X, Ctx, 0) % 32 == 0;
      std::optional<uint64_t> Width =
          X ? exactValue(X, Ctx) : std::optional<uint64_t>();
      KnownUnaligned = IsOne || (Width && *Width % 32 != 0);
    }
    recordExtents(Kernel, Block, At);
    if (!Aligned && Block && (KnownUnaligned || isKnownUnaligned(Block, Ctx)))
      Unaligned.insert(Kernel);
    auto [It, Inserted] = Launches.try_emplace(Kernel, Aligned);
    if (!Inserted)
      It->second = It->second && Aligned;
  }

  /// A call that hands a kernel to a function which launches it with
  /// `<<<>>>` (ggml's `ggml_cuda_kernel_launch(kernel, params, args...)`):
  /// the block and the arguments of that launch, as this call spells them.
  void recordWrapperLaunch(const CallExpr *Call) {
    const FunctionDecl *Wrapper = Call->getDirectCallee();
    // A member function's arguments are numbered as its parameters only in
    // a member call (an operator call puts the object first).
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Wrapper);
    if (Method && (!isa<CXXMemberCallExpr>(Call) || Method->isVirtual()))
      return;
    if (!Wrapper || !Wrapper->getBody() ||
        Wrapper->isDependentContext())
      return;
    for (unsigned J = 0; J < Call->getNumArgs() && J < Wrapper->getNumParams();
         ++J) {
      // Only a parameter that takes a function can receive a kernel; asking
      // resolveFunction about every argument of every call (it follows
      // locals through all their uses) made the scan quadratic in the size
      // of a function (bench/run.py's branches family).
      QualType ParamType =
          Wrapper->getParamDecl(J)->getType().getNonReferenceType();
      if (!ParamType->isFunctionPointerType() && !ParamType->isFunctionType())
        continue;
      const FunctionDecl *Kernel = resolveFunction(Call->getArg(J), Ctx);
      if (!Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
        continue;
      const CUDAKernelCallExpr *Inner = launchOfParameter(
          Wrapper->getBody(), Wrapper->getParamDecl(J), Wrapper);
      if (!Inner)
        return;
      const CallExpr *Config = Inner->getConfig();
      const Expr *Block =
          Config && Config->getNumArgs() >= 2
              ? asCallerSpells(Config->getArg(1), Wrapper, Call, Ctx)
              : nullptr;
      const FunctionDecl *Canonical = Kernel->getCanonicalDecl();
      recordBlock(Canonical, Block, Call);
      auto [Factors, First] = ArgumentFactors.try_emplace(Canonical);
      if (First)
        Factors->second.assign(Kernel->getNumParams(), MaxFactor);
      for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
        const Expr *Arg = I < Inner->getNumArgs()
                              ? asCallerSpells(Inner->getArg(I), Wrapper, Call,
                                               Ctx)
                              : nullptr;
        Factors->second[I] = std::min(
            Factors->second[I],
            Arg ? launchArgumentFactor(Arg, Current, Call, Ctx) : 1);
      }
      return;
    }
  }

  /// Calls of the user's host functions, by callee, so that a launch
  /// argument that is a parameter of its launcher can be valued at the
  /// launcher's callers.
  void recordHostCall(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Current || !Callee || isa<CXXMethodDecl>(Callee) ||
        Callee->hasAttr<CUDAGlobalAttr>() || Callee->hasAttr<CUDADeviceAttr>())
      return;
    CallsTo[Callee->getCanonicalDecl()].emplace_back(Call, Current);
  }

  /// \p Arg names a parameter of the launching host function that the
  /// function never changes, and the argument's own factor leaves room.
  const ParmVarDecl *launcherParameter(const Expr *Arg, uint64_t Factor) {
    if (!Current || Factor >= MaxFactor ||
        Current->hasAttr<CUDAGlobalAttr>() ||
        Current->hasAttr<CUDADeviceAttr>() || !Current->getBody())
      return nullptr;
    const auto *Ref = dyn_cast<DeclRefExpr>(stripTemporaries(Arg));
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || Param->getDeclContext() != Current ||
        !Param->getType()->isIntegerType() ||
        MutationCache::of(Ctx).isMutated(Param, *Current->getBody()))
      return nullptr;
    return Param;
  }

  /// The factor every caller of \p Launcher in this TU passes for
  /// \p Param, or 1 when the launcher may be called from elsewhere (it is
  /// visible outside the TU and the TU is not a program with its own
  /// main), or has no caller here. One level of callers.
  uint64_t callerFactor(const FunctionDecl *Launcher,
                        const ParmVarDecl *Param) {
    if (Launcher->isExternallyVisible() && !DefinesMain)
      return 1;
    auto Found = CallsTo.find(Launcher->getCanonicalDecl());
    if (Found == CallsTo.end() || Found->second.empty())
      return 1;
    const unsigned Index = Param->getFunctionScopeIndex();
    uint64_t Factor = MaxFactor;
    for (const auto &[Call, Caller] : Found->second) {
      if (Index >= Call->getNumArgs() || Caller->isDependentContext())
        return 1;
      const Expr *Arg = Call->getArg(Index);
      uint64_t Here = integerFactor(Arg, Ctx, 0);
      if (const auto *Ref = dyn_cast<DeclRefExpr>(stripTemporaries(Arg)))
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
          Here = std::max(Here, factorReaching(Var, Caller, Call, Ctx));
      Factor = std::min(Factor, Here);
    }
    return Factor;
  }

  /// Folds the launches whose argument was a launcher's parameter into the
  /// kernels' argument factors.
  void resolveCallerFactors() {
    for (const PendingArgument &P : Pending) {
      uint64_t Factor =
          std::max(P.OwnFactor, callerFactor(P.Launcher, P.Param));
      std::vector<uint64_t> &Factors = ArgumentFactors[P.Kernel];
      if (P.Index < Factors.size())
        Factors[P.Index] = std::min(Factors[P.Index], Factor);
    }
    Pending.clear();
  }

  /// One extent of a launch's block: blockComponentOf, and for a dim3
  /// local built component by component, what reaches \p At
  /// (componentReaching).
  const Expr *componentAt(const Expr *Block, unsigned Dim, bool &IsOne,
                          const Stmt *At) {
    const Expr *Component = blockComponentOf(Block, Dim, IsOne, Ctx);
    if (Component || IsOne || !At)
      return Component;
    const Expr *E = stripTemporaries(Block);
    while (const auto *Copy = dyn_cast<CXXConstructExpr>(E)) {
      if (Copy->getNumArgs() != 1 || !isDim3(Copy->getArg(0)->getType()))
        return nullptr;
      E = stripTemporaries(Copy->getArg(0));
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        return componentReaching(Var, Dim, Current, At, IsOne, Ctx);
    return nullptr;
  }

  /// Folds one launch's block (nullptr: not read) into \p Kernel's extents;
  /// \p At is the launch (null: a wrapper's launch, spelled by its caller).
  void recordExtents(const FunctionDecl *Kernel, const Expr *Block,
                     const Stmt *At = nullptr) {
    auto [It, First] = Extents.try_emplace(Kernel);
    LaunchShapes::LaunchedExtents &Known = It->second;
    for (unsigned Dim = 0; Dim < 3; ++Dim) {
      BlockExtentFact This;
      bool IsOne = false;
      const Expr *Component =
          Block ? componentAt(Block, Dim, IsOne, At) : nullptr;
      if (IsOne) {
        This.Exact = 1;
      } else if (Component) {
        This.Factor = integerFactor(Component, Ctx, 0);
        This.Exact = exactValue(Component, Ctx);
      }
      BlockExtentFact &Fact = Known.Dims[Dim];
      if (First) {
        Fact = This;
      } else {
        Fact.Factor = std::min(Fact.Factor, This.Factor);
        if (Fact.Exact != This.Exact)
          Known.Mixed[Dim] = true;
      }
      if (!This.Exact)
        Known.Mixed[Dim] = true;
    }
  }

  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
  std::vector<const FunctionDecl *> Kernels;
  llvm::DenseMap<const FunctionDecl *, bool> Launches;
  llvm::DenseSet<const FunctionDecl *> Unaligned;
  llvm::DenseMap<const FunctionDecl *, std::vector<uint64_t>> ArgumentFactors;
  llvm::DenseMap<const FunctionDecl *, LaunchShapes::LaunchedExtents> Extents;
  /// A launch argument that is a parameter of its launcher.
  struct PendingArgument {
    const FunctionDecl *Kernel;
    unsigned Index;
    const FunctionDecl *Launcher;
    const ParmVarDecl *Param;
    uint64_t OwnFactor;
  };
  std::vector<PendingArgument> Pending;
  llvm::DenseMap<const FunctionDecl *,
                 std::vector<std::pair<const CallExpr *, const FunctionDecl *>>>
      CallsTo;
  bool DefinesMain = false;
};

/// The functions a body calls by name (its lambdas' bodies included).
class CalleeCollector : public RecursiveASTVisitor<CalleeCollector> {
public:
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      Callees.push_back(Callee);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    Callees.push_back(Construct->getConstructor());
    return true;
  }
  std::vector<const FunctionDecl *> Callees;
};

} // namespace

uint64_t knownFactorOfBlockX(const Expr *E, ASTContext &Context) {
  return integerFactor(E, Context, 0);
}

bool impliesWarpAlignedRows(const Expr *Condition, ASTContext &Context) {
  return implies(Condition, true, Context);
}

void LaunchShapes::scanLaunches() {
  Scanned = true;
  LaunchScanner Scanner(Context);
  const SourceManager &SM = Context.getSourceManager();
  for (Decl *D : Context.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()))
      Scanner.TraverseDecl(D);
  Scanner.resolveCallerFactors();
  LaunchedAligned = std::move(Scanner.Launches);
  KnownUnaligned = std::move(Scanner.Unaligned);
  ArgumentFactors = std::move(Scanner.ArgumentFactors);
  Extents = std::move(Scanner.Extents);
  for (const FunctionDecl *Kernel : Scanner.Kernels) {
    if (bodyChecksWarpAlignedRows(Kernel, Context))
      CheckedInBody.insert(Kernel->getCanonicalDecl());
    std::array<std::optional<uint64_t>, 3> Checked;
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      Checked[Dim] = bodyChecksExtent(Kernel, static_cast<char>('x' + Dim),
                                      Context);
    if (Checked[0] || Checked[1] || Checked[2])
      CheckedExtents[Kernel->getCanonicalDecl()] = Checked;
    // Kernels the TU defines but does not launch count as unknown callers.
    LaunchedAligned.try_emplace(Kernel->getCanonicalDecl(), false);
  }
}

void LaunchShapes::propagateToCallees() {
  Propagated = true;
  // Two walks, each visiting a function once: from the kernels known to be
  // aligned, and from all the others. A device function is aligned when
  // only the first walk reaches it.
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>>
      CalleesOf;
  auto CalleesOfFunction =
      [&](const FunctionDecl *F) -> const std::vector<const FunctionDecl *> & {
    auto [It, Inserted] = CalleesOf.try_emplace(F);
    if (Inserted) {
      const FunctionDecl *Definition = nullptr;
      if (F->hasBody(Definition) && Definition &&
          !Definition->isDependentContext()) {
        CalleeCollector Collector;
        Collector.TraverseStmt(Definition->getBody());
        It->second = std::move(Collector.Callees);
      }
    }
    return CalleesOf[F];
  };
  auto Walk = [&](bool FromAligned, llvm::DenseSet<const FunctionDecl *> &Seen) {
    std::vector<const FunctionDecl *> Stack;
    for (const auto &[Kernel, Launched] : LaunchedAligned) {
      bool Aligned = Launched || CheckedInBody.contains(Kernel);
      if (Aligned == FromAligned)
        Stack.push_back(Kernel);
    }
    while (!Stack.empty()) {
      const FunctionDecl *F = Stack.back();
      Stack.pop_back();
      for (const FunctionDecl *Callee : CalleesOfFunction(F)) {
        const FunctionDecl *Canonical = Callee->getCanonicalDecl();
        if (Canonical->hasAttr<CUDAGlobalAttr>())
          continue;
        if (Seen.insert(Canonical).second)
          Stack.push_back(Canonical);
      }
    }
  };
  // The extents of the kernels that reach each device function, joined: a
  // walk per kernel, each function once per kernel.
  for (const auto &Entry : LaunchedAligned) {
    const FunctionDecl *Kernel = Entry.first;
    std::array<BlockExtentFact, 3> Facts;
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      Facts[Dim] = blockExtent(Kernel, Dim);
    llvm::DenseSet<const FunctionDecl *> Seen;
    std::vector<const FunctionDecl *> Stack{Kernel};
    while (!Stack.empty()) {
      const FunctionDecl *F = Stack.back();
      Stack.pop_back();
      for (const FunctionDecl *Callee : CalleesOfFunction(F)) {
        const FunctionDecl *Canonical = Callee->getCanonicalDecl();
        if (Canonical->hasAttr<CUDAGlobalAttr>() ||
            !Seen.insert(Canonical).second)
          continue;
        Stack.push_back(Canonical);
        auto [It, First] = CalleeExtents.try_emplace(Canonical, Facts);
        if (First)
          continue;
        for (unsigned Dim = 0; Dim < 3; ++Dim) {
          BlockExtentFact &Joined = It->second[Dim];
          Joined.Factor = std::min(Joined.Factor, Facts[Dim].Factor);
          if (Joined.Exact != Facts[Dim].Exact)
            Joined.Exact.reset();
        }
      }
    }
  }
  llvm::DenseSet<const FunctionDecl *> FromAligned;
  llvm::DenseSet<const FunctionDecl *> FromOthers;
  Walk(true, FromAligned);
  Walk(false, FromOthers);
  for (const FunctionDecl *F : FromAligned)
    CalleeAligned[F] = !FromOthers.contains(F);
  // A third walk: what kernels with rows known to straddle warps reach.
  std::vector<const FunctionDecl *> Stack(KnownUnaligned.begin(),
                                          KnownUnaligned.end());
  while (!Stack.empty()) {
    const FunctionDecl *F = Stack.back();
    Stack.pop_back();
    for (const FunctionDecl *Callee : CalleesOfFunction(F)) {
      const FunctionDecl *Canonical = Callee->getCanonicalDecl();
      if (!Canonical->hasAttr<CUDAGlobalAttr>() &&
          CalleeUnaligned.insert(Canonical).second)
        Stack.push_back(Canonical);
    }
  }
}

bool LaunchShapes::rowsMayStraddleWarps(const FunctionDecl *Function) {
  if (!Function)
    return false;
  if (!Scanned)
    scanLaunches();
  const FunctionDecl *Canonical = Function->getCanonicalDecl();
  if (Canonical->hasAttr<CUDAGlobalAttr>())
    return KnownUnaligned.contains(Canonical) &&
           !CheckedInBody.contains(Canonical);
  if (!Propagated)
    propagateToCallees();
  return CalleeUnaligned.contains(Canonical);
}

bool LaunchShapes::rowsAreWarpAligned(const FunctionDecl *Function) {
  if (!Function)
    return false;
  if (!Scanned)
    scanLaunches();
  const FunctionDecl *Canonical = Function->getCanonicalDecl();
  if (Canonical->hasAttr<CUDAGlobalAttr>() ||
      Function->hasAttr<CUDAGlobalAttr>()) {
    if (CheckedInBody.contains(Canonical))
      return true;
    auto It = LaunchedAligned.find(Canonical);
    return It != LaunchedAligned.end() && It->second;
  }
  if (!Propagated)
    propagateToCallees();
  auto It = CalleeAligned.find(Canonical);
  return It != CalleeAligned.end() && It->second;
}

uint64_t LaunchShapes::argumentFactor(const FunctionDecl *Kernel,
                                      unsigned Param) {
  if (!Kernel)
    return 1;
  if (!Scanned)
    scanLaunches();
  auto It = ArgumentFactors.find(Kernel->getCanonicalDecl());
  if (It == ArgumentFactors.end() || Param >= It->second.size())
    return 1;
  return It->second[Param];
}

BlockExtentFact LaunchShapes::blockExtent(const FunctionDecl *Function,
                                          unsigned Dim) {
  if (!Function || Dim > 2)
    return {};
  if (!Scanned)
    scanLaunches();
  if (!Function->hasAttr<CUDAGlobalAttr>()) {
    if (!Propagated)
      propagateToCallees();
    auto Reached = CalleeExtents.find(Function->getCanonicalDecl());
    return Reached == CalleeExtents.end() ? BlockExtentFact{}
                                          : Reached->second[Dim];
  }
  const FunctionDecl *Canonical = Function->getCanonicalDecl();
  if (auto Checked = CheckedExtents.find(Canonical);
      Checked != CheckedExtents.end()) {
    if (std::optional<uint64_t> Value = Checked->second[Dim])
      return {powerOfTwoPart(*Value), Value};
  }
  auto It = Extents.find(Canonical);
  if (It == Extents.end())
    return {};
  BlockExtentFact Fact = It->second.Dims[Dim];
  if (It->second.Mixed[Dim])
    Fact.Exact.reset();
  return Fact;
}

} // namespace clang::tidy::cuda::analysis
