//===--- PreferTileCollectivesCheck.cpp - cuda-prefer-tile-collectives ----===//
//
// The advisory half of FullWarpMaskCheck: the same full-mask sites, the same
// divergence analysis, reported only where no lane divergence is seen.
//
//===----------------------------------------------------------------------===//

#include "checks/PreferTileCollectivesCheck.h"

namespace clang::tidy::cuda {

PreferTileCollectivesCheck::PreferTileCollectivesCheck(
    StringRef Name, ClangTidyContext *Context)
    : FullWarpMaskCheck(Name, Context, Report::ConvergedAdvisory) {}

} // namespace clang::tidy::cuda
