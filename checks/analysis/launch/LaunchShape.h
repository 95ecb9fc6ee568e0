//===--- LaunchShape.h - what a TU tells about a kernel's block shape -----===//
//
// Whether the threads of a kernel's blocks are laid out in whole warps per
// row: blockDim.x a multiple of 32. Then every warp lies within one row of
// the block, so threadIdx.y and threadIdx.z are the same for all its lanes,
// and a branch on them diverges between warps but never inside one. Kernels
// written for `dim3(WARP_SIZE, nwarps)` blocks branch on threadIdx.y all the
// time; without this fact each of those branches looks lane-divergent.
//
// The fact comes from what the translation unit shows:
//  - every launch site of the kernel it resolves (`<<<grid, block>>>`,
//    cudaLaunchKernel, cudaLaunchCooperativeKernel), with the block's x
//    extent a known multiple of 32: a constant, a template argument, a
//    product with such a factor, a local dim3 that is never changed;
//  - or a check in the kernel that stops every other shape: an
//    `assert(blockDim.x == 32)`, or an `if (blockDim.x != 32)` that returns
//    or traps.
// A kernel with no such launch or check (launched from another file, with a
// block size computed at run time, through a pointer the TU does not
// resolve) is unknown, and the analysis then treats threadIdx.y/z as varying
// by lane, as before. A device function has the fact when every kernel of
// the TU that reaches it (through calls clang's CallGraph sees) has it.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_LAUNCHSHAPE_H
#define CUDA_TIDY_CHECKS_ANALYSIS_LAUNCHSHAPE_H

#include "checks/analysis/core/FactQueries.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

/// The largest power of two (up to 2^31) that \p E is known to be a multiple
/// of, following constants, template arguments, products, shifts, sums and
/// locals with one value; 1 when nothing is known. \p E is an integer or a
/// dim3 (then its x extent).
uint64_t knownFactorOfBlockX(const Expr *E, ASTContext &Context);

/// True when the statement-level check \p Condition, failing, stops the
/// kernel, and holding means blockDim.x is a multiple of 32:
/// `blockDim.x == 32`, `blockDim.x % 32 == 0`, `32 == blockDim.x`.
bool impliesWarpAlignedRows(const Expr *Condition, ASTContext &Context);

class LaunchShapes {
public:
  /// Scans the translation unit's launch sites (lazily: nothing is done
  /// until the first question).
  explicit LaunchShapes(ASTContext &Context) : Context(Context) {}

  /// blockDim.x is a multiple of 32 in every block \p Function runs in, as
  /// far as the TU shows (see the file comment).
  bool rowsAreWarpAligned(const FunctionDecl *Function);
  /// Some launch the TU shows gives \p Function (or a kernel that reaches
  /// it) blocks a constant number of threads wide that is not a multiple of
  /// 32: its rows do straddle warps. Neither this nor rowsAreWarpAligned
  /// holding means the shape is unknown.
  bool rowsMayStraddleWarps(const FunctionDecl *Function);
  /// The power-of-two factor parameter \p Param of \p Kernel is known to
  /// have at every launch the TU shows: the argument's value (a constant, a
  /// product with one), or an assertion in the launching function before the
  /// launch (`GGML_ASSERT(ne0 % QK8_1 == 0)`, `assert(n % 32 == 0)`). 1 when
  /// nothing is known, the kernel is never launched here, or some launch
  /// passes its arguments in a form not read (cudaLaunchKernel's array).
  uint64_t argumentFactor(const FunctionDecl *Kernel, unsigned Param);
  /// blockDim.x, .y, .z (\p Dim 0, 1, 2) of kernel \p Function's blocks:
  /// from every launch the TU shows (the block argument's components through
  /// dim3 constructions and locals with one value, a defaulted component
  /// being 1), or from a check in the kernel's body that stops every other
  /// extent. Nothing for a kernel the TU does not launch, or a launch whose
  /// block is not read (cudaLaunchKernelEx's config). A device function has
  /// what every kernel of the TU that reaches it has: the exact extent where
  /// they all agree, the least factor.
  BlockExtentFact blockExtent(const FunctionDecl *Function, unsigned Dim);

  /// Per kernel: the extents over its launches so far (Mixed: two launches
  /// disagree, or one is not read).
  struct LaunchedExtents {
    std::array<BlockExtentFact, 3> Dims;
    std::array<bool, 3> Mixed{};
  };

private:
  void scanLaunches();
  void propagateToCallees();

  ASTContext &Context;
  bool Scanned = false;
  bool Propagated = false;
  /// Canonical kernel -> every launch site the TU has of it gives a block x
  /// that is a multiple of 32 (false once one does not).
  llvm::DenseMap<const FunctionDecl *, bool> LaunchedAligned;
  /// Canonical kernels whose body checks the shape itself.
  llvm::DenseSet<const FunctionDecl *> CheckedInBody;
  /// Canonical device functions -> reached only from aligned kernels.
  llvm::DenseMap<const FunctionDecl *, bool> CalleeAligned;
  /// Canonical kernels launched with a constant, unaligned block width, and
  /// the device functions they reach.
  llvm::DenseSet<const FunctionDecl *> KnownUnaligned;
  llvm::DenseSet<const FunctionDecl *> CalleeUnaligned;
  /// Canonical device function -> the extents of every kernel reaching it,
  /// joined (blockExtent).
  llvm::DenseMap<const FunctionDecl *, std::array<BlockExtentFact, 3>>
      CalleeExtents;
  /// Canonical kernel -> per parameter, the least factor over its launches.
  llvm::DenseMap<const FunctionDecl *, std::vector<uint64_t>> ArgumentFactors;
  /// Canonical kernel -> its launches' block extents.
  llvm::DenseMap<const FunctionDecl *, LaunchedExtents> Extents;
  /// Canonical kernel -> extents its body checks.
  llvm::DenseMap<const FunctionDecl *, std::array<std::optional<uint64_t>, 3>>
      CheckedExtents;
};

} // namespace clang::tidy::cuda::analysis

#endif
