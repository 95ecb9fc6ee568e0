//===--- PrivateFolder.cpp - a folder only its user may write -------------===//

#include "tool/driver/support/PrivateFolder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace clang::tidy::cuda::driver {

llvm::Expected<std::string> makePrivateFolder(llvm::StringRef DirArg) {
  llvm::SmallString<256> Dir(DirArg);
  if (std::error_code EC = llvm::sys::fs::make_absolute(Dir))
    return llvm::createStringError(EC, "cannot resolve '" + DirArg + "'");
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  if (llvm::sys::fs::exists(Dir))
    return std::string(Dir);
  llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  if (!Parent.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(
            Parent, /*IgnoreExisting=*/true, llvm::sys::fs::owner_all))
      return llvm::createStringError(EC, "cannot create '" + Parent +
                                             "': " + EC.message());
  // mkdir applies the umask: the callers check the mode they get.
  if (::mkdir(Dir.c_str(), 0700) != 0 && errno != EEXIST)
    return llvm::createStringError(
        std::error_code(errno, std::generic_category()),
        "cannot create '" + Dir + "': " + std::strerror(errno));
  return std::string(Dir);
}

} // namespace clang::tidy::cuda::driver
