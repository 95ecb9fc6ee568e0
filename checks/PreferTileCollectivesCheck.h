//===--- PreferTileCollectivesCheck.h - cuda-prefer-tile-collectives -*- C++ -*-===//
//
// An opt-in advisory, off in the default check set: a warp intrinsic called
// with a hardcoded full mask where the analysis sees no lane divergence. The
// mask then assumes the whole warp is converged here, which is usually true
// and sometimes a latent bug when the code moves under a branch later; a
// cooperative-groups tile states the membership instead. It is the
// convergent half of cuda-full-warp-mask (which reports only hazards) and
// shares its machinery. `__syncwarp()` with its default mask and
// `__ballot_sync(FULL, p)` are never reported: they assume nothing a tile
// would state better.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_PREFERTILECOLLECTIVESCHECK_H
#define CUDA_TIDY_CHECKS_PREFERTILECOLLECTIVESCHECK_H

#include "checks/FullWarpMaskCheck.h"

namespace clang::tidy::cuda {

class PreferTileCollectivesCheck : public FullWarpMaskCheck {
public:
  PreferTileCollectivesCheck(StringRef Name, ClangTidyContext *Context);
};

} // namespace clang::tidy::cuda

#endif
