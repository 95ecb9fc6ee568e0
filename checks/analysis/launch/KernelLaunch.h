//===--- KernelLaunch.h - facts about kernel launch sites -------*- C++ -*-===//
//
// What a host-side kernel launch is: which form (<<<...>>>, the runtime's
// launch functions), which kernel, whether it is cooperative, and where its
// grid size comes from. Every question is answered inside one function,
// following local variables (a kernel pointer, a
// cudaLaunchConfig_t, its attribute array, a grid size) to the places that
// give them a value. A value that leaves the function (passed by address to
// an unknown call, bound to a reference, read from a parameter or a global)
// is Unknown: the checks say nothing rather than guess.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_KERNELLAUNCH_H
#define CUDA_TIDY_CHECKS_ANALYSIS_KERNELLAUNCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace clang::tidy::cuda::analysis {

enum class LaunchForm {
  TripleChevron,           ///< k<<<grid, block>>>(args)
  LaunchKernel,            ///< cudaLaunchKernel(k, grid, block, args, ...)
  LaunchKernelEx,          ///< cudaLaunchKernelEx(&config, k, args...)
  LaunchKernelExC,         ///< cudaLaunchKernelExC(&config, k, args)
  LaunchCooperativeKernel, ///< cudaLaunchCooperativeKernel(k, grid, ...)
};

/// "<<<...>>>", "cudaLaunchKernel", ... for messages.
const char *launchFormSpelling(LaunchForm Form);

enum class Cooperation { Cooperative, NotCooperative, Unknown };

struct KernelLaunch {
  const CallExpr *Call = nullptr;
  LaunchForm Form = LaunchForm::TripleChevron;
  /// The kernel launched, when the analysis resolves it.
  const FunctionDecl *Kernel = nullptr;
  Cooperation Coop = Cooperation::Unknown;

  // For cudaLaunchKernelEx / cudaLaunchKernelExC:
  /// The cudaLaunchConfig_t variable, when resolved.
  const VarDecl *Config = nullptr;
  /// Where cudaLaunchAttributeCooperative is set to 0, when that is why the
  /// launch is not cooperative.
  const Expr *CooperativeSetToZero = nullptr;

  /// The expressions the grid size is taken from: the grid argument, or
  /// every value stored in config.gridDim.
  llvm::SmallVector<const Expr *, 2> GridSizes;
};

/// Recognises a launch site, or nullopt for any other call.
std::optional<KernelLaunch> asKernelLaunch(const CallExpr *Call,
                                           ASTContext &Context);

/// The function an expression names: through parentheses, casts, `&`, and
/// local variables that hold one value in the function declaring them.
/// nullptr when unresolved.
const FunctionDecl *resolveFunction(const Expr *E, ASTContext &Context);

enum class GridSizeSource {
  /// Bounded by an occupancy query (cudaOccupancyMaxActiveBlocksPer-
  /// Multiprocessor*, cudaOccupancyMaxPotentialBlockSize*'s grid).
  Occupancy,
  /// Computed in the function from the size of the data: a division (or
  /// shift) of an element count by a block size, with no occupancy query,
  /// SM count or untraceable value in it.
  DataSize,
  /// Anything else: a constant, a parameter passed through, a value from
  /// another function, the SM count alone. Nothing to say.
  Untraceable,
};

struct GridSizeTrace {
  GridSizeSource Source = GridSizeSource::Untraceable;
  /// For DataSize: the division that sizes the grid by the data.
  const Expr *Division = nullptr;
};

/// Where the grid size of a launch comes from, over all of \p GridSizes.
/// With \p Launch, a grid sized by the data counts as bounded when the
/// launch runs only under a test that it fits an occupancy bound: an
/// enclosing `if (blocks <= maxBlocks)`, or a flag cleared when it does not
/// (`if (chunks * problems > max_grid_size) use_cooperative = false;` ...
/// `if (use_cooperative) cudaLaunchCooperativeKernel(...)`, punica's
/// fallback).
GridSizeTrace traceGridSize(llvm::ArrayRef<const Expr *> GridSizes,
                            ASTContext &Context,
                            const CallExpr *Launch = nullptr);

/// A name CUDA 13 removed, with what to use instead.
struct RemovedCudaName {
  llvm::StringRef Name;
  llvm::StringRef Replacement;
};

/// The multi-device cooperative launch API that CUDA 13 removed:
/// cudaLaunchCooperativeKernelMultiDevice, cudaLaunchParams,
/// cooperative_groups::this_multi_grid, cooperative_groups::multi_grid_group.
llvm::ArrayRef<RemovedCudaName> removedMultiDeviceNames();

} // namespace clang::tidy::cuda::analysis

#endif
