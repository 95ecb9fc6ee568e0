//===--- PrivateFolder.h - a folder only its user may write -----*- C++ -*-===//
//
// The cache folder (--cache-dir) and the index folder (--index-dir) are made
// the same way: the path made absolute, its parents created, and the folder
// itself created with mode 0700 whatever the umask. Each caller then checks
// what it opened (a directory, the user's, writable by no one else): the
// mode is checked, never assumed, since the folder may have existed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PRIVATEFOLDER_H
#define CUDA_TIDY_TOOL_DRIVER_PRIVATEFOLDER_H

#include "llvm/Support/Error.h"
#include <string>

namespace clang::tidy::cuda::driver {

/// \p Dir, absolute and without dots; created (0700, parents 0700 too) when
/// it does not exist. Several processes may create it at once: an existing
/// folder is not an error.
llvm::Expected<std::string> makePrivateFolder(llvm::StringRef Dir);

} // namespace clang::tidy::cuda::driver

#endif
