//===--- DivergenceAnalysis.cpp - where GPU threads can disagree ----------===//
//
// The solver. Reading order: the body scan (which variables exist, which
// escape), the dataflow over CFG blocks (entryState / visit / transfer /
// evaluate), the branch regions that give sync and temporal divergence, and
// last the control dependences the queries walk.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/DivergenceAnalysis.h"
#include "checks/analysis/AnalysisManager.h"
#include "checks/analysis/CudaBuiltins.h"
#include "checks/analysis/ThreadIndexForms.h"
#include "checks/analysis/WarpReductions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <vector>

namespace clang::tidy::cuda::analysis {

llvm::StringRef divergenceKindName(DivergenceKind Kind) {
  switch (Kind) {
  case DivergenceKind::Branch:
    return "branch";
  case DivergenceKind::EarlyExit:
    return "early exit";
  case DivergenceKind::LoopTripCount:
    return "loop trip count";
  case DivergenceKind::Switch:
    return "switch";
  case DivergenceKind::Goto:
    return "goto";
  case DivergenceKind::ViaCall:
    return "via call";
  }
  return "branch";
}

namespace {

/// The local variable an lvalue is part of (`s.f`, `a[i][j]` -> `s`, `a`),
/// collecting the subscripts on the way, or nullptr when the lvalue is
/// reached through a pointer or is not a local.
const VarDecl *rootVariable(const Expr *E,
                            llvm::SmallVectorImpl<const Expr *> *Indices) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType())
        return Var;
      return nullptr;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow() || !isa<FieldDecl>(Member->getMemberDecl()))
        return nullptr;
      E = Member->getBase();
      continue;
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay =
          dyn_cast<ImplicitCastExpr>(Subscript->getBase()->IgnoreParens());
      if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
        return nullptr;
      if (Indices)
        Indices->push_back(Subscript->getIdx());
      E = Decay->getSubExpr();
      continue;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_NoOp ||
          Cast->getCastKind() == CK_DerivedToBase ||
          Cast->getCastKind() == CK_UncheckedDerivedToBase) {
        E = Cast->getSubExpr();
        continue;
      }
    }
    return nullptr;
  }
  return nullptr;
}

/// The local whose address a pointer expression takes (`&x`, `&a[i]`, an
/// array decaying to a pointer), or nullptr.
const VarDecl *addressedVariable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_AddrOf)
      return rootVariable(Unary->getSubExpr(), nullptr);
  return nullptr;
}

bool isWritableIndirection(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  if (T->isPointerType())
    return !T->getPointeeType().isConstQualified();
  return false;
}

/// Collects what the dataflow needs to know before it starts: the locals,
/// which of them escape (their address is taken, they are bound to a
/// reference, captured by reference, or modified by a call), and the calls.
class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
public:
  llvm::SmallVector<const VarDecl *, 16> Locals;
  llvm::SmallPtrSet<const VarDecl *, 8> EscapedVars;
  std::vector<const CallExpr *> Calls;

  bool shouldVisitImplicitCode() const { return true; }

  // A lambda body is a function of its own; only its captures belong here.
  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable() &&
          Capture.getCaptureKind() == LCK_ByRef)
        if (const auto *Var =
                dyn_cast_or_null<VarDecl>(Capture.getCapturedVar()))
          EscapedVars.insert(Var);
    for (Expr *Init : Lambda->capture_inits())
      if (Init)
        TraverseStmt(Init);
    return true;
  }
  bool TraverseBlockExpr(BlockExpr *) { return true; }

  bool VisitVarDecl(VarDecl *Var) {
    if (isa<ParmVarDecl>(Var))
      return true;
    if (Var->hasLocalStorage())
      Locals.push_back(Var);
    if (Var->getType()->isReferenceType() && Var->getInit()) {
      const VarDecl *Root = rootVariable(Var->getInit(), nullptr);
      // `const int64_t &i00 = i0;` with i0 const (ggml's quantize names
      // indices this way): a read-only alias of a value that never changes,
      // so reading i00 reads i0's one value.
      bool ReadOnlyAliasOfConstant =
          Root && Root->getType().isConstQualified() &&
          Var->getType()->getPointeeType().isConstQualified();
      if (!ReadOnlyAliasOfConstant)
        escape(Root);
    }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *Unary) {
    if (Unary->getOpcode() == UO_AddrOf)
      escape(rootVariable(Unary->getSubExpr(), nullptr));
    return true;
  }

  // `a[i]` reads the array in place; only other decays let its address out.
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *Subscript) {
    if (const auto *Decay =
            dyn_cast<ImplicitCastExpr>(Subscript->getBase()->IgnoreParens()))
      InPlaceDecays.insert(Decay);
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay &&
        !InPlaceDecays.contains(Cast))
      escape(rootVariable(Cast->getSubExpr(), nullptr));
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    // A `<<<...>>>` launch from device code (dynamic parallelism) starts a
    // grid of its own; the launching threads do not run the kernel's body,
    // so its barriers and masks are not reached through this "call".
    if (isa<CUDAKernelCallExpr>(Call))
      return true;
    Calls.push_back(Call);
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned FirstArg = 0;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
      if (Method && !Method->isStatic()) {
        // The object of a member operator is argument 0. Assignment
        // operators are modelled as assignments, not escapes.
        FirstArg = 1;
        if (!Op->isAssignmentOp() && !Method->isConst() &&
            Op->getOperator() != OO_Call)
          escape(rootVariable(Call->getArg(0), nullptr));
      }
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      const CXXMethodDecl *Method = Member->getMethodDecl();
      if (Method && !Method->isConst() && !Method->isStatic())
        escape(rootVariable(Member->getImplicitObjectArgument(), nullptr));
    }
    for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I) {
      unsigned ParamIndex = I - FirstArg;
      if (!Callee || ParamIndex >= Callee->getNumParams())
        continue;
      if (isWritableIndirection(Callee->getParamDecl(ParamIndex)->getType()) &&
          Callee->getParamDecl(ParamIndex)->getType()->isReferenceType())
        escape(rootVariable(Call->getArg(I), nullptr));
    }
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    const CXXConstructorDecl *Ctor = Construct->getConstructor();
    for (unsigned I = 0; Ctor && I < Construct->getNumArgs() &&
                         I < Ctor->getNumParams();
         ++I)
      if (Ctor->getParamDecl(I)->getType()->isReferenceType() &&
          isWritableIndirection(Ctor->getParamDecl(I)->getType()))
        escape(rootVariable(Construct->getArg(I), nullptr));
    return true;
  }

private:
  void escape(const VarDecl *Var) {
    if (Var)
      EscapedVars.insert(Var);
  }
  llvm::SmallPtrSet<const ImplicitCastExpr *, 16> InPlaceDecays;
};

/// `threadIdx.y * blockDim.x` (+ `threadIdx.z * blockDim.x * blockDim.y`):
/// the row part of the linear thread index, which added to threadIdx.x gives
/// the index warps are cut from whatever the block's shape.
bool isRowOffset(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Add)
      return isRowOffset(Binary->getLHS()) && isRowOffset(Binary->getRHS());
    if (Binary->getOpcode() != BO_Mul)
      return false;
    llvm::SmallVector<const Expr *, 4> Factors;
    llvm::SmallVector<const Expr *, 4> Work = {Binary};
    while (!Work.empty()) {
      const Expr *F = Work.pop_back_val()->IgnoreParenImpCasts();
      if (const auto *Mul = dyn_cast<BinaryOperator>(F);
          Mul && Mul->getOpcode() == BO_Mul) {
        Work.push_back(Mul->getLHS());
        Work.push_back(Mul->getRHS());
      } else {
        Factors.push_back(F);
      }
    }
    unsigned RowIndices = 0;
    bool HasRowWidth = false;
    for (const Expr *F : Factors) {
      std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(F);
      if (!Read)
        return false;
      if (Read->Var == BuiltinIndexRead::ThreadIdx &&
          (Read->Component == 'y' || Read->Component == 'z'))
        ++RowIndices;
      else if (Read->Var == BuiltinIndexRead::BlockDim)
        HasRowWidth = HasRowWidth || Read->Component == 'x';
      else
        return false;
    }
    return RowIndices == 1 && HasRowWidth;
  }
  return false;
}

/// Whether \p Inner is \p Outer or nested in it, following \p Parents.
bool isWithin(const ParentMap &Parents, const Stmt *Inner, const Stmt *Outer) {
  for (const Stmt *S = Inner; S; S = Parents.getParent(S))
    if (S == Outer)
      return true;
  return false;
}

/// The first statement in \p S that leaves it: return, goto, or a
/// break/continue not caught by a loop or switch inside \p S.
const Stmt *findExitJump(const Stmt *S, bool InLoop, bool InSwitch) {
  if (!S)
    return nullptr;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<CXXThrowExpr>(S))
    return S;
  if (isa<BreakStmt>(S))
    return InLoop || InSwitch ? nullptr : S;
  if (isa<ContinueStmt>(S))
    return InLoop ? nullptr : S;
  if (isa<LambdaExpr>(S) || isa<BlockExpr>(S))
    return nullptr;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
              isa<CXXForRangeStmt>(S);
  bool Switch = isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (const Stmt *Found =
            findExitJump(Child, InLoop || Loop, InSwitch || Switch))
      return Found;
  return nullptr;
}

/// `flag`, `s[i]`, `s.f` for a __shared__ variable `s` named directly.
bool isSharedVariableAccess(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      E = Subscript->getBase();
    else if (const auto *Member = dyn_cast<MemberExpr>(E);
             Member && !Member->isArrow())
      E = Member->getBase();
    else
      break;
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasAttr<CUDASharedAttr>();
}

bool isLoopStmt(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
         isa<CXXForRangeStmt>(S);
}

std::optional<llvm::APSInt> constantInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  return E->getIntegerConstantExpr(Ctx);
}

unsigned alignOfConstant(const llvm::APSInt &V) {
  if (V == 0)
    return 63;
  return std::min<unsigned>(V.countr_zero(), 63);
}

/// The values of the variable slots at one program point.
///
/// A block changes a few slots of what its predecessors had, while a function
/// may have hundreds of slots (every `for (int k = ...)` declares one), so a
/// state is a row of fixed-size chunks shared copy-on-write between the
/// states of the blocks: copying a state copies chunk pointers, writing a
/// slot copies one chunk at most, and joining or comparing two states skips
/// the chunks they share (a Uniformity joined with itself is unchanged).
/// A flat vector per block made the solver quadratic in the function's size.
class SlotState {
public:
  SlotState() = default;
  /// \p Size slots, each Uniformity().
  explicit SlotState(unsigned Size) : Size(Size) {
    if (Size == 0)
      return;
    llvm::IntrusiveRefCntPtr<Chunk> Uniform(new Chunk());
    Chunks.assign((Size + ChunkSize - 1) / ChunkSize, Uniform);
  }

  bool empty() const { return Size == 0; }
  unsigned size() const { return Size; }

  const Uniformity &operator[](unsigned Slot) const {
    return Chunks[Slot / ChunkSize]->Values[Slot % ChunkSize];
  }
  /// The slot, for writing: its chunk is copied first when shared.
  Uniformity &mutableAt(unsigned Slot) {
    return own(Slot / ChunkSize).Values[Slot % ChunkSize];
  }

  /// Slot by slot, this->join(Other); both have the same size.
  void join(const SlotState &Other) {
    for (unsigned C = 0; C < Chunks.size(); ++C) {
      if (Chunks[C] == Other.Chunks[C])
        continue;
      Chunk &Mine = own(C);
      const Chunk &Theirs = *Other.Chunks[C];
      for (unsigned I = 0; I < ChunkSize; ++I)
        Mine.Values[I].join(Theirs.Values[I]);
    }
  }

  /// Slot by slot, Uniformity::sameAs.
  bool sameAs(const SlotState &Other) const {
    if (Size != Other.Size)
      return false;
    for (unsigned C = 0; C < Chunks.size(); ++C) {
      if (Chunks[C] == Other.Chunks[C])
        continue;
      for (unsigned I = 0; I < ChunkSize; ++I)
        if (!Chunks[C]->Values[I].sameAs(Other.Chunks[C]->Values[I]))
          return false;
    }
    return true;
  }

private:
  static constexpr unsigned ChunkSize = 16;
  struct Chunk : llvm::RefCountedBase<Chunk> {
    std::array<Uniformity, ChunkSize> Values;
  };

  Chunk &own(unsigned C) {
    if (Chunks[C]->UseCount() > 1)
      Chunks[C] = llvm::IntrusiveRefCntPtr<Chunk>(new Chunk(*Chunks[C]));
    return *Chunks[C];
  }

  llvm::SmallVector<llvm::IntrusiveRefCntPtr<Chunk>, 4> Chunks;
  unsigned Size = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// The solver state
//===----------------------------------------------------------------------===//

struct FunctionDivergence::Impl {
  using State = SlotState;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, const AnalysisOptions &Opts,
       AnalysisManager *Mgr)
      : FD(FD), Ctx(Ctx), Opts(Opts), Mgr(Mgr) {}

  const FunctionDecl *FD;
  ASTContext &Ctx;
  AnalysisOptions Opts;
  AnalysisManager *Mgr;
  bool Analyzed = false;
  bool IsKernel = false;
  /// blockDim.x is a multiple of 32 wherever this function runs, so
  /// threadIdx.y/z are warp-uniform (AnalysisManager::rowsAreWarpAligned).
  bool RowsWarpAligned = false;

  std::unique_ptr<CFG> Cfg;
  std::vector<const CFGBlock *> Blocks; // by block ID
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<CFGPostDomTree> PostDom;

  // Variables: parameters, then locals, then the return-value slot.
  std::vector<const VarDecl *> Vars;
  llvm::DenseMap<const VarDecl *, unsigned> VarIndex;
  llvm::BitVector Escaped;
  unsigned ReturnSlot = 0;
  llvm::DenseMap<const VarDecl *, unsigned> CaptureSymbol;
  std::vector<const CallExpr *> Calls;

  // CFG facts.
  llvm::DenseMap<const Stmt *, const CFGBlock *> StmtBlock;
  std::vector<llvm::SmallVector<unsigned, 2>> DefsInBlock;

  // Dataflow.
  std::vector<State> Out;
  llvm::BitVector Visited;
  std::vector<std::optional<Uniformity>> Cond;
  std::vector<Uniformity> EscapedValue;
  Uniformity AllEscaped;
  bool EscapedChanged = false;
  Uniformity ReturnValue;
  Uniformity IndirectStores;
  struct CachedValue {
    Uniformity U;
    unsigned Visit = 0;
  };
  llvm::DenseMap<const Expr *, CachedValue> Values;
  unsigned VisitCounter = 0;
  const CFGBlock *Current = nullptr;
  State *Live = nullptr;
  bool ValuesChanged = false;
  llvm::DenseMap<const CallExpr *,
                 llvm::SmallVector<std::pair<unsigned, Uniformity>, 2>>
      Bindings;

  // Branch regions (sync and temporal divergence).
  struct Region {
    llvm::SmallVector<unsigned, 4> Joins;
    llvm::SmallVector<unsigned, 8> Defs;
    bool Temporal = false;
  };
  std::vector<std::unique_ptr<Region>> Regions;
  std::vector<llvm::SmallVector<unsigned, 2>> JoinOf;

  // Control dependence.
  std::vector<llvm::SmallVector<unsigned, 2>> ControlDeps;
  std::vector<Uniformity> Control;

  void run();
  void releaseSolverState();

  const CFGBlock *blockById(unsigned Id) const { return Blocks[Id]; }

  // --- setup ---------------------------------------------------------------
  void scanBody(const Stmt *Body);
  void mapBlocks();
  void collectDefs(const Stmt *S, llvm::SmallVectorImpl<unsigned> &Defs) const;
  std::optional<unsigned> slotOf(const VarDecl *Var) const {
    auto It = VarIndex.find(Var);
    if (It == VarIndex.end())
      return std::nullopt;
    return It->second;
  }
  State initialState();

  // --- dataflow --------------------------------------------------------------
  State entryState(const CFGBlock *B);
  void visit(const CFGBlock *B, ForwardDataflowWorklist &Worklist);
  void transfer(const Stmt *S);
  void declare(const VarDecl *Var);
  void assign(const Expr *LHS, const Uniformity &V);
  void storeThrough(const Expr *LHS, const Uniformity &V);
  void escapedJoin(unsigned Slot, const Uniformity &V);
  Uniformity readSlot(unsigned Slot) const;
  Uniformity readVariable(const VarDecl *Var, const Expr *Where);

  Uniformity valueOf(const Expr *E);
  void store(const Expr *E, const Uniformity &U);
  Uniformity evaluate(const Expr *E);
  Uniformity evaluateCast(const CastExpr *Cast);
  Uniformity evaluateBinary(const BinaryOperator *Binary);
  Uniformity arithmetic(BinaryOperatorKind Op, const Expr *LHS, const Expr *RHS,
                        Uniformity L, const Uniformity &R) const;
  Uniformity evaluateCall(const CallExpr *Call);
  Uniformity indexRead(const BuiltinIndexRead &Read, const Expr *Where) const;
  Uniformity addressOf(const Expr *LValue);
  Uniformity loadThrough(Uniformity Address, QualType Loaded) const;
  Uniformity argumentValue(const Expr *Arg);

  // --- regions and control ---------------------------------------------------
  const CFGBlock *immediatePostDominator(const CFGBlock *B) const;
  llvm::SmallVector<const CFGBlock *, 2> successors(const CFGBlock *B) const;
  const Region &region(const CFGBlock *Branch);
  const Expr *conditionOf(const CFGBlock *B) const;
  /// The butterfly reduction whose loop test \p Test leaves for \p Exit.
  const ButterflyLoop *butterflyExitingTo(const CFGBlock *Test,
                                          const CFGBlock *Exit);
  llvm::DenseMap<const Stmt *, std::optional<ButterflyLoop>> Butterflies;
  /// The for loop \p B tests, when its thread-dependent term cancels.
  const CancellingLoop *cancellingLoopOf(const CFGBlock *B);
  llvm::DenseMap<const Stmt *, std::optional<CancellingLoop>> CancellingLoops;
  void computeControl();

  // --- queries ---------------------------------------------------------------
  const CFGBlock *blockOf(const Stmt *S) const;
  Uniformity effectiveCondition(
      unsigned Block, llvm::function_ref<Uniformity(unsigned)> Inputs) const;
  std::optional<DivergenceReason>
  findReason(const Stmt *S, Level Within,
             llvm::function_ref<Uniformity(unsigned)> Inputs,
             const llvm::DenseSet<unsigned> *Exclude) const;
  DivergenceReason describe(unsigned Block, const Stmt *Target, Level Within,
                            llvm::function_ref<Uniformity(unsigned)> Inputs)
      const;
  std::pair<const ValueDecl *, ValueOrigin>
  explain(const Expr *E, Level Within,
          llvm::function_ref<Uniformity(unsigned)> Inputs) const;
  Uniformity cachedValue(const Expr *E) const;
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

void FunctionDivergence::Impl::scanBody(const Stmt *Body) {
  BodyScanner Scanner;
  Scanner.TraverseStmt(const_cast<Stmt *>(Body));
  VarIndex = decltype(VarIndex)(FD->getNumParams() + Scanner.Locals.size());
  for (const ParmVarDecl *Param : FD->parameters()) {
    VarIndex[Param] = Vars.size();
    Vars.push_back(Param);
  }
  for (const VarDecl *Local : Scanner.Locals) {
    if (Local->hasAttr<CUDASharedAttr>() || VarIndex.contains(Local))
      continue;
    VarIndex[Local] = Vars.size();
    Vars.push_back(Local);
  }
  ReturnSlot = Vars.size();
  Escaped.resize(Vars.size() + 1);
  for (const VarDecl *Var : Scanner.EscapedVars)
    if (auto Slot = slotOf(Var))
      Escaped.set(*Slot);
  EscapedValue.assign(Vars.size() + 1, Uniformity());
  Calls = std::move(Scanner.Calls);

  // Inside a lambda, the captured variables are inputs bound at each call.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *Closure = Method->getParent();
    if (Closure && Closure->isLambda()) {
      unsigned Index = 0;
      for (const LambdaCapture &Capture : Closure->captures()) {
        if (Capture.capturesVariable())
          if (const auto *Var =
                  dyn_cast_or_null<VarDecl>(Capture.getCapturedVar()))
            if (Uniformity::FirstCaptureSymbol + Index <
                Uniformity::ThisSymbol)
              CaptureSymbol[Var] = Uniformity::FirstCaptureSymbol + Index;
        ++Index;
      }
    }
  }
}

void FunctionDivergence::Impl::mapBlocks() {
  unsigned N = Cfg->getNumBlockIDs();
  DefsInBlock.assign(N, {});
  Blocks.assign(N, nullptr);
  unsigned Elements = 0;
  for (const CFGBlock *B : *Cfg) {
    Blocks[B->getBlockID()] = B;
    Elements += B->size() + 1;
  }
  StmtBlock = decltype(StmtBlock)(Elements);
  for (const CFGBlock *B : *Cfg) {
    for (const CFGElement &Element : *B) {
      std::optional<CFGStmt> S = Element.getAs<CFGStmt>();
      if (!S)
        continue;
      StmtBlock.try_emplace(S->getStmt(), B);
      collectDefs(S->getStmt(), DefsInBlock[B->getBlockID()]);
    }
    if (const Stmt *Terminator = B->getTerminatorStmt())
      StmtBlock.try_emplace(Terminator, B);
  }
  for (auto &Defs : DefsInBlock) {
    llvm::sort(Defs);
    Defs.erase(std::unique(Defs.begin(), Defs.end()), Defs.end());
  }
}

/// The slots a CFG element (one statement, its operands being elements of
/// their own) may write.
void FunctionDivergence::Impl::collectDefs(
    const Stmt *S, llvm::SmallVectorImpl<unsigned> &Defs) const {
  auto AddRoot = [&](const Expr *LValue) {
    if (!LValue)
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(LValue->IgnoreParens()))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
        if (auto Slot = slotOf(Var)) {
          Defs.push_back(*Slot);
          return;
        }
    if (const VarDecl *Root = rootVariable(LValue, nullptr))
      if (auto Slot = slotOf(Root))
        Defs.push_back(*Slot);
  };
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const class Decl *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        if (auto Slot = slotOf(Var))
          Defs.push_back(*Slot);
    return;
  }
  if (isa<ReturnStmt>(S)) {
    Defs.push_back(ReturnSlot);
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    for (const Expr *Output : Asm->outputs())
      AddRoot(Output);
    return;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(S)) {
    if (Binary->isAssignmentOp())
      AddRoot(Binary->getLHS());
    return;
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(S)) {
    if (Unary->isIncrementDecrementOp())
      AddRoot(Unary->getSubExpr());
    return;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      AddRoot(Op->getArg(0));
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // Locals a call may write: passed by writable reference or pointer, or
    // the object of a non-const member function.
    for (const Expr *Arg : Call->arguments()) {
      if (const VarDecl *Var = addressedVariable(Arg))
        if (auto Slot = slotOf(Var))
          Defs.push_back(*Slot);
      if (const VarDecl *Var = rootVariable(Arg, nullptr))
        if (auto Slot = slotOf(Var); Slot && Escaped.test(*Slot))
          Defs.push_back(*Slot);
    }
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      AddRoot(Member->getImplicitObjectArgument());
  }
}

FunctionDivergence::Impl::State FunctionDivergence::Impl::initialState() {
  State S(Vars.size() + 1);
  unsigned Index = 0;
  for (const ParmVarDecl *Param : FD->parameters()) {
    // A kernel's parameters are the same for the whole launch; a device
    // function's are whatever its callers pass.
    Uniformity Input = IsKernel || Index >= Uniformity::FirstCaptureSymbol
                           ? Uniformity()
                           : Uniformity::symbol(Index);
    // What every launch in the TU passes: `GGML_ASSERT(ne0 % 32 == 0)` before
    // the launch makes `i >= ne0` split no warp (LaunchShape.h).
    if (IsKernel && Mgr)
      Input.setKnownAlignLog2(Mgr->launchArgumentAlignLog2(FD, Index));
    S.mutableAt(VarIndex[Param]) = Input;
    ++Index;
  }
  return S;
}

//===----------------------------------------------------------------------===//
// The fixed point
//===----------------------------------------------------------------------===//

void FunctionDivergence::Impl::run() {
  const Stmt *Body = FD->getBody();
  if (!Body)
    return;
  IsKernel = FD->hasAttr<CUDAGlobalAttr>();
  RowsWarpAligned = Mgr ? Mgr->rowsAreWarpAligned(FD)
                        : Opts.AssumeBlockDimXMultipleOf32;

  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  Options.AddInitializers = false;
  Options.AddLifetime = false;
  Options.AddScopes = false;
  Options.AddEHEdges = false;
  Options.AddCXXNewAllocator = false;
  Options.AddCXXDefaultInitExprInCtors = false;
  Cfg = CFG::buildCFG(FD, const_cast<Stmt *>(Body), &Ctx, Options);
  if (!Cfg)
    return;
  Parents = std::make_unique<ParentMap>(const_cast<Stmt *>(Body));
  scanBody(Body);
  mapBlocks();
  // Every analysis of a TU stays cached: size the maps for this function.
  // (DenseMap's reserve() and first insertion allocate 64 buckets at least;
  // constructing with a count allocates just enough.)
  Values = decltype(Values)(StmtBlock.size());
  Bindings = decltype(Bindings)(Calls.size());
  PostDom = std::make_unique<CFGPostDomTree>(Cfg.get());

  unsigned N = Cfg->getNumBlockIDs();
  Out.assign(N, State());
  Visited.resize(N);
  Cond.assign(N, std::nullopt);
  Regions.resize(N);
  JoinOf.assign(N, {});

  // Parameters whose address escapes start from what the caller passed.
  State Initial = initialState();
  for (unsigned Slot = 0; Slot < Vars.size(); ++Slot)
    if (Escaped.test(Slot) && isa<ParmVarDecl>(Vars[Slot]))
      escapedJoin(Slot, Initial[Slot]);
  EscapedChanged = false;

  PostOrderCFGView Order(Cfg.get());
  ForwardDataflowWorklist Worklist(*Cfg, &Order);
  Worklist.enqueueBlock(&Cfg->getEntry());
  // Locals whose address escaped are flow-insensitive; when one of them
  // narrows, every block that read it runs again.
  while (true) {
    while (const CFGBlock *B = Worklist.dequeue())
      visit(B, Worklist);
    if (!EscapedChanged)
      break;
    EscapedChanged = false;
    for (const CFGBlock *B : *Cfg)
      if (Visited.test(B->getBlockID()))
        Worklist.enqueueBlock(B);
  }

  const CFGBlock &Exit = Cfg->getExit();
  if (Visited.test(Exit.getBlockID()))
    ReturnValue = Out[Exit.getBlockID()][ReturnSlot];
  computeControl();
  Analyzed = true;
  releaseSolverState();
}

/// Every analysis of a TU stays cached while the checks run, so what only
/// the fixed point and computeControl() need goes: the queries read Values,
/// Cond, Control, ControlDeps, Bindings and the CFG maps.
void FunctionDivergence::Impl::releaseSolverState() {
  Out = std::vector<State>();
  Regions = std::vector<std::unique_ptr<Region>>();
  JoinOf = std::vector<llvm::SmallVector<unsigned, 2>>();
  DefsInBlock = std::vector<llvm::SmallVector<unsigned, 2>>();
  EscapedValue = std::vector<Uniformity>();
  VarIndex = llvm::DenseMap<const VarDecl *, unsigned>();
  CancellingLoops = decltype(CancellingLoops)();
  Butterflies = decltype(Butterflies)();
  PostDom.reset();
}

FunctionDivergence::Impl::State
FunctionDivergence::Impl::entryState(const CFGBlock *B) {
  if (B == &Cfg->getEntry())
    return initialState();
  State S;
  for (const CFGBlock::AdjacentBlock &Pred : B->preds()) {
    const CFGBlock *P = Pred.getReachableBlock();
    if (!P || !Visited.test(P->getBlockID()))
      continue;
    const State &PredOut = Out[P->getBlockID()];
    State Reduced;
    const State *Incoming = &PredOut;
    if (const ButterflyLoop *Loop = butterflyExitingTo(P, B)) {
      // Leaving a butterfly reduction: every lane of each segment has
      // combined the whole segment (WarpReductions.h).
      std::optional<Level> Tile = Level::tile(Loop->Width);
      if (std::optional<unsigned> Slot = slotOf(Loop->Value);
          Tile && Slot && !Escaped.test(*Slot)) {
        Level Segment = *Tile;
        if (PredOut[*Slot].level() < Segment ||
            PredOut[*Slot].dependsOnSymbols()) {
          Reduced = PredOut;
          Reduced.mutableAt(*Slot) = Uniformity::at(
              Segment, {OriginKind::Intrinsic, P->getTerminatorStmt()});
          Incoming = &Reduced;
        }
      }
    }
    if (S.empty()) {
      S = *Incoming;
      continue;
    }
    S.join(*Incoming);
  }
  if (S.empty())
    S = State(Vars.size() + 1);
  // Sync and temporal divergence: where paths that split at a non-uniform
  // branch meet again, what they assigned is only as uniform as the branch.
  for (unsigned Branch : JoinOf[B->getBlockID()]) {
    const std::optional<Uniformity> &C = Cond[Branch];
    if (!C || C->isTop())
      continue;
    const Region &R = *Regions[Branch];
    const CFGBlock *BranchBlock = blockById(Branch);
    const Stmt *Where = conditionOf(BranchBlock);
    if (!Where)
      Where = BranchBlock->getTerminatorStmt();
    Uniformity Narrow = Uniformity::at(
        C->level(), ValueOrigin{R.Temporal ? OriginKind::TemporalDivergence
                                           : OriginKind::SyncDivergence,
                                Where});
    Narrow.addSymbols(C->symbols());
    for (unsigned Slot : R.Defs) {
      if (Escaped.test(Slot))
        escapedJoin(Slot, Narrow);
      else
        S.mutableAt(Slot).join(Narrow);
    }
  }
  return S;
}

void FunctionDivergence::Impl::visit(const CFGBlock *B,
                                     ForwardDataflowWorklist &Worklist) {
  unsigned Id = B->getBlockID();
  State In = entryState(B);
  Current = B;
  Live = &In;
  ++VisitCounter;
  ValuesChanged = false;
  for (const CFGElement &Element : *B)
    if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>())
      transfer(S->getStmt());

  if (successors(B).size() >= 2) {
    Uniformity C;
    if (const Expr *Condition = conditionOf(B))
      C = valueOf(Condition);
    if (const CancellingLoop *Loop = cancellingLoopOf(B)) {
      // `for (t = X + tid; t < Y + tid; t += S)`: tid cancels, the trip
      // count is as uniform as X, Y and S (ThreadIndexForms.h).
      C = Uniformity();
      for (const Expr *Deciding : Loop->Deciding)
        C.join(valueOf(Deciding));
    }
    C.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
    std::optional<Uniformity> &Known = Cond[Id];
    Uniformity Joined = Known ? Uniformity::join(*Known, C) : C;
    if (!Known || !Known->sameAs(Joined)) {
      Known = Joined;
      if (!Joined.isTop())
        for (unsigned Join : region(B).Joins)
          Worklist.enqueueBlock(blockById(Join));
    }
  }

  bool Changed = !Visited.test(Id) || ValuesChanged || !Out[Id].sameAs(In);
  Out[Id] = std::move(In);
  Live = nullptr;
  Current = nullptr;
  Visited.set(Id);
  if (Changed)
    Worklist.enqueueSuccessors(B);
}

void FunctionDivergence::Impl::transfer(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S)) {
    Uniformity U = valueOf(E);
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      if (Binary->isAssignmentOp())
        assign(Binary->getLHS(), U);
    } else if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->isIncrementDecrementOp())
        assign(Unary->getSubExpr(), U);
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->isAssignmentOp() && Op->getNumArgs() == 2) {
        Uniformity V = valueOf(Op->getArg(1));
        if (Op->getOperator() != OO_Equal)
          V.join(valueOf(Op->getArg(0)));
        assign(Op->getArg(0), V.clearLaneLinear());
      }
    }
    return;
  }
  if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
    for (const class Decl *D : Decl->decls())
      if (const auto *Var = dyn_cast<VarDecl>(D))
        declare(Var);
    return;
  }
  if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
    if (const Expr *Value = Return->getRetValue())
      Live->mutableAt(ReturnSlot) = valueOf(Value);
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    Level L = inlineAsmOutputLevel(Asm->getAsmString());
    Uniformity V = Uniformity::at(L, {OriginKind::InlineAsm, Asm});
    if (L == Level::grid())
      for (const Expr *Input : Asm->inputs())
        V.join(valueOf(Input));
    V.clearLaneLinear().setKnownAlignLog2(0);
    for (const Expr *Output : Asm->outputs())
      assign(Output, V);
    return;
  }
}

void FunctionDivergence::Impl::declare(const VarDecl *Var) {
  auto Slot = slotOf(Var);
  if (!Slot)
    return;
  Uniformity V;
  if (Var->isConstexpr() && !Var->getType()->isReferenceType()) {
    // A compile-time constant: the same in every thread of every instance,
    // whatever the functions its initializer calls would compute at run
    // time.
    if (Var->getType()->isIntegralOrEnumerationType())
      if (const APValue *Value = Var->evaluateValue(); Value && Value->isInt())
        V.setKnownAlignLog2(alignOfConstant(Value->getInt()));
    if (Escaped.test(*Slot))
      escapedJoin(*Slot, V);
    else
      Live->mutableAt(*Slot) = V;
    return;
  }
  if (const Expr *Init = Var->getInit()) {
    V = valueOf(Init);
    if (Var->getType()->isReferenceType()) {
      // A reference holds what it refers to; reads through it see the
      // locals it may alias.
      V.setPointsToLocal(rootVariable(Init, nullptr) != nullptr ||
                         addressOf(Init).mayPointToLocal());
    }
  }
  if (Escaped.test(*Slot))
    escapedJoin(*Slot, V);
  else
    Live->mutableAt(*Slot) = V;
}

Uniformity FunctionDivergence::Impl::readSlot(unsigned Slot) const {
  Uniformity V = Escaped.test(Slot) ? EscapedValue[Slot] : (*Live)[Slot];
  if (Slot < Vars.size() && Vars[Slot]->getType()->isReferenceType() &&
      V.mayPointToLocal()) {
    Uniformity Aliased = AllEscaped;
    V.join(Aliased.setPointsToLocal(false));
  }
  return V;
}

void FunctionDivergence::Impl::escapedJoin(unsigned Slot,
                                           const Uniformity &V) {
  Uniformity Joined = Uniformity::join(EscapedValue[Slot], V);
  if (Joined.sameAs(EscapedValue[Slot]))
    return;
  EscapedValue[Slot] = Joined;
  EscapedChanged = true;
  Uniformity Content = Joined;
  AllEscaped.join(Content.setPointsToLocal(false).clearLaneLinear());
}

void FunctionDivergence::Impl::assign(const Expr *LHS, const Uniformity &V) {
  const Expr *Target = LHS->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Target)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    auto Slot = Var ? slotOf(Var) : std::nullopt;
    if (!Slot) {
      if (Var && Var->getType()->isReferenceType())
        IndirectStores.join(V);
      return;
    }
    if (Var->getType()->isReferenceType()) {
      // Writes through the reference; afterwards reads of it see V.
      Uniformity Old = readSlot(*Slot);
      storeThrough(LHS, V);
      Uniformity New = V;
      New.setPointsToLocal(Old.mayPointToLocal());
      if (Escaped.test(*Slot))
        escapedJoin(*Slot, New);
      else
        Live->mutableAt(*Slot) = New;
      return;
    }
    if (Escaped.test(*Slot))
      escapedJoin(*Slot, V);
    else
      Live->mutableAt(*Slot) = V;
    return;
  }
  llvm::SmallVector<const Expr *, 2> Indices;
  if (const VarDecl *Root = rootVariable(Target, &Indices)) {
    if (auto Slot = slotOf(Root)) {
      // One element or field of a local aggregate: a weak update, with the
      // index deciding which element each thread wrote.
      Uniformity W = V;
      for (const Expr *Index : Indices)
        W.join(valueOf(Index));
      W.clearLaneLinear();
      if (Escaped.test(*Slot))
        escapedJoin(*Slot, W);
      else
        Live->mutableAt(*Slot).join(W);
    }
    return;
  }
  storeThrough(LHS, V);
}

/// A store to memory through a pointer or reference.
void FunctionDivergence::Impl::storeThrough(const Expr *LHS,
                                            const Uniformity &V) {
  // Stores to globals and __shared__ arrays by name cannot reach a
  // caller's locals.
  const Expr *Base = LHS->IgnoreParenImpCasts();
  while (true) {
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Base))
      Base = Subscript->getBase()->IgnoreParenImpCasts();
    else if (const auto *Member = dyn_cast<MemberExpr>(Base);
             Member && !Member->isArrow())
      Base = Member->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Base))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (!Var->hasLocalStorage() && !Var->getType()->isReferenceType())
        return;
  Uniformity Stored = V;
  Stored.clearLaneLinear().setPointsToLocal(false);
  IndirectStores.join(Stored);
  if (addressOf(LHS).mayPointToLocal())
    for (unsigned Slot = 0; Slot < Vars.size(); ++Slot)
      if (Escaped.test(Slot))
        escapedJoin(Slot, Stored);
}

Uniformity FunctionDivergence::Impl::readVariable(const VarDecl *Var,
                                                  const Expr *Where) {
  if (auto Slot = slotOf(Var))
    return readSlot(*Slot);
  auto Capture = CaptureSymbol.find(Var);
  if (Capture != CaptureSymbol.end())
    return Uniformity::symbol(Capture->second);
  if (Var->hasLocalStorage())
    return Uniformity();
  if (Var->hasAttr<CUDASharedAttr>())
    return Uniformity::at(Level::block(),
                          {OriginKind::SharedMemory, Where});
  Uniformity U;
  if (Var->getType().isConstQualified() &&
      Var->getType()->isIntegralOrEnumerationType())
    if (std::optional<llvm::APSInt> Value = constantInt(Where, Ctx))
      U.setKnownAlignLog2(alignOfConstant(*Value));
  return U;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Uniformity FunctionDivergence::Impl::valueOf(const Expr *E) {
  E = E->IgnoreParens();
  auto It = Values.find(E);
  auto Home = StmtBlock.find(E);
  bool ElsewhereInCfg = Home != StmtBlock.end() && Home->second != Current;
  if (It != Values.end() &&
      (It->second.Visit == VisitCounter || ElsewhereInCfg))
    return It->second.U;
  // Evaluated in another block that has not run yet: optimistic until it
  // does (the worklist comes back here when it changes).
  if (ElsewhereInCfg)
    return Uniformity();
  Uniformity U = evaluate(E);
  store(E, U);
  return Values[E].U;
}

void FunctionDivergence::Impl::store(const Expr *E, const Uniformity &U) {
  CachedValue &Slot = Values[E];
  if (Slot.Visit == 0) {
    Slot.U = U;
    ValuesChanged = true;
  } else {
    Uniformity Joined = Uniformity::join(Slot.U, U);
    if (!Joined.sameAs(Slot.U)) {
      Slot.U = Joined;
      ValuesChanged = true;
    }
  }
  Slot.Visit = VisitCounter;
}

Uniformity
FunctionDivergence::Impl::indexRead(const BuiltinIndexRead &Read,
                                    const Expr *Where) const {
  ValueOrigin Origin{OriginKind::HardwareIndex, Where};
  switch (Read.Var) {
  case BuiltinIndexRead::ThreadIdx:
    if (Read.Component == 'x')
      return Uniformity::varying(Origin).setLaneLinear(Level::grid(), 63);
    if (Read.Component != 0 && RowsWarpAligned)
      return Uniformity::at(Level::warp(), Origin);
    return Uniformity::varying(Origin);
  case BuiltinIndexRead::BlockIdx:
    return Uniformity::at(Level::block(), Origin);
  case BuiltinIndexRead::BlockDim: {
    // Launches use whole warps per row in practice; the lane arithmetic
    // relies on it (documented in docs/design/divergence.md).
    Uniformity U;
    if (Read.Component == 'x')
      U.setKnownAlignLog2(5);
    return U;
  }
  case BuiltinIndexRead::GridDim:
    return Uniformity();
  }
  return Uniformity();
}

Uniformity FunctionDivergence::Impl::loadThrough(Uniformity Address,
                                                 QualType Loaded) const {
  Uniformity Value = Address;
  Value.clearLaneLinear().setKnownAlignLog2(0);
  if (Address.mayPointToLocal()) {
    Uniformity Aliased = AllEscaped;
    Value.join(Aliased.setPointsToLocal(false));
  }
  bool StillPointer = !Loaded.isNull() && (Loaded->isPointerType() ||
                                           Loaded->isReferenceType());
  Value.setPointsToLocal(Address.mayPointToLocal() && StillPointer);
  return Value;
}

Uniformity FunctionDivergence::Impl::addressOf(const Expr *LValue) {
  const Expr *E = LValue->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return Uniformity();
    if (auto Slot = slotOf(Var)) {
      if (Var->getType()->isReferenceType())
        return readSlot(*Slot);
      // A local's address is the same number in every thread, but what it
      // points to is each thread's own.
      return Uniformity().setPointsToLocal(true);
    }
    if (CaptureSymbol.contains(Var))
      return readVariable(Var, E).setPointsToLocal(true);
    if (Var->hasAttr<CUDASharedAttr>())
      return Uniformity::at(Level::block(), {OriginKind::SharedMemory, E});
    return Uniformity();
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (Member->isArrow())
      return valueOf(Member->getBase());
    if (isa<VarDecl>(Member->getMemberDecl()))
      return Uniformity();
    return addressOf(Member->getBase());
  }
  if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
    return Uniformity::join(valueOf(Subscript->getBase()),
                            valueOf(Subscript->getIdx()))
        .clearLaneLinear();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    if (Unary->getOpcode() == UO_Deref)
      return valueOf(Unary->getSubExpr());
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E))
    if (Cast->getCastKind() == CK_NoOp ||
        Cast->getCastKind() == CK_DerivedToBase ||
        Cast->getCastKind() == CK_UncheckedDerivedToBase)
      return addressOf(Cast->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return valueOf(Temporary->getSubExpr());
  // Calls returning references and the like: as uniform as their value.
  return valueOf(E);
}

Uniformity FunctionDivergence::Impl::evaluate(const Expr *E) {
  if (isa<PseudoObjectExpr>(E) || isa<CallExpr>(E) || isa<DeclRefExpr>(E))
    if (std::optional<BuiltinIndexRead> Read = asBuiltinIndexRead(E))
      return indexRead(*Read, E);

  if (const auto *Int = dyn_cast<IntegerLiteral>(E)) {
    Uniformity U;
    return U.setKnownAlignLog2(alignOfConstant(
        llvm::APSInt(Int->getValue(), /*isUnsigned=*/true)));
  }
  if (isa<CharacterLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<StringLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
      isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E) ||
      isa<UnaryExprOrTypeTraitExpr>(E) || isa<OffsetOfExpr>(E) ||
      isa<SizeOfPackExpr>(E) || isa<TypeTraitExpr>(E) ||
      isa<CXXNoexceptExpr>(E) || isa<CXXScalarValueInitExpr>(E) ||
      isa<ImplicitValueInitExpr>(E) || isa<LambdaExpr>(E) ||
      isa<SourceLocExpr>(E) || isa<CXXTypeidExpr>(E) ||
      isa<ArrayTypeTraitExpr>(E) || isa<ExpressionTraitExpr>(E))
    return Uniformity();
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return valueOf(Subst->getReplacement());
  if (const auto *Full = dyn_cast<FullExpr>(E))
    return valueOf(Full->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return valueOf(Temporary->getSubExpr());
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return valueOf(Bind->getSubExpr());
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return valueOf(Default->getExpr());
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(E))
    return valueOf(Default->getExpr());
  if (const auto *Opaque = dyn_cast<OpaqueValueExpr>(E))
    return Opaque->getSourceExpr() ? valueOf(Opaque->getSourceExpr())
                                   : Uniformity();
  if (const auto *Pseudo = dyn_cast<PseudoObjectExpr>(E)) {
    if (const Expr *Result = Pseudo->getResultExpr())
      return valueOf(Result);
    Uniformity U;
    for (const Expr *Semantic : Pseudo->semantics())
      U.join(valueOf(Semantic));
    return U.clearLaneLinear();
  }

  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return readVariable(Var, E);
    if (const auto *Enum = dyn_cast<EnumConstantDecl>(Ref->getDecl())) {
      Uniformity U;
      return U.setKnownAlignLog2(alignOfConstant(Enum->getInitVal()));
    }
    return Uniformity();
  }
  if (isa<CXXThisExpr>(E))
    return Uniformity::symbol(Uniformity::ThisSymbol);

  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (const auto *Var = dyn_cast<VarDecl>(Member->getMemberDecl()))
      return readVariable(Var, E);
    if (!isa<FieldDecl>(Member->getMemberDecl()))
      return Uniformity();
    llvm::SmallVector<const Expr *, 2> Indices;
    if (const VarDecl *Root = rootVariable(E, &Indices))
      if (auto Slot = slotOf(Root)) {
        Uniformity U = readSlot(*Slot);
        for (const Expr *Index : Indices)
          U.join(valueOf(Index));
        return U.clearLaneLinear().setKnownAlignLog2(0);
      }
    if (!Member->isArrow())
      return Uniformity(valueOf(Member->getBase()))
          .clearLaneLinear()
          .setKnownAlignLog2(0);
    return loadThrough(addressOf(E), E->getType());
  }
  if (isa<ArraySubscriptExpr>(E)) {
    llvm::SmallVector<const Expr *, 2> Indices;
    if (const VarDecl *Root = rootVariable(E, &Indices))
      if (auto Slot = slotOf(Root)) {
        Uniformity U = readSlot(*Slot);
        for (const Expr *Index : Indices)
          U.join(valueOf(Index));
        return U.clearLaneLinear().setKnownAlignLog2(0);
      }
    return loadThrough(addressOf(E), E->getType());
  }

  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    switch (Unary->getOpcode()) {
    case UO_Deref:
      return loadThrough(valueOf(Unary->getSubExpr()), E->getType());
    case UO_AddrOf:
      return addressOf(Unary->getSubExpr());
    case UO_Plus:
      return valueOf(Unary->getSubExpr());
    default:
      return Uniformity(valueOf(Unary->getSubExpr()))
          .clearLaneLinear()
          .setKnownAlignLog2(0);
    }
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return evaluateCast(Cast);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E))
    return evaluateBinary(Binary);
  if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E)) {
    // Threads that disagree on the condition pick different arms.
    Uniformity U = valueOf(Conditional->getCond());
    U.join(valueOf(Conditional->getTrueExpr()));
    U.join(valueOf(Conditional->getFalseExpr()));
    return U.clearLaneLinear().setKnownAlignLog2(0);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evaluateCall(Call);
  if (isa<AtomicExpr>(E))
    return Uniformity::varying({OriginKind::AtomicResult, E});
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    Uniformity U;
    for (const Expr *Arg : Construct->arguments())
      U.join(valueOf(Arg));
    return U.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
  }
  if (const auto *Init = dyn_cast<InitListExpr>(E)) {
    Uniformity U;
    for (const Expr *Element : Init->inits())
      if (Element)
        U.join(valueOf(Element));
    return U.clearLaneLinear().setKnownAlignLog2(0);
  }
  if (const auto *StmtE = dyn_cast<StmtExpr>(E)) {
    const CompoundStmt *Body = StmtE->getSubStmt();
    if (!Body->body_empty())
      if (const auto *Last = dyn_cast<Expr>(Body->body_back()))
        return valueOf(Last);
    return Uniformity();
  }
  // Anything else: as uniform as its operands.
  Uniformity U;
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      U.join(valueOf(ChildExpr));
  return U.clearLaneLinear().setKnownAlignLog2(0);
}

Uniformity FunctionDivergence::Impl::evaluateCast(const CastExpr *Cast) {
  const Expr *Sub = Cast->getSubExpr();
  switch (Cast->getCastKind()) {
  case CK_LValueToRValue:
    // A volatile read outside shared memory is how code watches what other
    // blocks (or the host) write while it runs: the threads of a block may
    // each see a different value. A volatile __shared__ variable is only
    // written by the block itself, and is read like any other.
    if (Sub->getType().isVolatileQualified() && !isSharedVariableAccess(Sub))
      return Uniformity::varying({OriginKind::VolatileLoad, Cast});
    return valueOf(Sub);
  case CK_ArrayToPointerDecay:
    return addressOf(Sub);
  case CK_FunctionToPointerDecay:
  case CK_BuiltinFnToFnPtr:
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    return Uniformity();
  case CK_NoOp:
  case CK_IntegralCast:
  case CK_LValueToRValueBitCast:
    return valueOf(Sub);
  default:
    return Uniformity(valueOf(Sub)).clearLaneLinear().setKnownAlignLog2(0);
  }
}

Uniformity FunctionDivergence::Impl::evaluateBinary(const BinaryOperator *B) {
  BinaryOperatorKind Op = B->getOpcode();
  if (Op == BO_Assign)
    return valueOf(B->getRHS());
  if (Op == BO_Comma)
    return valueOf(B->getRHS());
  if (Op == BO_LAnd || Op == BO_LOr)
    return Uniformity::join(valueOf(B->getLHS()), valueOf(B->getRHS()))
        .clearLaneLinear()
        .setKnownAlignLog2(0);
  if (B->isCompoundAssignmentOp())
    Op = BinaryOperator::getOpForCompoundAssignment(Op);
  return arithmetic(Op, B->getLHS(), B->getRHS(), valueOf(B->getLHS()),
                    valueOf(B->getRHS()));
}

/// thread_rank() of a thread_block is the block's linear thread index (what
/// warps are cut from); of a thread_block_tile<N>, that index modulo N. Both
/// are lane-linear, like threadIdx.x and threadIdx.x % N, so that
/// `tile.thread_rank() < 16` is uniform within tiles of 16 and
/// `block.thread_rank() / 32` is the warp index. Returns the level and the
/// alignment of the offset, as setLaneLinear() takes them. (Added for the
/// warp-scope checks: cuda-full-warp-mask, cuda-divergent-group-creation,
/// tile collectives in cuda-divergent-barrier.)
///
/// A grid_group's thread_rank() is the block's rank times the block size
/// plus the thread's rank in the block: lane-linear with a block-uniform
/// offset, which is a multiple of 32 when the block size is, that is when
/// the TU shows blocks whole warps wide (\p RowsWarpAligned). So a
/// grid-stride loop `for (i = grid.thread_rank(); i < n; i += grid.size())`
/// has one trip count per warp when n is a multiple of 32 (cuda-samples
/// binaryPartitionCG).
static std::optional<std::pair<Level, unsigned>>
rankLaneLinearity(const CallExpr *Call, bool RowsWarpAligned) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() || FD->getName() != "thread_rank")
    return std::nullopt;
  std::optional<GroupOperand> Group = groupOperandOf(Call);
  if (!Group)
    return std::nullopt;
  if (Group->Kind == GroupKind::ThreadBlock)
    return std::make_pair(Level::grid(), 63u);
  if (Group->Kind == GroupKind::GridGroup && RowsWarpAligned)
    return std::make_pair(Level::block(), 5u);
  if (Group->Kind == GroupKind::Tile && Group->TileSize)
    if (std::optional<Level> Tile = Level::tile(*Group->TileSize))
      return std::make_pair(*Tile, Tile->tileLog2Value());
  return std::nullopt;
}

/// The known alignment of a group's size: a thread_block's or grid_group's
/// size() / num_threads() is a multiple of 32 when the TU shows blocks whole
/// warps wide; a thread_block_tile<N>'s is N. 0 for anything else.
static unsigned groupSizeAlignLog2(const CallExpr *Call,
                                   bool RowsWarpAligned) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier() ||
      (FD->getName() != "size" && FD->getName() != "num_threads"))
    return 0;
  std::optional<GroupOperand> Group = groupOperandOf(Call);
  if (!Group)
    return 0;
  if ((Group->Kind == GroupKind::ThreadBlock ||
       Group->Kind == GroupKind::GridGroup) &&
      RowsWarpAligned)
    return 5;
  if (Group->Kind == GroupKind::Tile && Group->TileSize &&
      llvm::isPowerOf2_32(*Group->TileSize))
    return llvm::Log2_32(*Group->TileSize);
  return 0;
}

/// A lane-linear index compared with a bound: `tid < C` with C a multiple
/// of 2^k (and the index's offset one too) gives the same answer to every
/// thread of an aligned tile of 2^k threads, since such a tile lies wholly
/// below or wholly at or above C. So `threadIdx.x < 32` is warp-uniform and
/// `threadIdx.x < 16` is not. `<=` and `>` need C + 1 to be the multiple,
/// which only a constant bound tells. Anything else: \p Joined, unchanged.
/// (Added for the warp-scope checks: cuda-full-warp-mask,
/// cuda-divergent-group-creation.)
static Uniformity laneBoundComparison(BinaryOperatorKind Op, const Expr *LHS,
                                      const Expr *RHS, const Uniformity &L,
                                      const Uniformity &R, Uniformity Joined,
                                      const ASTContext &Ctx) {
  Joined.setKnownAlignLog2(0);
  if (L.isScaledLaneLinear() == R.isScaledLaneLinear())
    return Joined;
  bool LaneOnLeft = L.isScaledLaneLinear();
  const Uniformity &Lane = LaneOnLeft ? L : R;
  const Uniformity &Bound = LaneOnLeft ? R : L;
  const Expr *BoundExpr = LaneOnLeft ? RHS : LHS;
  // As `Lane op Bound`.
  if (!LaneOnLeft)
    Op = Op == BO_LT   ? BO_GT
         : Op == BO_GT ? BO_LT
         : Op == BO_LE ? BO_GE
                       : BO_LE;
  unsigned BoundAlign;
  if (Op == BO_LT || Op == BO_GE) {
    BoundAlign = Bound.knownAlignLog2();
  } else {
    std::optional<llvm::APSInt> C = constantInt(BoundExpr, Ctx);
    if (!C)
      return Joined;
    llvm::APSInt Next = C->extend(C->getBitWidth() + 1);
    ++Next;
    BoundAlign = alignOfConstant(Next);
  }
  // `2^s * lane + U op B` with U and B multiples of 2^(s + t) is decided by
  // the multiples alone in every aligned tile of 2^t lanes.
  unsigned Aligned = std::min(BoundAlign, Lane.laneOffsetAlignLog2());
  if (Aligned < Lane.laneScaleLog2())
    return Joined;
  unsigned TileLog2 =
      std::min(Aligned - Lane.laneScaleLog2(),
               static_cast<unsigned>(Level::MaxTileLog2));
  Level Shared = std::min({Level::tileLog2(TileLog2), Lane.laneOffsetLevel(),
                           Bound.level()});
  if (Shared <= Joined.level())
    return Joined;
  Uniformity Result = Uniformity::at(Shared, Lane.origin());
  Result.addSymbols(L.symbols() | R.symbols());
  return Result;
}

/// Operators join their operands; the lane arithmetic below is what makes
/// `threadIdx.x / 32` warp-uniform and `threadIdx.x % 32` a lane index.
Uniformity FunctionDivergence::Impl::arithmetic(BinaryOperatorKind Op,
                                                const Expr *LHS,
                                                const Expr *RHS, Uniformity L,
                                                const Uniformity &R) const {
  Uniformity Result = Uniformity::join(L, R);
  Result.clearLaneLinear().setPointsToLocal(L.mayPointToLocal() ||
                                            R.mayPointToLocal());
  std::optional<llvm::APSInt> RConst = constantInt(RHS, Ctx);

  switch (Op) {
  case BO_Add:
  case BO_Sub: {
    Result.setKnownAlignLog2(
        std::min(L.knownAlignLog2(), R.knownAlignLog2()));
    const Uniformity *Lane = nullptr;
    const Uniformity *Offset = nullptr;
    const Expr *OffsetExpr = nullptr;
    if (L.isScaledLaneLinear() && !R.isScaledLaneLinear()) {
      Lane = &L;
      Offset = &R;
      OffsetExpr = RHS;
    } else if (Op == BO_Add && R.isScaledLaneLinear() &&
               !L.isScaledLaneLinear()) {
      Lane = &R;
      Offset = &L;
      OffsetExpr = LHS;
    }
    if (Lane) {
      if (isRowOffset(OffsetExpr) && Lane->laneScaleLog2() == 0)
        Result.setLaneLinear(Lane->laneOffsetLevel(),
                             Lane->laneOffsetAlignLog2());
      else
        Result.setScaledLaneLinear(
            std::min(Lane->laneOffsetLevel(), Offset->level()),
            std::min(Lane->laneOffsetAlignLog2(), Offset->knownAlignLog2()),
            Lane->laneScaleLog2());
    }
    return Result;
  }
  case BO_Mul: {
    Result.setKnownAlignLog2(L.knownAlignLog2() + R.knownAlignLog2());
    // (lane + U) * 2^k: still lane-linear, the lane scaled by 2^k
    // (ggml's `i0 = (blockDim.x*blockIdx.y + threadIdx.x)*4`).
    std::optional<llvm::APSInt> LConst = constantInt(LHS, Ctx);
    const Uniformity *Lane = L.isScaledLaneLinear() ? &L
                             : R.isScaledLaneLinear() ? &R
                                                      : nullptr;
    std::optional<llvm::APSInt> &Factor = Lane == &L ? RConst : LConst;
    if (Lane && Factor && Factor->isStrictlyPositive() &&
        Factor->getActiveBits() <= 32 &&
        llvm::isPowerOf2_64(Factor->getZExtValue())) {
      unsigned K = llvm::Log2_64(Factor->getZExtValue());
      Result.setScaledLaneLinear(Lane->laneOffsetLevel(),
                                 Lane->laneOffsetAlignLog2() + K,
                                 Lane->laneScaleLog2() + K);
    }
    return Result;
  }
  case BO_Shl:
    if (RConst && RConst->isNonNegative()) {
      auto K = static_cast<unsigned>(RConst->getZExtValue());
      Result.setKnownAlignLog2(L.knownAlignLog2() + K);
      if (L.isScaledLaneLinear() && K < 32)
        Result.setScaledLaneLinear(L.laneOffsetLevel(),
                                   L.laneOffsetAlignLog2() + K,
                                   L.laneScaleLog2() + K);
    }
    return Result;
  case BO_Div:
  case BO_Shr: {
    if (!RConst || !L.isLaneLinear() || RConst->isNegative())
      return Result.setKnownAlignLog2(0);
    unsigned Log2;
    if (Op == BO_Shr) {
      Log2 = static_cast<unsigned>(RConst->getZExtValue());
    } else {
      uint64_t Divisor = RConst->getZExtValue();
      if (!llvm::isPowerOf2_64(Divisor))
        return Result.setKnownAlignLog2(0);
      Log2 = llvm::Log2_64(Divisor);
    }
    // (L + U) / 2^k with U a multiple of 2^a: the same for every thread of
    // an aligned tile of 2^min(k, a) threads, and no wider than U itself.
    unsigned TileLog2 = std::min({Log2, L.laneOffsetAlignLog2(),
                                  static_cast<unsigned>(Level::MaxTileLog2)});
    Level Shared = std::min(Level::tileLog2(TileLog2), L.laneOffsetLevel());
    Uniformity Quotient = Uniformity::at(Shared, L.origin());
    Quotient.addSymbols(L.symbols() | R.symbols());
    return Quotient;
  }
  case BO_Rem:
  case BO_And: {
    Result.setKnownAlignLog2(0);
    if (!RConst || !L.isLaneLinear() || RConst->isNegative())
      return Result;
    uint64_t Value = RConst->getZExtValue();
    uint64_t Modulus = Op == BO_Rem ? Value : Value + 1;
    if (!llvm::isPowerOf2_64(Modulus))
      return Result;
    unsigned Log2 = llvm::Log2_64(Modulus);
    // (L + U) mod 2^k = L mod 2^k when U is a multiple of 2^k: still
    // consecutive across a tile of 2^k, minus a tile-uniform offset.
    if (Log2 > L.laneOffsetAlignLog2() || Log2 > Level::MaxTileLog2)
      return Result;
    Result.setLaneLinear(Level::tileLog2(Log2), Log2);
    return Result;
  }
  case BO_LT:
  case BO_GT:
  case BO_LE:
  case BO_GE:
    return laneBoundComparison(Op, LHS, RHS, L, R, Result, Ctx);
  default:
    return Result.setKnownAlignLog2(0);
  }
}

Uniformity FunctionDivergence::Impl::argumentValue(const Expr *Arg) {
  Uniformity V = valueOf(Arg);
  if (V.mayPointToLocal()) {
    Uniformity Aliased = AllEscaped;
    V.join(Aliased.setPointsToLocal(false));
  }
  return V;
}

Uniformity FunctionDivergence::Impl::evaluateCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();

  // The object and the arguments as the callee's parameters see them.
  const Expr *Object = nullptr;
  llvm::SmallVector<const Expr *, 4> Args;
  unsigned FirstArg = 0;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    Object = Member->getImplicitObjectArgument();
  } else if (isa<CXXOperatorCallExpr>(Call)) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Method && !Method->isStatic() && Call->getNumArgs() > 0) {
      Object = Call->getArg(0);
      FirstArg = 1;
    }
  }
  for (unsigned I = FirstArg; I < Call->getNumArgs(); ++I)
    Args.push_back(Call->getArg(I));

  auto JoinOperands = [&] {
    Uniformity U;
    for (const Expr *Arg : Args)
      U.join(argumentValue(Arg));
    if (Object)
      U.join(valueOf(Object));
    if (!Callee)
      U.join(valueOf(Call->getCallee()));
    return U.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
  };

  // Locals the call may write: by writable reference or pointer, or the
  // object of a non-const member function.
  auto ApplyStores = [&](const Uniformity &Stored) {
    Uniformity V = Stored;
    V.clearLaneLinear().setPointsToLocal(false);
    for (unsigned I = 0; I < Args.size(); ++I) {
      QualType ParamType =
          Callee && I < Callee->getNumParams()
              ? Callee->getParamDecl(I)->getType()
              : Args[I]->getType();
      if (!isWritableIndirection(ParamType))
        continue;
      const VarDecl *Root = ParamType->isReferenceType()
                                ? rootVariable(Args[I], nullptr)
                                : addressedVariable(Args[I]);
      if (!Root && ParamType->isPointerType()) {
        const Expr *Stripped = Args[I]->IgnoreParenImpCasts();
        if (const auto *Decay = dyn_cast<ImplicitCastExpr>(
                Args[I]->IgnoreParens());
            Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
          Root = rootVariable(Decay->getSubExpr(), nullptr);
        else if (valueOf(Stripped).mayPointToLocal())
          for (unsigned Slot = 0; Slot < Vars.size(); ++Slot)
            if (Escaped.test(Slot))
              escapedJoin(Slot, V);
      }
      if (auto Slot = Root ? slotOf(Root) : std::nullopt) {
        if (Escaped.test(*Slot))
          escapedJoin(*Slot, V);
        else
          Live->mutableAt(*Slot).join(V);
      }
    }
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Object && Method && !Method->isConst() && !Method->isStatic())
      if (const VarDecl *Root = rootVariable(Object, nullptr))
        if (auto Slot = slotOf(Root)) {
          if (Escaped.test(*Slot))
            escapedJoin(*Slot, V);
          else
            Live->mutableAt(*Slot).join(V);
        }
  };

  if (Callee) {
    if (std::optional<ResultModel> Model =
            knownResultModel(Call, RowsWarpAligned)) {
      auto Arg = [&](int Index) -> const Expr * {
        return Index >= 0 && static_cast<unsigned>(Index) < Args.size()
                   ? Args[Index]
                   : nullptr;
      };
      switch (Model->Rule) {
      case ResultRule::Fixed: {
        Uniformity Fixed = Uniformity::at(Model->FixedLevel,
                                          {Model->Origin, Call});
        if (auto Lanes = rankLaneLinearity(Call, RowsWarpAligned))
          Fixed.setLaneLinear(Lanes->first, Lanes->second);
        else if (unsigned Align = groupSizeAlignLog2(Call, RowsWarpAligned))
          Fixed.setKnownAlignLog2(Align);
        return Fixed;
      }
      case ResultRule::Atomic:
        return Uniformity::varying({OriginKind::AtomicResult, Call});
      case ResultRule::GroupHandle:
        return Uniformity();
      case ResultRule::FirstArgument:
        return Arg(0) ? valueOf(Arg(0)) : Uniformity();
      case ResultRule::ShuffleIndexed:
      case ResultRule::ShuffleRelative: {
        Level Within = Model->ShuffleLevel;
        if (const Expr *Width = Arg(Model->WidthArg)) {
          std::optional<llvm::APSInt> W = constantInt(Width, Ctx);
          std::optional<Level> Tile =
              W ? Level::tile(static_cast<unsigned>(W->getZExtValue()))
                : std::nullopt;
          Within = Tile ? std::min(Within, *Tile) : Level::thread();
        }
        Uniformity Value =
            Arg(Model->ValueArg) ? valueOf(Arg(Model->ValueArg))
                                 : Uniformity();
        if (Value.level() >= Within)
          return Value.clearLaneLinear().setKnownAlignLog2(0);
        ValueOrigin Origin{OriginKind::Intrinsic, Call};
        if (Model->Rule == ResultRule::ShuffleIndexed) {
          Uniformity Source = Arg(Model->SourceArg)
                                  ? valueOf(Arg(Model->SourceArg))
                                  : Uniformity();
          if (Source.level() >= Within)
            return Uniformity::at(Within, Origin)
                .addSymbols(Value.symbols() | Source.symbols());
          return Uniformity::varying(Origin).addSymbols(Value.symbols() |
                                                        Source.symbols());
        }
        return Uniformity::varying(Origin).addSymbols(Value.symbols());
      }
      }
    }
  }

  const CallSummary *Summary =
      Callee && Mgr && !Callee->isDependentContext() ? Mgr->summary(Callee)
                                                     : nullptr;
  if (!Summary) {
    Uniformity U = JoinOperands();
    ApplyStores(U);
    return U;
  }
  if (Summary->Conservative) {
    Uniformity U = Uniformity::varying({OriginKind::Unknown, Call});
    ApplyStores(U);
    return U;
  }

  const CXXRecordDecl *Closure = nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
    if (Method->getParent() && Method->getParent()->isLambda())
      Closure = Method->getParent();
  auto SymbolValue = [&](unsigned Symbol) -> Uniformity {
    if (Symbol == Uniformity::ThisSymbol)
      return Object ? argumentValue(Object) : Uniformity();
    if (Symbol < Uniformity::FirstCaptureSymbol)
      return Symbol < Args.size() ? argumentValue(Args[Symbol])
                                  : Uniformity();
    unsigned CaptureIndex = Symbol - Uniformity::FirstCaptureSymbol;
    if (!Closure)
      return Uniformity();
    unsigned Index = 0;
    for (const LambdaCapture &Capture : Closure->captures()) {
      if (Index++ != CaptureIndex)
        continue;
      if (Capture.capturesVariable())
        if (const auto *Var =
                dyn_cast_or_null<VarDecl>(Capture.getCapturedVar()))
          return readVariable(Var, Call);
    }
    return Uniformity();
  };

  // Remember what the inputs were bound to, for the barrier queries.
  uint64_t Needed =
      Summary->ReturnValue.symbols() | Summary->IndirectStores.symbols();
  for (const BarrierSite &Site : Summary->Barriers)
    Needed |= Site.Control.symbols();
  // (Evaluating an argument may add bindings of other calls, so the entry
  // of this one is looked up only when the values are known.)
  llvm::SmallVector<std::pair<unsigned, Uniformity>, 4> Bound;
  for (unsigned Symbol = 0; Symbol < 64; ++Symbol)
    if (Needed & (static_cast<uint64_t>(1) << Symbol))
      Bound.push_back({Symbol, SymbolValue(Symbol)});
  if (!Bound.empty()) {
    auto &Binding = Bindings[Call];
    for (const auto &[Symbol, Value] : Bound) {
      auto *Existing = llvm::find_if(
          Binding, [&, S = Symbol](const auto &E) { return E.first == S; });
      if (Existing == Binding.end())
        Binding.push_back({Symbol, Value});
      else
        Existing->second.join(Value);
    }
  }

  Uniformity U = Summary->ReturnValue.resolve(SymbolValue);
  // Narrowed inside the callee (laneId(), an atomic in a helper): say so,
  // rather than pointing into the callee's body.
  if (U.level() < Level::grid() &&
      Summary->ReturnValue.level() == U.level())
    U.setOrigin({OriginKind::CallResult, Call});
  ApplyStores(Summary->IndirectStores.resolve(SymbolValue));
  return U.setPointsToLocal(false);
}

//===----------------------------------------------------------------------===//
// Regions and control dependence
//===----------------------------------------------------------------------===//

llvm::SmallVector<const CFGBlock *, 2>
FunctionDivergence::Impl::successors(const CFGBlock *B) const {
  llvm::SmallVector<const CFGBlock *, 2> Result;
  for (const CFGBlock::AdjacentBlock &Succ : B->succs())
    if (const CFGBlock *S = Succ.getReachableBlock())
      if (!llvm::is_contained(Result, S))
        Result.push_back(S);
  return Result;
}

const CFGBlock *
FunctionDivergence::Impl::immediatePostDominator(const CFGBlock *B) const {
  auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

const ButterflyLoop *
FunctionDivergence::Impl::butterflyExitingTo(const CFGBlock *Test,
                                             const CFGBlock *Exit) {
  const auto *For = dyn_cast_or_null<ForStmt>(Test->getTerminatorStmt());
  // A for loop's test block has the body first and the exit second.
  if (!For || Test->succ_size() != 2 ||
      (Test->succ_begin() + 1)->getReachableBlock() != Exit)
    return nullptr;
  auto [It, Inserted] = Butterflies.try_emplace(For);
  if (Inserted)
    It->second = asButterflyLoop(For, Ctx);
  return It->second ? &*It->second : nullptr;
}

const CancellingLoop *
FunctionDivergence::Impl::cancellingLoopOf(const CFGBlock *B) {
  const auto *For = dyn_cast_or_null<ForStmt>(B->getTerminatorStmt());
  if (!For)
    return nullptr;
  auto [It, Inserted] = CancellingLoops.try_emplace(For);
  if (Inserted)
    It->second = asCancellingLoop(For, Ctx);
  return It->second ? &*It->second : nullptr;
}

/// The expression whose value picks \p B's successor. For a short-circuit
/// condition (`if (a && b)`, `while (a || b)`, `a && (b || c)`) clang's CFG
/// gives every operand a block of its own, and each of them branches on the
/// operand it evaluates: the block of `a` on `a`, the block of the if on `b`
/// alone. Taking the whole `a && b` as the if's condition would read `b`
/// before its block ran (and keep that stale answer when `a` is uniform),
/// which is how `n > 1 && threadIdx.x < 16` used to hide its second operand.
const Expr *FunctionDivergence::Impl::conditionOf(const CFGBlock *B) const {
  const auto *Condition =
      dyn_cast_or_null<Expr>(const_cast<CFGBlock *>(B)->getTerminatorCondition(
          /*StripParens=*/true));
  while (Condition) {
    const auto *Logical = dyn_cast<BinaryOperator>(Condition->IgnoreParens());
    if (!Logical || !Logical->isLogicalOp())
      break;
    Condition = Logical->getRHS()->IgnoreParens();
  }
  return Condition;
}

/// The blocks where the paths out of a branch meet again, and the slots
/// assigned on the way. A path that comes back to the branch (a loop whose
/// exit is this branch) may go on along any other successor, which is what
/// makes values live out of such a loop temporally divergent.
const FunctionDivergence::Impl::Region &
FunctionDivergence::Impl::region(const CFGBlock *Branch) {
  unsigned Id = Branch->getBlockID();
  if (Regions[Id])
    return *Regions[Id];
  auto R = std::make_unique<Region>();
  const CFGBlock *Meet = immediatePostDominator(Branch);
  llvm::SmallVector<const CFGBlock *, 2> Succs = successors(Branch);
  unsigned N = Cfg->getNumBlockIDs();
  std::vector<llvm::BitVector> Reach(Succs.size(), llvm::BitVector(N));
  llvm::SmallVector<bool, 2> Cycles(Succs.size(), false);
  llvm::BitVector Inside(N);
  llvm::SmallVector<unsigned, 16> Members;
  for (unsigned K = 0; K < Succs.size(); ++K) {
    llvm::SmallVector<const CFGBlock *, 16> Stack = {Succs[K]};
    while (!Stack.empty()) {
      const CFGBlock *X = Stack.pop_back_val();
      if (X == Branch) {
        Cycles[K] = true;
        continue;
      }
      unsigned XId = X->getBlockID();
      if (Reach[K].test(XId))
        continue;
      Reach[K].set(XId);
      if (!Inside.test(XId)) {
        Inside.set(XId);
        Members.push_back(XId);
      }
      // The meeting point is entered, not crossed.
      if (X == Meet)
        continue;
      for (const CFGBlock *Next : successors(X))
        Stack.push_back(Next);
    }
  }
  bool AnyCycle = llvm::is_contained(Cycles, true);
  for (unsigned J : Members) {
    unsigned In = 0;
    unsigned CyclicElsewhere = 0;
    for (unsigned K = 0; K < Succs.size(); ++K) {
      if (Reach[K].test(J))
        ++In;
      else if (Cycles[K])
        ++CyclicElsewhere;
    }
    unsigned Entries = In + (In > 0 ? CyclicElsewhere : 0);
    const CFGBlock *JB = blockById(J);
    if (Entries >= 2 && (JB == Meet || JB->pred_size() >= 2)) {
      R->Joins.push_back(J);
      JoinOf[J].push_back(Id);
    }
    if (JB != Meet)
      llvm::append_range(R->Defs, DefsInBlock[J]);
  }
  if (AnyCycle)
    llvm::append_range(R->Defs, DefsInBlock[Id]);
  llvm::sort(R->Defs);
  R->Defs.erase(std::unique(R->Defs.begin(), R->Defs.end()), R->Defs.end());
  R->Temporal = AnyCycle;
  Regions[Id] = std::move(R);
  return *Regions[Id];
}

void FunctionDivergence::Impl::computeControl() {
  unsigned N = Cfg->getNumBlockIDs();
  ControlDeps.assign(N, {});
  Control.assign(N, Uniformity());
  // Classic construction: for an edge A -> S, the blocks on the
  // post-dominator tree path from S up to (not including) ipdom(A) are
  // control dependent on A.
  for (const CFGBlock *A : *Cfg) {
    unsigned AId = A->getBlockID();
    if (!Visited.test(AId) || !Cond[AId])
      continue;
    auto *Stop = PostDom->getBase().getNode(const_cast<CFGBlock *>(A));
    Stop = Stop ? Stop->getIDom() : nullptr;
    for (const CFGBlock *S : successors(A)) {
      auto *Node = PostDom->getBase().getNode(const_cast<CFGBlock *>(S));
      while (Node && Node != Stop && Node->getBlock()) {
        auto &Deps = ControlDeps[Node->getBlock()->getBlockID()];
        if (!llvm::is_contained(Deps, AId))
          Deps.push_back(AId);
        Node = Node->getIDom();
      }
    }
  }
  // Transitively: a block under a branch that itself runs under divergence
  // is as divergent as that branch's block.
  PostOrderCFGView Order(Cfg.get());
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const CFGBlock *B : Order) {
      unsigned Id = B->getBlockID();
      Uniformity U;
      for (unsigned A : ControlDeps[Id]) {
        // A branch the solver never reached decides nothing.
        if (const std::optional<Uniformity> &Branch = Cond[A])
          U.join(*Branch);
        U.join(Control[A]);
      }
      U.clearLaneLinear().setKnownAlignLog2(0).setPointsToLocal(false);
      if (!U.sameAs(Control[Id])) {
        Control[Id] = U;
        Changed = true;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

const CFGBlock *FunctionDivergence::Impl::blockOf(const Stmt *S) const {
  for (const Stmt *Cur = S; Cur; Cur = Parents->getParent(Cur)) {
    if (const auto *E = dyn_cast<Expr>(Cur)) {
      auto It = StmtBlock.find(E->IgnoreParens());
      if (It != StmtBlock.end())
        return It->second;
    }
    auto It = StmtBlock.find(Cur);
    if (It != StmtBlock.end())
      return It->second;
  }
  return nullptr;
}

Uniformity FunctionDivergence::Impl::cachedValue(const Expr *E) const {
  auto It = Values.find(E->IgnoreParens());
  return It == Values.end() ? Uniformity() : It->second.U;
}

Uniformity FunctionDivergence::Impl::effectiveCondition(
    unsigned Block, llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  const std::optional<Uniformity> &C = Cond[Block];
  if (!C)
    return Uniformity();
  return Inputs ? C->resolve(Inputs) : C->withoutSymbols();
}

std::pair<const ValueDecl *, ValueOrigin> FunctionDivergence::Impl::explain(
    const Expr *E, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  auto Effective = [&](const Uniformity &U) {
    return Inputs ? U.resolve(Inputs) : U.withoutSymbols();
  };
  // The first variable, left to right, whose value is what makes the
  // condition non-uniform.
  llvm::SmallVector<const Stmt *, 16> Work = {E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      Uniformity U = Effective(cachedValue(Ref));
      if (U.level() < Within && isa<VarDecl>(Ref->getDecl()) &&
          !asBuiltinIndexRead(Ref))
        return {Ref->getDecl(), U.origin()};
      continue;
    }
    if (isa<LambdaExpr>(S))
      continue;
    llvm::SmallVector<const Stmt *, 4> Children(S->child_begin(),
                                                S->child_end());
    for (auto It = Children.rbegin(); It != Children.rend(); ++It)
      Work.push_back(*It);
  }
  return {nullptr, Effective(cachedValue(E)).origin()};
}

DivergenceReason FunctionDivergence::Impl::describe(
    unsigned Block, const Stmt *Target, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  const CFGBlock *B = blockById(Block);
  DivergenceReason R;
  R.Function = FD;
  R.Branch = B->getTerminatorStmt();
  R.Condition = conditionOf(B);
  R.ConditionUniformity = effectiveCondition(Block, Inputs);

  // && and || in the condition of an if or a loop: classify by that
  // statement, keep the operand as the condition.
  const Stmt *Owner = R.Branch;
  if (const auto *Logical = dyn_cast_or_null<BinaryOperator>(R.Branch);
      Logical && Logical->isLogicalOp()) {
    const Stmt *Cur = Logical;
    const Stmt *Parent = Parents->getParent(Cur);
    while (Parent &&
           (isa<ParenExpr>(Parent) || isa<ImplicitCastExpr>(Parent) ||
            isa<FullExpr>(Parent) ||
            (isa<UnaryOperator>(Parent) &&
             cast<UnaryOperator>(Parent)->getOpcode() == UO_LNot) ||
            (isa<BinaryOperator>(Parent) &&
             cast<BinaryOperator>(Parent)->isLogicalOp()))) {
      Cur = Parent;
      Parent = Parents->getParent(Cur);
    }
    const Expr *OwnerCond = nullptr;
    if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
      OwnerCond = If->getCond();
    else if (const auto *For = dyn_cast_or_null<ForStmt>(Parent))
      OwnerCond = For->getCond();
    else if (const auto *While = dyn_cast_or_null<WhileStmt>(Parent))
      OwnerCond = While->getCond();
    else if (const auto *Do = dyn_cast_or_null<DoStmt>(Parent))
      OwnerCond = Do->getCond();
    else if (const auto *Cond =
                 dyn_cast_or_null<AbstractConditionalOperator>(Parent))
      OwnerCond = Cond->getCond();
    if (OwnerCond && OwnerCond->IgnoreParens() == Cur)
      Owner = Parent;
  }

  if (Owner && isLoopStmt(Owner)) {
    R.Kind = DivergenceKind::LoopTripCount;
  } else if (Owner && isa<SwitchStmt>(Owner)) {
    R.Kind = DivergenceKind::Switch;
  } else if (Owner && isa<IndirectGotoStmt>(Owner)) {
    R.Kind = DivergenceKind::Goto;
  } else if (const auto *If = dyn_cast_or_null<IfStmt>(Owner);
             If && Target && !isWithin(*Parents, Target, If)) {
    // The point is after the if: threads skipped it by leaving the if's
    // arm through a jump.
    const Stmt *Jump = findExitJump(If->getThen(), false, false);
    if (!Jump)
      Jump = findExitJump(If->getElse(), false, false);
    if (Jump) {
      R.Exit = Jump;
      R.Kind = isa<GotoStmt>(Jump) || isa<IndirectGotoStmt>(Jump)
                   ? DivergenceKind::Goto
                   : DivergenceKind::EarlyExit;
    }
  }

  if (R.Condition) {
    auto [Via, Origin] = explain(R.Condition, Within, Inputs);
    R.Via = Via;
    R.Origin = Origin;
  }
  if (R.Origin.Kind == OriginKind::None)
    R.Origin = R.ConditionUniformity.origin();
  return R;
}

std::optional<DivergenceReason> FunctionDivergence::Impl::findReason(
    const Stmt *S, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs,
    const llvm::DenseSet<unsigned> *Exclude) const {
  const CFGBlock *B = blockOf(S);
  if (!B || !Visited.test(B->getBlockID()))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  // Breadth first over control dependences: the nearest diverging branch
  // explains the point best; among equally near ones, the innermost.
  llvm::SmallVector<unsigned, 4> Frontier;
  llvm::DenseSet<unsigned> Seen;
  for (unsigned A : ControlDeps[B->getBlockID()])
    if (!Exclude || !Exclude->contains(A))
      if (Seen.insert(A).second)
        Frontier.push_back(A);
  while (!Frontier.empty()) {
    std::optional<unsigned> Best;
    for (unsigned A : Frontier) {
      if (!(effectiveCondition(A, Inputs).level() < Within))
        continue;
      if (!Best) {
        Best = A;
        continue;
      }
      const Stmt *BestStmt = blockById(*Best)->getTerminatorStmt();
      const Stmt *AStmt = blockById(A)->getTerminatorStmt();
      if (BestStmt && AStmt &&
          SM.isBeforeInTranslationUnit(BestStmt->getBeginLoc(),
                                       AStmt->getBeginLoc()))
        Best = A;
    }
    if (Best)
      return describe(*Best, S, Within, Inputs);
    llvm::SmallVector<unsigned, 4> Next;
    for (unsigned A : Frontier)
      for (unsigned D : ControlDeps[A])
        if (!Exclude || !Exclude->contains(D))
          if (Seen.insert(D).second)
            Next.push_back(D);
    Frontier = std::move(Next);
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The public face
//===----------------------------------------------------------------------===//

FunctionDivergence::FunctionDivergence(const FunctionDecl *FD, ASTContext &Ctx,
                                       const AnalysisOptions &Options,
                                       AnalysisManager *Manager)
    : P(std::make_unique<Impl>(FD, Ctx, Options, Manager)) {
  P->run();
}

FunctionDivergence::~FunctionDivergence() = default;

const FunctionDecl *FunctionDivergence::function() const { return P->FD; }
bool FunctionDivergence::isAnalyzed() const { return P->Analyzed; }
const CFG *FunctionDivergence::cfg() const { return P->Cfg.get(); }

const CFGBlock *FunctionDivergence::blockOf(const Stmt *S) const {
  return P->Analyzed && S ? P->blockOf(S) : nullptr;
}

llvm::ArrayRef<const CallExpr *> FunctionDivergence::calls() const {
  return P->Calls;
}

bool FunctionDivergence::isReachable(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  return B && P->Visited.test(B->getBlockID());
}

Uniformity FunctionDivergence::uniformityOf(const Expr *E) const {
  if (!P->Analyzed || !E)
    return Uniformity();
  return P->cachedValue(E);
}

Uniformity FunctionDivergence::returnUniformity() const {
  return P->ReturnValue;
}

Uniformity FunctionDivergence::indirectStoreUniformity() const {
  return P->IndirectStores;
}

Uniformity FunctionDivergence::symbolValueAtCall(const CallExpr *Call,
                                                 unsigned Symbol) const {
  auto It = P->Bindings.find(Call);
  if (It == P->Bindings.end())
    return Uniformity();
  for (const auto &[S, U] : It->second)
    if (S == Symbol)
      return U;
  return Uniformity();
}

Uniformity FunctionDivergence::controlUniformity(const Stmt *S) const {
  const CFGBlock *B = blockOf(S);
  if (!B)
    return Uniformity();
  return P->Control[B->getBlockID()];
}

std::optional<DivergenceReason>
FunctionDivergence::divergenceAt(const Stmt *S, Scope Within) const {
  return divergenceAt(S, Level::of(Within));
}

std::optional<DivergenceReason> FunctionDivergence::divergenceAt(
    const Stmt *S, Level Within,
    llvm::function_ref<Uniformity(unsigned)> Inputs) const {
  if (!P->Analyzed || !S)
    return std::nullopt;
  return P->findReason(S, Within, Inputs, nullptr);
}

std::optional<DivergenceReason>
FunctionDivergence::divergenceWithinTile(const Stmt *S,
                                         unsigned TileSize) const {
  std::optional<Level> Tile = Level::tile(TileSize);
  return divergenceAt(S, Tile ? *Tile : Level::block());
}

std::optional<DivergenceReason>
FunctionDivergence::divergenceSince(const Stmt *From, const Stmt *To,
                                    Level Within) const {
  if (!P->Analyzed || !From || !To)
    return std::nullopt;
  const CFGBlock *FromBlock = P->blockOf(From);
  if (!FromBlock)
    return divergenceAt(To, Within);
  // Everything From already depends on is not new divergence.
  llvm::DenseSet<unsigned> Before;
  const auto &FromDeps = P->ControlDeps[FromBlock->getBlockID()];
  llvm::SmallVector<unsigned, 8> Work(FromDeps.begin(), FromDeps.end());
  while (!Work.empty()) {
    unsigned A = Work.pop_back_val();
    if (!Before.insert(A).second)
      continue;
    llvm::append_range(Work, P->ControlDeps[A]);
  }
  return P->findReason(To, Within, {}, &Before);
}

std::pair<const ValueDecl *, ValueOrigin>
FunctionDivergence::explain(const Expr *E, Level Within,
                            llvm::function_ref<Uniformity(unsigned)> Inputs)
    const {
  if (!P->Analyzed || !E)
    return {nullptr, ValueOrigin()};
  return P->explain(E, Within, Inputs);
}

} // namespace clang::tidy::cuda::analysis
