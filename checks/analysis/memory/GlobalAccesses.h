//===--- GlobalAccesses.h - lanes of one warp talking through memory ------===//
//
// The warp-scope facts cuda-implicit-warp-sync reports beyond the __shared__
// exchanges of WarpExchanges.h:
//
// - Global-memory scratch: accesses through a kernel's pointer parameters
//   (`scratch[i]`, `*p`, through a local pointer initialised to
//   `param + offset` and never changed). A read is an exchange when a thread
//   of the block can read a cell another lane of its own warp wrote earlier
//   in one warp-barrier interval (no `__syncwarp()`, block barrier or group
//   `sync()` on some path between). Cells are compared within one block:
//   blockIdx, gridDim and the kernel's scalar parameters are symbols, equal
//   only to themselves, so threads of different blocks never meet, and two
//   different parameters are never taken to alias. When some pair of the
//   same two accesses is in different warps, the pair is a block race, which
//   a __syncwarp() would not order: it is left alone.
// - wmma tiles: `nvcuda::wmma::store_matrix_sync(ptr, frag, ldm, layout)`
//   writes a fragment's M x N tile cooperatively, with an unspecified
//   lane-to-element mapping; a plain read of a cell of that tile (shared or
//   global memory) by a lane of the storing warp in the same interval can
//   read another lane's store. `load_matrix_sync` is not a plain read (it is
//   a warp collective, _sync itself). Tile cells read by another warp are a
//   block race: left alone.
//
// Indices are evaluated per thread, as in SharedAccesses.h: threadIdx.x from
// the thread (1-D blocks only: a function that reads threadIdx.y or .z is
// not analyzed), blockDim.x from the TU's launches, else 256; locals with one
// value followed; loop counters of `for` loops around the access run for
// that thread; an offset is a sum of symbols with integer coefficients and a
// constant, in bytes. `x % 2^k`, `x & m`, `x ^ m`, `x | m`, `x / 2^k` and
// `x >> k` keep the symbols when every symbol's coefficient is a multiple of
// the power of two (the low bits are the constant's). Anything else (a loaded
// value, an unknown thread-dependent local) leaves the access unevaluated,
// and it takes part in no pair. Guards (`if`, `?:`, `&&`, `||`, and
// `if (c) return;` before the access) that evaluate for a thread decide
// whether it makes the access; one that does not evaluate lets it through.
//
// With call-site context (GlobalAccessOptions::Call) a device function is
// analyzed for one call in a kernel: its pointer parameters are bound to
// what the call passes, its other parameters to the call's arguments, and
// the call's guards in the kernel decide which threads run it. Only the
// callee's accesses are related to one another.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_GLOBALACCESSES_H
#define CUDA_TIDY_CHECKS_ANALYSIS_GLOBALACCESSES_H

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class ValueDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

class FactQueries;

/// One access through a tracked base: a kernel's pointer parameter (global
/// memory) or a `__shared__` variable (for wmma tile reads only).
struct MemoryAccess {
  enum Kind { Read, Write, ReadWrite, TileStore } K = Read;
  /// The kernel's pointer parameter, or the __shared__ variable.
  const ValueDecl *Base = nullptr;
  bool Shared = false;
  /// The subscript or dereference; the store_matrix_sync call for a tile.
  const Expr *Where = nullptr;
  bool reads() const { return K == Read || K == ReadWrite; }
  bool writes() const { return K == Write || K == ReadWrite; }
};

/// Two lanes of one warp and the cell they meet at.
struct LaneWitness {
  /// The writing thread (for a tile: the storing warp's first lane).
  unsigned Writer = 0;
  unsigned Reader = 0;
  /// The cell, as the read names it with the reader's values ("scratch[1]").
  std::string Cell;
};

/// A read that can see another lane's write (or tile store) of its warp.
struct MemoryExchangeRead {
  const MemoryAccess *Read = nullptr;
  /// The first racing write or tile store, in source order.
  const MemoryAccess *Write = nullptr;
  LaneWitness Witness;
};

/// The racing reads of one base in one warp-barrier interval, in source
/// order (never empty): one unsynchronized sequence.
struct MemoryExchange {
  const ValueDecl *Base = nullptr;
  /// The writes are wmma tile stores (else plain global writes).
  bool Tile = false;
  std::vector<MemoryExchangeRead> Reads;
};

struct GlobalAccessOptions {
  /// Call-site context: analyze the device function \p Call (in kernel
  /// \p Caller) calls, for the threads that make the call.
  const CallExpr *Call = nullptr;
  const FunctionDecl *Caller = nullptr;
};

class GlobalAccessAnalysis {
public:
  /// The accesses of kernel \p FD, or of the device function a call names
  /// (\p Options); nothing for a device function without one.
  GlobalAccessAnalysis(const FunctionDecl *FD, ASTContext &Ctx,
                       FactQueries &Manager,
                       GlobalAccessOptions Options = {});
  ~GlobalAccessAnalysis();
  GlobalAccessAnalysis(const GlobalAccessAnalysis &) = delete;
  GlobalAccessAnalysis &operator=(const GlobalAccessAnalysis &) = delete;

  /// The tracked accesses, in source order.
  const std::vector<MemoryAccess> &accesses() const;
  /// Threads per block the evaluation uses (x only).
  unsigned blockThreads() const;
  /// The exchanges, ordered by their first read: global scratch exchanges
  /// (plain writes and reads through one pointer parameter) and wmma tile
  /// reads (shared or global).
  std::vector<MemoryExchange> exchanges() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// The calls in kernel \p Kernel to device functions with a body that pass
/// a pointer (a kernel pointer parameter, a local pointer or a __shared__
/// array) as an argument: the call sites a call-site GlobalAccessAnalysis is
/// asked for. In source order, at most 64.
std::vector<const CallExpr *> pointerArgumentCalls(const FunctionDecl *Kernel);

} // namespace clang::tidy::cuda::analysis

#endif
