//===--- WarpLaneSetsImpl.h - the lane-set analysis's parts -----*- C++ -*-===//
//
// Private to the lane-set analysis (WarpLaneSets.h): its state (Impl), the
// programs a condition of threadIdx.x is compiled into, and the lanes a walk
// carries. The phases live in their own files, in reading order:
//   WarpLaneSetsCollect.cpp    the launch facts, the variables only read,
//                              the parameters a call binds, and integer
//                              expressions of threadIdx.x compiled into
//                              programs;
//   WarpLaneSetsEvaluate.cpp   a program evaluated at each thread of a row,
//                              and a condition decoded into the lanes it
//                              lets in;
//   WarpLaneSetsWalk.cpp       the walk over the body's statements in order,
//                              with the lanes that reach each call;
//   WarpLaneSets.cpp           the public face: lane sets, masks, values at
//                              each thread, shuffle reads.
// Nothing outside those files includes this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_LANES_WARPLANESETSIMPL_H
#define CUDA_TIDY_CHECKS_ANALYSIS_LANES_WARPLANESETSIMPL_H

#include "checks/analysis/lanes/WarpLaneSets.h"

#include "checks/analysis/core/FactQueries.h"
#include "checks/analysis/divergence/DivergenceAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace clang::tidy::cuda::analysis {

namespace lanesets {

/// An integer expression of threadIdx.x, compiled for evaluation at every
/// thread of a row.
struct Node {
  enum Kind : uint8_t {
    Const,
    Tid,
    Unary,
    Binary,
    Cond,
    Cast,
    ToBool,
    Ballot,
    /// A value not followed: a multiple of 2^Value, nothing more known.
    Opaque
  };
  Kind K = Const;
  unsigned Op = 0;
  int A = -1, B = -1, C = -1;
  int64_t Value = 0;
  /// The result type.
  unsigned Width = 32;
  bool Signed = true;
  /// Ballot: the lanes that reach the ballot (exactly).
  const WarpLanes *Voters = nullptr;
  /// Opaque: the value is not negative.
  bool NonNeg = false;
};

/// A value at one thread: exact, or known only modulo 2^Known (its low
/// Known bits). `blockIdx.x * blockDim.x + threadIdx.x` is threadIdx.x
/// modulo the alignment of blockDim.x: its `% 32` and `& 31` are exact
/// when blockDim.x is a known multiple of 32, whatever the block.
struct Val {
  int64_t V = 0;
  unsigned Known = 64;
  /// Not negative (thread and block indices, and what sums, products and
  /// masks of them give: indices are taken not to overflow).
  bool NonNeg = false;

  bool exact() const { return Known >= 64; }
  static Val exactly(int64_t V) { return Val{V, 64, V >= 0}; }
  static Val unknown() { return Val{0, 0, false}; }
};

struct Program {
  std::vector<Node> Nodes;
  int Root = -1;

  /// The exact value of node \p N at thread \p Tid; nullopt when it is
  /// undefined there or not known exactly.
  std::optional<int64_t> eval(int N, unsigned Tid) const {
    std::optional<Val> V = evalPart(N, Tid, 0);
    if (!V || !V->exact())
      return std::nullopt;
    return V->V;
  }
  /// As eval, telling an undefined value (nullopt) from one known only in
  /// part (a Val that is not exact).
  std::optional<Val> evalPart(int N, unsigned Tid, unsigned Depth) const;
};

/// The lanes a state's warps arrive with.
struct State {
  WarpLanes Lanes = WarpLanes::all();
  WarpLanes Exited;
  bool Exact = true;
  const Expr *Guard = nullptr;
  bool GuardHolds = true;

  /// No lane goes on from here (after a return, break, continue).
  State stopped() const {
    State S = *this;
    S.Lanes = WarpLanes();
    return S;
  }
};

/// How a condition split the lanes.
enum class Split {
  Decoded, ///< Evaluated at every thread: the arms partition the lanes.
  Uniform, ///< The same across each warp: a warp takes one arm whole.
  Unknown, ///< Anything else: each arm gets an unknown part of the lanes.
};

} // namespace lanesets

struct WarpLaneSets::Impl {
  using Program = lanesets::Program;
  using Node = lanesets::Node;
  using State = lanesets::State;
  using Split = lanesets::Split;

  Impl(const FunctionDecl *FD, ASTContext &Ctx, FactQueries &Manager);

  const FunctionDecl *FD;
  ASTContext &Ctx;
  FactQueries &Manager;
  const FunctionDivergence *D;
  bool IsKernel;
  /// Call-site context: the call that makes FD's walk, and the walk of the
  /// function that makes it (which evaluates the call's arguments).
  const CallExpr *Site = nullptr;
  Impl *CallerP = nullptr;
  bool ThreadIdxIsRowIndex = true;
  /// log2 of the power of two blockDim.x, .y and .z are known multiples of
  /// (the TU's launches, checks and the AssumeBlockDimXMultipleOf32 option).
  std::array<unsigned, 3> BlockDimAlignLog2{};

  llvm::DenseMap<const CallExpr *, LaneReach> Reach;
  std::vector<const CallExpr *> Order;

  struct Frame {
    bool IsLoop = true;
    State Entry;
    bool AnyBroke = false, AnyContinued = false;
    State Broke, Continued;
    WarpLanes Returned;
  };
  std::vector<Frame> Frames;
  /// Exits taken so far: the index of the frame a break or continue goes
  /// to, or -1 for a return (or a call that does not return).
  std::vector<int> Exits;

  /// Per condition: the threads at which it holds, and the threads at which
  /// it is undefined; nullopt when it is not decoded.
  llvm::DenseMap<const Expr *, std::optional<std::pair<WarpLanes, WarpLanes>>>
      ConditionCache;

  /// Variables some reference to which is more than a plain read (an
  /// assignment, ++, its address, a reference bound to it, sizeof): found in
  /// one pass over the body, lambdas included. ExprMutationAnalyzer would
  /// walk the whole body once per variable asked about: quadratic in a long
  /// kernel with a counter per loop.
  llvm::DenseSet<const VarDecl *> NotOnlyRead;

  // --- collect (WarpLaneSetsCollect.cpp) -------------------------------------

  void collectNotOnlyRead(const Stmt *S, const Stmt *Parent);
  /// A local of the function given one value at its declaration.
  const VarDecl *cachedImmutableLocal(const Expr *E) const;
  /// In call-site context, what the call binds to the parameter \p E reads
  /// (a parameter FD never writes, not a reference).
  const Expr *boundParameter(const Expr *E) const;
  /// In call-site context, whether the inputs \p Symbols (FD's parameters)
  /// are bound to values uniform across the warp, through every call of
  /// the chain; outside it they read as uniform, as in the divergence
  /// analysis.
  bool symbolsUniform(uint64_t Symbols) const;

  int add(Program &P, Node N, QualType T) const;
  /// A node for \p E: its value, or, for an integer expression not
  /// followed, an opaque node that keeps what its alignment says
  /// (blockDim.x as the launches show it, blockIdx.x as nothing).
  int compile(Program &P, const Expr *E, unsigned Depth);
  int compileValue(Program &P, const Expr *E, unsigned Depth);
  /// thread_rank() of the block (the thread's linear index: warps are made
  /// of 32 consecutive ones) or of a tile of N (the index modulo N), and a
  /// tile's meta_group_rank() (the index over N).
  int compileGroupRank(Program &P, const CXXMethodDecl *Method,
                       const Expr *Object, QualType T) const;
  /// `__ballot_sync(mask, pred)` called where the lanes are known exactly:
  /// the lanes of the mask at which pred holds.
  int compileBallot(Program &P, const CallExpr *Call, QualType T,
                    unsigned Depth);

  // --- evaluate (WarpLaneSetsEvaluate.cpp) -----------------------------------

  const std::optional<std::pair<WarpLanes, WarpLanes>> &
  decode(const Expr *Cond);
  bool isWarpUniform(const Expr *Cond) const;
  /// The lanes of \p In for which \p Cond is \p Holds.
  State restrict(const State &In, const Expr *Cond, bool Holds, Split &How);

  // --- the walk (WarpLaneSetsWalk.cpp) ---------------------------------------

  bool escapedSince(size_t FirstExit, size_t FrameDepth) const;
  void record(const CallExpr *Call, const State &S);
  State stopHere(const State &In);
  /// Two arms split on \p Cond, each walked, then joined.
  State branch(const Expr *Cond, const Stmt *Then, const Stmt *Else,
               const State &In);
  State walkExpr(const Expr *E, State In);
  State walkLoop(const Expr *Cond, const Stmt *Body, const Expr *Inc,
                 bool CondFirst, const State &In);
  State walkSwitch(const SwitchStmt *Switch, State In);
  State walk(const Stmt *S, State In);
  void run();
};

} // namespace clang::tidy::cuda::analysis

#endif
