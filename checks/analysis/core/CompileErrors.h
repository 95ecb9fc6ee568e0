//===--- CompileErrors.h - which function definitions do not compile -*- C++ -*-===//
//
// A file with a compiler error still has its other functions analyzed
// (issue 15: "a file that still fails is not lost"), but a function whose
// body clang could only recover is left out: its recovered expressions
// (RecoveryExpr, a call to an undeclared name, a use of an invalid
// declaration) have no meaning to reason about, and a finding there would
// be a guess. The caller gives no analysis for such a function (the
// analysis manager composes analyses), so every check skips it; the
// standalone names each one with the first place it does not compile.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_COMPILEERRORS_H
#define CUDA_TIDY_CHECKS_ANALYSIS_COMPILEERRORS_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"

namespace clang::tidy::cuda::analysis {

/// The first place (in a walk of the body in source order) where
/// \p Definition does not compile: the definition itself when invalid, else
/// the first expression that contains errors or the first invalid local
/// declaration. Invalid (isInvalid()) when the body compiles.
SourceLocation firstCompileError(const FunctionDecl &Definition);

inline bool compiles(const FunctionDecl &Definition) {
  return firstCompileError(Definition).isInvalid();
}

} // namespace clang::tidy::cuda::analysis

#endif
