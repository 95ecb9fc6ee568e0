//===--- DivergenceNotes.h - how warp/group checks explain divergence -----===//
//
// Shared by cuda-divergent-barrier, cuda-full-warp-mask and
// cuda-divergent-group-creation: the notes that say why a point is reached
// by only part of a group (the condition, the jump, where the
// thread-dependent value came from), names of levels of the thread
// hierarchy for messages, and which functions run on the device.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_DIVERGENCENOTES_H
#define CUDA_TIDY_CHECKS_DIVERGENCENOTES_H

#include "checks/analysis/divergence/DivergenceAnalysis.h"
#include "checks/analysis/core/Uniformity.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class Stmt;
namespace tidy {
class ClangTidyCheck;
namespace cuda::analysis {
class AnalysisManager;
} // namespace cuda::analysis
} // namespace tidy
} // namespace clang

namespace clang::tidy::cuda {

/// Where a statement starts. CallExpr::getBeginLoc() is not virtual and,
/// for a call of a lambda, answers the '(' of the operator call; Stmt's
/// dispatches to the most derived class.
inline SourceLocation beginOf(const Stmt *S) { return S->getBeginLoc(); }

/// Kernels, __device__ functions and lambdas (clang treats a lambda as
/// callable from wherever it is defined).
bool isDeviceCode(const FunctionDecl *FD);

/// "warp", "block", "cluster", "grid", or "tile of 16 threads".
std::string levelName(analysis::Level L);

/// The source text of \p S on one line (whitespace runs collapsed), or
/// \p Fallback when it is not in one file range or longer than \p MaxLength.
/// A whole macro argument or a whole macro expansion reads as written.
std::string quoteSource(const Stmt *S, const ASTContext &Ctx,
                        llvm::StringRef Fallback, size_t MaxLength = 40);

/// A hardware index or intrinsic read as messages quote it:
/// "threadIdx.x", or "__activemask()" when its text cannot be quoted.
std::string quoteOrigin(const Stmt *Where, const ASTContext &Ctx);

/// The name of a call's callee as messages show it ("__shfl_down_sync",
/// "reduce"); lambdas by the variable that holds them.
std::string calleeDisplayName(const CallExpr *Call);

/// Adds the notes that explain \p Reason: the condition that is not uniform
/// across \p Within, the jump some threads took ("threads that take this
/// 'return' skip <Skipped>"), and where the non-uniform value came from.
void explainDivergence(ClangTidyCheck &Check,
                       const analysis::DivergenceReason &Reason,
                       llvm::StringRef Within, llvm::StringRef Skipped,
                       const ASTContext &Ctx);

/// The tail of a message that says who is missing: "lanes that skipped this
/// branch", "lanes that left early", "lanes that left the loop".
llvm::StringRef missingThreads(analysis::DivergenceKind Kind,
                               llvm::StringRef Who);

/// The potential tier of the checks at warp scope and below: the group
/// diverges at \p Site only because of a fact the tool does not see. Either
/// only an unknown block width lets threadIdx.y/z split the warp, or the
/// threads that left returned on `threadIdx.D >= bound`, which only a block
/// launched wider than the bound has (BlockExtentGuards.h). The message
/// suffix naming the fact ("; potential: ..."); empty for a definite finding.
/// \p Members names who leaves ("lanes").
/// The potential tier's addition to a message whose divergence at \p Site
/// rests only on a callee of \p Function that does not compile (so it was
/// not analyzed, and was taken as storing its operands through what it got
/// by reference); empty otherwise.
std::string unanalyzedCalleeFact(analysis::AnalysisManager &Manager,
                                 const FunctionDecl *Function, const Stmt *Site,
                                 analysis::Level Within);

std::string warpPotentialFact(analysis::AnalysisManager &Manager,
                              const FunctionDecl *Function, const Stmt *Site,
                              const analysis::DivergenceReason &Reason,
                              ASTContext &Ctx, analysis::Level Within,
                              llvm::StringRef Members = "lanes");

} // namespace clang::tidy::cuda

#endif
