//===--- CrossBlockSignalsImpl.h - the cross-block analysis's parts -*- C++ -*-===//
//
// Private to the cross-block signal analysis: its state (Impl) and the
// helpers its phases share. The phases live in their own files, in reading
// order:
//   CrossBlockSignalsCollect.cpp   which calls are atomics, fences and flag
//                                  reads; the locations pointers name; the
//                                  candidate signals and the waits;
//   CrossBlockSignalsEvaluate.cpp  the events of each CFG statement (stores,
//                                  reads, fences, barriers, signals, calls
//                                  to functions with a body) and the
//                                  dataflow's transfer function;
//   CrossBlockSignals.cpp          the phases in order, the fixpoint, which
//                                  findings are kept, and the public face.
// Nothing outside those files includes this header.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_MEMORY_CROSSBLOCKSIGNALSIMPL_H
#define CUDA_TIDY_CHECKS_ANALYSIS_MEMORY_CROSSBLOCKSIGNALSIMPL_H

#include "checks/analysis/memory/CrossBlockSignals.h"
#include "checks/analysis/core/KernelWalk.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::cuda::analysis {

class FunctionDivergence;

namespace crossblock {

// --- helpers the phases share (defined in CrossBlockSignalsCollect.cpp) -----

/// The memory order \p E (an argument of an atomic or a fence) names;
/// seq_cst for a defaulted argument.
std::optional<MemoryOrder> orderOf(const Expr *E, const ASTContext &Ctx);

/// What an inline-assembly statement does, as far as this analysis cares.
struct AsmFacts {
  bool Fence = false;
  bool ReleaseWrite = false;
  bool AcquireRead = false;
  bool FlagRead = false;
  bool Barrier = false;
};

AsmFacts asmFacts(const GCCAsmStmt *Asm);

/// The field an lvalue names last (`p[i].w`, `s->flag`), or null.
const ValueDecl *fieldOf(const Expr *E);

// --- the dataflow's vocabulary ----------------------------------------------

constexpr unsigned MaxBits = 64;

struct Flow {
  uint64_t Unfenced = 0;  ///< stores with no release fence since
  uint64_t NoBarrier = 0; ///< stores with no block barrier since
  uint64_t Waited = 0;    ///< non-acquiring waits with no acquire fence since
  uint64_t Seen = 0;      ///< waits passed
  uint64_t Pending = 0;   ///< stores since the last wait
  bool operator==(const Flow &O) const {
    return Unfenced == O.Unfenced && NoBarrier == O.NoBarrier &&
           Waited == O.Waited && Seen == O.Seen && Pending == O.Pending;
  }
};

/// What a call to a function with a body does, as far as this analysis
/// cares.
struct CalleeFacts {
  bool Fence = false;
  bool Barrier = false;
  llvm::DenseSet<unsigned> StoresParam;
  llvm::DenseSet<unsigned> ReadsParam;
  llvm::DenseSet<unsigned> VolatileParam;
};

struct Event {
  enum Kind { Store, Signal, ReleaseFence, AcquireFence, Barrier, Read } K;
  unsigned Index = 0;
};

/// Where a value tested by a wait comes from.
struct Origin {
  int Candidate = -1; ///< an atomic candidate's result
  const ValueDecl *Base = nullptr;
  bool Acquires = false;
  bool FlagRead = false; ///< a load of a flag, not a read-modify-write
  /// The field of the location the flag is (`tiles[i].status`), or null.
  const ValueDecl *Field = nullptr;
  /// Where in the tested expression the value was found.
  const Stmt *Found = nullptr;
};

} // namespace crossblock

struct CrossBlockSignalAnalysis::Impl : KernelScope {
  using KernelScope::KernelScope;

  const FunctionDivergence *D = nullptr;
  std::unique_ptr<ParentMap> Parents;

  std::vector<GlobalStore> Stores;
  std::vector<CrossBlockSignal> Signals;
  std::vector<DeviceFence> Fences;
  std::vector<SignalWait> Waits;
  std::vector<GlobalRead> Reads;
  std::vector<UnfencedRelease> Releases;
  std::vector<UnacquiredRead> Acquires;

  /// Local pointers (and atomic_ref objects) and the location they name.
  llvm::DenseMap<const VarDecl *, const ValueDecl *> Alias;
  /// Atomic operations on global memory: possible signals.
  std::vector<CrossBlockSignal> Candidates;
  llvm::DenseMap<const Stmt *, unsigned> CandidateOf;
  /// Locals and __shared__ variables holding a signal's value.
  llvm::DenseMap<const VarDecl *, crossblock::Origin> Derived;
  /// Locations read by spins (loop conditions): flags.
  llvm::DenseSet<std::pair<const ValueDecl *, const ValueDecl *>> FlagKeys;
  llvm::DenseSet<const ValueDecl *> FlagBases;
  /// Locations whose signal value is tested by any wait.
  llvm::DenseSet<std::pair<const ValueDecl *, const ValueDecl *>> WaitedKeys;
  /// The location (\p Base, its field \p Field) is a flag a spin reads, or
  /// a counter a branch tests.
  bool isFlag(const ValueDecl *Base, const ValueDecl *Field) const {
    return FlagKeys.contains({Base, nullptr}) || FlagKeys.contains({Base, Field});
  }
  bool isWaited(const ValueDecl *Base, const ValueDecl *Field) const {
    return WaitedKeys.contains({Base, nullptr}) ||
           WaitedKeys.contains({Base, Field});
  }
  /// Candidates whose value a spin tests, or another branch.
  llvm::DenseSet<int> SpinTested, BranchTested;
  llvm::DenseMap<const Stmt *, std::vector<crossblock::Event>> EventsOf;
  llvm::DenseMap<const Stmt *, unsigned> WaitOf; ///< terminator -> wait
  llvm::DenseMap<const FunctionDecl *, crossblock::CalleeFacts> Callees;
  /// Findings before the filter on readers.
  std::vector<UnfencedRelease> Pending;
  /// Locations read after a wait: the first such read.
  llvm::DenseMap<const ValueDecl *, unsigned> ReadAfterWait;
  /// Locations stored since a wait and before a signal on some path.
  llvm::DenseSet<const ValueDecl *> Published;

  // Collect (CrossBlockSignalsCollect.cpp): the locations pointers name,
  // the candidate signals, the values derived from them, the waits.
  bool isGlobalVar(const VarDecl *V) const;
  const ValueDecl *pointerBase(const Expr *E, unsigned Depth = 0) const;
  const ValueDecl *lvalueBase(const Expr *E, unsigned Depth = 0) const;
  void findAliases();
  std::optional<CrossBlockSignal> asAtomic(const Stmt *S) const;
  std::optional<crossblock::Origin> flagReadOrigin(const Expr *E) const;
  std::optional<crossblock::Origin> originIn(const Stmt *S) const;
  void findCandidates();
  void findDerived();
  bool pureLoop(const Stmt *Loop) const;
  void findWaits(const CFG &Cfg);

  // Evaluate (CrossBlockSignalsEvaluate.cpp): the events of each statement
  // and the dataflow's transfer function.
  const crossblock::CalleeFacts &calleeFacts(const FunctionDecl *Callee,
                                             unsigned Depth);
  bool contains(const Stmt *Outer, const Stmt *Inner) const;
  bool mentionsThreadIdx(const Stmt *S, unsigned Depth = 0) const;
  bool otherThreads(const Stmt *Store, const Stmt *Signal) const;
  void classify(const CFG &Cfg);
  void transfer(const CFGBlock *Block, crossblock::Flow &F, bool Record);

  // Decide (CrossBlockSignals.cpp): the phases in order, the fixpoint, and
  // the findings kept.
  void run();
};

} // namespace clang::tidy::cuda::analysis

#endif
