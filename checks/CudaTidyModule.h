//===--- CudaTidyModule.h - the cuda-tidy check module ----------*- C++ -*-===//
#ifndef CUDA_TIDY_CHECKS_CUDATIDYMODULE_H
#define CUDA_TIDY_CHECKS_CUDATIDYMODULE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::cuda {

/// What the front-ends need to know about a check without instantiating it:
/// SARIF rule descriptors, documentation links, --list-checks.
struct CheckDescription {
  llvm::StringRef Name;
  llvm::StringRef Summary;
};

/// Every check of CheckList.def, in its order.
llvm::ArrayRef<CheckDescription> allCheckDescriptions();

/// The documentation page of a check, relative to the repository root.
std::string checkDocumentationPath(llvm::StringRef CheckName);

} // namespace clang::tidy::cuda

#endif
