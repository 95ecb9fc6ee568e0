//===--- CrossBlockSignals.h - data handed to other blocks, and its fences -===//
//
// The cross-block hand-off of a kernel: threads of a block store data to
// global memory, then one of them signals other blocks that it is ready (a
// ticket taken with atomicInc, a flag set with atomicExch or a volatile
// store, a relaxed cuda::atomic_ref operation); a block that sees the signal
// (a branch on the ticket, a spin on the flag) reads the data. Under the
// CUDA memory model (PTX ISA, "Memory Consistency Model") a plain store and
// a later relaxed atomic of the same thread to another address are not
// ordered for other blocks: the release side needs a device-scope fence
// (`__threadfence()`, `cuda::atomic_thread_fence(release or stronger,
// thread_scope_device)`, `membar.gl` / `fence.{sc,acq_rel}.gpu`) or a signal
// that is itself release / acq_rel / seq_cst at device scope; when the
// stores are made by other threads of the block than the signalling one, a
// block barrier must order them before the fence as well. The acquire side
// needs a fence after the branch, or reads that cannot see a stale copy
// (`volatile`, `__ldcg`/`__ldcv`, an acquiring load or signal).
//
// What is collected, for a kernel, in the order of its CFG:
// - signals: global atomics (`atomic{Add,Sub,Inc,Dec,Exch,CAS,And,Or,Xor,
//   Max,Min}` and their `_system` forms; the `_block` forms are block scope),
//   `cuda::atomic_ref` / `cuda::atomic` / `cuda::std::` member operations
//   with their memory order and thread scope, stores to a flag, and
//   `st/red/atom` with `.release`/`.acq_rel` in inline assembly. An atomic
//   is a signal only when its result reaches a branch (directly, or through
//   locals and `__shared__` variables assigned from it), or its location
//   (the pointer parameter, field or `__device__` variable it goes through)
//   is waited on elsewhere in the kernel: histograms and counters are not
//   signals. A store is a signal when its location is waited on.
// - waits: branch conditions that read a signal's value (a ticket, a flag
//   read by an atomic, a volatile or acquiring load).
// - global stores and reads through pointer parameters, pointer fields,
//   `__device__` variables and local pointers made from them (not
//   `__shared__` memory, not locals), with whether they are volatile or go
//   through `__ldcg`/`__ldcv`/`__ldlu`.
// - fences and block barriers; `grid.sync()` is both, and a call to a
//   function with a body counts as what it contains (fences, barriers,
//   stores and reads through the pointers it is passed), depth 4.
//
// Then a forward dataflow over the CFG finds, for each relaxed signal at
// device or system scope, the global stores reaching it on some path with
// no device-scope fence after them, or (stores by threads that do not make
// the signal: the signal sits under a thread-dependent branch the store is
// not in) with no block barrier after them; and the reads reached from a
// wait on some path with no fence between whose location some store of the
// kernel writes. Only locations that both sides use are reported: a store
// is reported when its location is read after a wait, a read when its
// location is stored before a signal.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CROSSBLOCKSIGNALS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CROSSBLOCKSIGNALS_H

#include "checks/analysis/api/CudaBuiltins.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

// MemoryOrder and ThreadScope are the API model's (api/CudaBuiltins.h).

llvm::StringRef memoryOrderName(MemoryOrder O);
llvm::StringRef threadScopeName(ThreadScope S);

/// A store to global memory (or a call whose callee stores through a
/// pointer it is passed).
struct GlobalStore {
  const Stmt *Where = nullptr;
  /// The location: the pointer parameter, field or variable stored through.
  const ValueDecl *Base = nullptr;
  bool Volatile = false;
};

/// Something other blocks can observe, that a wait in the kernel reads.
struct CrossBlockSignal {
  enum Kind { Atomic, AtomicRef, FlagStore, Asm } K = Atomic;
  const Stmt *Where = nullptr;
  const ValueDecl *Base = nullptr;
  /// How messages name it: "atomicInc", "fetch_add", "volatile store".
  std::string Name;
  MemoryOrder Order = MemoryOrder::Relaxed;
  ThreadScope Scope = ThreadScope::Device;
  /// Orders the thread's earlier stores for other blocks (release or
  /// stronger at device or system scope).
  bool releases() const;
  bool acquires() const;
};

/// A fence of device or system scope.
struct DeviceFence {
  const Stmt *Where = nullptr;
  std::string Name;
};

/// A branch condition (or loop condition) that reads a signal's value.
struct SignalWait {
  const Stmt *Where = nullptr;
  /// The signal whose value it reads, when it is one of the kernel's.
  int Signal = -1;
  const ValueDecl *Base = nullptr;
  /// The read of the signal acquires (an acquire load or signal).
  bool Acquires = false;
};

/// A read of global memory.
struct GlobalRead {
  const Stmt *Where = nullptr;
  const ValueDecl *Base = nullptr;
  /// Volatile, or through __ldcg/__ldcv/__ldlu or an atomic: never a
  /// stale copy.
  bool Coherent = false;
};

/// A signal that other blocks may see before global stores the kernel made
/// before it.
struct UnfencedRelease {
  unsigned Signal = 0;
  unsigned Store = 0;
  /// No device-scope fence between the store and the signal on some path.
  bool MissingFence = false;
  /// The store is by threads that do not make the signal, and no block
  /// barrier orders it before the signal on some path.
  bool MissingBarrier = false;
  /// A read of the same location after a wait (index into reads()), or -1.
  int Reader = -1;
};

/// A read after a wait on a signal, with no fence between on some path, of
/// a location the kernel stores to.
struct UnacquiredRead {
  unsigned Read = 0;
  unsigned Wait = 0;
};

class CrossBlockSignalAnalysis {
public:
  CrossBlockSignalAnalysis(const FunctionDecl *Kernel, ASTContext &Ctx,
                           FactQueries &Manager);
  ~CrossBlockSignalAnalysis();
  CrossBlockSignalAnalysis(const CrossBlockSignalAnalysis &) = delete;
  CrossBlockSignalAnalysis &operator=(const CrossBlockSignalAnalysis &) =
      delete;

  /// In the order the CFG's blocks list them (not source order).
  llvm::ArrayRef<GlobalStore> stores() const;
  llvm::ArrayRef<CrossBlockSignal> signals() const;
  llvm::ArrayRef<DeviceFence> fences() const;
  llvm::ArrayRef<SignalWait> waits() const;
  llvm::ArrayRef<GlobalRead> reads() const;

  /// In source order of the signal, then of the store.
  llvm::ArrayRef<UnfencedRelease> unfencedReleases() const;
  /// In source order of the read.
  llvm::ArrayRef<UnacquiredRead> unacquiredReads() const;

  /// The statement before which `__threadfence();` fixes every path to
  /// signal \p Signal (the statement of a compound statement that holds
  /// it), or nullptr.
  const Stmt *fenceInsertionPoint(unsigned Signal) const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace clang::tidy::cuda::analysis

#endif
