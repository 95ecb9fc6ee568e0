//===--- DivergenceSolver.h - the divergence solver's parts -----*- C++ -*-===//
//
// Private to the divergence analysis: the solver's state (Impl) and the
// helpers its phases share. The phases live in their own files, in reading
// order:
//   DivergenceBodyScan.cpp     which variables exist, which escape (setup);
//   DivergenceDataflow.cpp     the fixed point over CFG blocks and the
//                              variable slots;
//   DivergenceExpressions.cpp  the transfer functions of expressions (lane
//                              arithmetic, calls, loads);
//   DivergenceControl.cpp      branch regions (sync and temporal divergence)
//                              and control dependence;
//   DivergenceAnalysis.cpp     the queries and the public face.
// Nothing outside those files includes this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCESOLVER_H
#define CUDA_TIDY_CHECKS_ANALYSIS_DIVERGENCESOLVER_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/CallSummaries.h"
#include "checks/analysis/api/CudaBuiltins.h"
#include "checks/analysis/divergence/ThreadIndexForms.h"
#include "checks/analysis/divergence/WarpReductions.h"

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
namespace divergence {

// --- statement and expression helpers (defined beside their phase) ---------

/// The local variable an lvalue is part of (`s.f`, `a[i][j]` -> `s`, `a`;
/// `c.m()` when \p Facts shows m an accessor returning a reference into its
/// object, ObjectWrites.h), collecting the subscripts (and an accessor's
/// arguments) on the way, or nullptr when the lvalue is reached through a
/// pointer or is not a local. Null \p Facts: no call is seen through (every
/// non-const member function then counts as a write of its object, so
/// nothing is missed). (DivergenceBodyScan.cpp)
const VarDecl *rootVariable(const Expr *E,
                            llvm::SmallVectorImpl<const Expr *> *Indices,
                            FactQueries *Facts);
/// The local whose address a pointer expression takes (`&x`, `&a[i]`, an
/// array decaying to a pointer), or nullptr. (DivergenceBodyScan.cpp)
const VarDecl *addressedVariable(const Expr *E, FactQueries *Facts);
/// A reference or pointer to non-const. (DivergenceBodyScan.cpp)
bool isWritableIndirection(QualType T);
/// A local reference bound to memory rather than to a local: its
/// initializer is an element or field reached through a pointer
/// (`int &count = scalars[1]`, `T &f = p->f`, `*p`) or names a variable
/// that is not local (a `__shared__` or global one). Every read through
/// it is a load of that memory, which other threads see, so it holds no
/// per-thread value of its own: a store by one thread does not make it
/// that thread's value for the others (vllm persistent_topk's
/// `int &shared_threshold_bin = medium_scalars[1]`, read by the whole block
/// after a barrier). (DivergenceBodyScan.cpp)
bool isMemoryReference(const VarDecl *Var);
/// A call of \p Method may change its object: asked of \p Facts
/// (divergence/ObjectWrites.h), or, without it, any non-const member may.
/// (DivergenceBodyScan.cpp)
bool callMayWriteObject(FactQueries *Facts, const CXXMethodDecl *Method);
/// A call of \p Callee may change the variable bound to its reference
/// parameter \p Index: asked of \p Facts (divergence/ObjectWrites.h), or,
/// without it, any writable one may; an unknown callee or parameter may.
/// Only such a call makes the variable escape (a flow-insensitive value)
/// and takes the callee's stores: a helper that takes `T *&alloc` and
/// stores only through it leaves the caller's `alloc` as it was.
/// (DivergenceBodyScan.cpp)
/// \p E names a local reference (a reference parameter) that holds a value
/// of its own in the analysis: not a memory reference. (DivergenceBodyScan.cpp)
const VarDecl *referenceVariableOf(const Expr *E);
bool callMayWriteReferenceParameter(FactQueries *Facts,
                                    const FunctionDecl *Callee,
                                    unsigned Index);
/// The local reference (not a memory reference) that a part of it is
/// reached through: `p.y`, `p.rows[i]` for `Point &p` -> p, collecting the
/// subscripts; nullptr for anything else. (DivergenceBodyScan.cpp)
const VarDecl *referencePartRoot(const Expr *LValue,
                                 llvm::SmallVectorImpl<const Expr *> *Indices);
/// The row part of the linear thread index. (DivergenceExpressions.cpp)
bool isRowOffset(const Expr *E);
/// The same, also with constant row widths equal to the extents every
/// launch gives (`threadIdx.x + 16 * threadIdx.y` in blocks 16 wide,
/// `threadIdx.x + 4 * (threadIdx.y + 4 * threadIdx.z)` in 4 x 4 x n).
/// (DivergenceExpressions.cpp)
bool isRowOffset(const Expr *E, const std::array<BlockExtentFact, 3> &Extents,
                 const ASTContext &Ctx);
/// An integer constant expression's value. (DivergenceExpressions.cpp)
std::optional<llvm::APSInt> constantInt(const Expr *E, const ASTContext &Ctx);
/// log2 of the largest power of two dividing \p V (63 for 0).
/// (DivergenceExpressions.cpp)
unsigned alignOfConstant(const llvm::APSInt &V);
/// Whether \p Inner is \p Outer or nested in it. (DivergenceControl.cpp)
bool isWithin(const ParentMap &Parents, const Stmt *Inner, const Stmt *Outer);
/// The first statement in \p S that leaves it. (DivergenceControl.cpp)
const Stmt *findExitJump(const Stmt *S, bool InLoop, bool InSwitch);
/// `flag`, `s[i]`, `s.f` for a __shared__ variable. (DivergenceControl.cpp)
bool isSharedVariableAccess(const Expr *E);
/// for, while, do and range-for. (DivergenceControl.cpp)
bool isLoopStmt(const Stmt *S);

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


/// The fields of an object of \p Record in a fixed order: those of its
/// non-virtual bases first (each base's in this order, recursively), then
/// its own. False (and \p Fields cleared) for a union, a lambda's closure,
/// a class with a virtual base, one not defined or dependent, or more than
/// \p Limit fields. A member function's analysis numbers the fields of its
/// `*this` this way (FirstThisFieldSymbol), and a caller maps them, by
/// declaration, to the fields of the object it calls the function on.
/// (DivergenceBodyScan.cpp)
bool flattenedFields(const CXXRecordDecl *Record, unsigned Limit,
                     llvm::SmallVectorImpl<const FieldDecl *> &Fields);
/// In a member function of a class that is not a lambda's, the input that
/// is field I of `*this` (flattenedFields) is symbol FirstThisFieldSymbol +
/// I: the capture symbols, which only a lambda's call operator has.
constexpr unsigned FirstThisFieldSymbol = Uniformity::FirstCaptureSymbol;
constexpr unsigned MaxThisFields = 16;
/// The class of \p FD's `*this` when its analysis may keep the fields of
/// `*this` apart: a non-static member function (a constructor too) of a
/// class that is not a lambda's; nullptr otherwise. (DivergenceBodyScan.cpp)
const CXXRecordDecl *fieldWiseClass(const FunctionDecl *FD);

} // namespace divergence

//===----------------------------------------------------------------------===//
// The solver state
//===----------------------------------------------------------------------===//

struct FunctionDivergence::Impl {
  using State = divergence::SlotState;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, const AnalysisOptions &Opts,
       FactQueries *Mgr)
      : FD(FD), Ctx(Ctx), Opts(Opts), Mgr(Mgr) {}

  const FunctionDecl *FD;
  ASTContext &Ctx;
  AnalysisOptions Opts;
  FactQueries *Mgr;
  /// Set for the analysis of one call (FactQueries::divergenceForCall):
  /// what parameter I starts as, where set, instead of symbol I.
  llvm::SmallVector<std::optional<Uniformity>, 4> ParameterValues;
  bool Analyzed = false;
  bool IsKernel = false;
  /// blockDim.x is a multiple of 32 wherever this function runs, so
  /// threadIdx.y/z are warp-uniform (FactQueries::rowsAreWarpAligned).
  bool RowsWarpAligned = false;
  /// blockDim.x * blockDim.y is a multiple of 32 (a 4 x 8 x n block), so
  /// threadIdx.z is warp-uniform.
  bool PlanesWarpAligned = false;
  /// What the TU shows about blockDim.x, .y, .z (LaunchShape.h).
  std::array<BlockExtentFact, 3> Extents;

  std::unique_ptr<CFG> Cfg;
  std::vector<const CFGBlock *> Blocks; // by block ID
  std::unique_ptr<ParentMap> Parents;
  std::unique_ptr<CFGPostDomTree> PostDom;

  // Variables: parameters, then locals, then the return-value slot, then
  // the field slots of local objects.
  std::vector<const VarDecl *> Vars;
  llvm::DenseMap<const VarDecl *, unsigned> VarIndex;
  llvm::BitVector Escaped;
  unsigned ReturnSlot = 0;
  /// A local or by-value parameter of a plain record type (no bases, not a
  /// union, at most MaxTrackedFields fields) that does not escape has a
  /// slot per field, so that `p.y = blockIdx.y * k` stays block-uniform
  /// beside `p.x = threadIdx.x * k` (HeCBench bm3d's `int2 p`). The
  /// variable's own slot then holds what whole-object writes (its
  /// initializer, `p = q`) stored; reading the whole object joins both.
  llvm::DenseMap<std::pair<const VarDecl *, const FieldDecl *>, unsigned>
      FieldSlot;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<unsigned, 4>>
      FieldSlotsOf;
  static constexpr unsigned MaxTrackedFields = 16;
  /// In a member function whose `this` only reaches fields and calls member
  /// functions that say what they do to them (fieldWiseClass, and the body
  /// scan finds no other use): a slot per field of `*this`, keyed in
  /// FieldSlot with a null variable, starting at the field's symbol. A
  /// per-lane field (`lane_ = threadIdx.x % 32`) then leaves a counter of
  /// the same object (`smem_buf_len_ += __popc(ballot)`) warp-uniform (vllm's
  /// WarpSelect, cutlass's GroupedProblemVisitor), where `*this` as one value
  /// made every field as divergent as the most divergent one.
  llvm::SmallVector<const FieldDecl *, 8> ThisFields;
  llvm::SmallVector<unsigned, 8> ThisFieldSlots;
  /// Local references bound to one field of `*this` (`int &start =
  /// this->problem_idx;`): reading or assigning one is the field's.
  llvm::DenseMap<const VarDecl *, unsigned> ThisFieldAlias;
  /// Local references bound to a part of one (`T &old = val_arr_[k - 1];`):
  /// reading one reads the field, assigning it changes part of the field.
  llvm::DenseMap<const VarDecl *, unsigned> ThisFieldPartAlias;
  /// What each field of `*this` holds on return (symbols = inputs); empty
  /// when the fields were not kept apart.
  std::vector<std::optional<Uniformity>> ThisFieldExit;
  bool ThisFieldsKept = false;
  /// Every slot: Vars, the return slot, the field slots.
  unsigned NumSlots = 0;
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
  /// Per parameter: for a writable reference, the value its referee holds
  /// when the function returns (symbols = inputs; its own symbol where a
  /// path leaves it as the caller passed it); nullopt for others.
  std::vector<std::optional<Uniformity>> ReferenceParamExit;
  /// The address each memory reference (isMemoryReference) is bound to,
  /// joined over the visits of its declaration.
  llvm::DenseMap<const VarDecl *, Uniformity> MemoryReferenceAddress;
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
  /// The field slot an lvalue is part of (`v.f`, `v.f[i]`, `v.f.g`),
  /// collecting the subscripts above the field; \p Exact says whether the
  /// lvalue is the field itself (a write then replaces its value).
  std::optional<unsigned>
  fieldSlotOf(const Expr *LValue, llvm::SmallVectorImpl<const Expr *> *Indices,
              bool *Exact) const;
  void trackFields(const VarDecl *Var);
  /// The slot here of \p Field of the object \p Object designates (the
  /// object of a member call): a field of this function's `*this`, or of a
  /// local or parameter whose fields have slots; nullopt otherwise.
  std::optional<unsigned> objectFieldSlot(const Expr *Object,
                                          const FieldDecl *Field) const;
  /// A constructor's member and base initializers, into the slots of the
  /// fields of `*this` (at the entry, before the body).
  void initializeMembers();
  /// The fields \p Construct leaves in the object whose fields are
  /// \p Fields (slots of this function, by the constructor's
  /// flattenedFields): from the constructor's summary when it keeps them
  /// apart, else each the join of the arguments. Applied to \p Live.
  void constructInto(const CXXConstructExpr *Construct,
                     llvm::function_ref<std::optional<unsigned>(
                         const FieldDecl *)> SlotOfField);
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

} // namespace clang::tidy::cuda::analysis

#endif
