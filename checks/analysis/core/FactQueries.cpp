//===--- FactQueries.cpp - the interface's key function -------------------===//

#include "checks/analysis/core/FactQueries.h"

namespace clang::tidy::cuda::analysis {

FactQueries::~FactQueries() = default;

} // namespace clang::tidy::cuda::analysis
