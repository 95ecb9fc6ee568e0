//===--- NvccCompat.cpp - parse what nvcc parses --------------------------===//

#include "tool/driver/config/NvccCompat.h"
#include "tool/driver/config/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::cuda::driver {

static bool isFile(const llvm::Twine &Path) {
  return llvm::sys::fs::is_regular_file(Path);
}

/// "12" < "13" < "13.2": GCC's folders are named by version.
static bool olderVersion(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallVector<llvm::StringRef, 3> PartsA;
  llvm::SmallVector<llvm::StringRef, 3> PartsB;
  A.split(PartsA, '.');
  B.split(PartsB, '.');
  for (size_t I = 0; I < std::max(PartsA.size(), PartsB.size()); ++I) {
    unsigned NumA = 0;
    unsigned NumB = 0;
    if (I < PartsA.size())
      PartsA[I].getAsInteger(10, NumA);
    if (I < PartsB.size())
      PartsB[I].getAsInteger(10, NumB);
    if (NumA != NumB)
      return NumA < NumB;
  }
  return false;
}

NvccCompat findNvccCompat(llvm::StringRef Executable,
                          llvm::StringRef BuiltInPath,
                          llvm::StringRef ResourceDir,
                          llvm::ArrayRef<std::string> GccRoots) {
  NvccCompat Found;
  if (!Executable.empty()) {
    llvm::SmallString<256> Beside(llvm::sys::path::parent_path(Executable));
    llvm::sys::path::append(Beside, "..", "share", "cuda-tidy",
                            NvccCompatHeaderName);
    llvm::sys::path::remove_dots(Beside, /*remove_dot_dot=*/true);
    if (isFile(Beside))
      Found.Header = Beside.str().str();
  }
  if (Found.Header.empty() && !BuiltInPath.empty() && isFile(BuiltInPath))
    Found.Header = BuiltInPath.str();

  if (!ResourceDir.empty() && isFile(ResourceDir + "/include/omp.h"))
    return Found;
  std::string Newest;
  std::string NewestVersion;
  for (const std::string &Root : GccRoots) {
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Root, EC), End; !EC && It != End;
         It.increment(EC)) {
      llvm::StringRef Version = llvm::sys::path::filename(It->path());
      if (Version.empty() || !llvm::isDigit(Version.front()) ||
          !isFile(It->path() + "/include/omp.h"))
        continue;
      if (Newest.empty() || olderVersion(NewestVersion, Version)) {
        Newest = It->path() + "/include";
        NewestVersion = Version.str();
      }
    }
  }
  Found.HostCompilerIncludeDir = std::move(Newest);
  return Found;
}

std::string findClangResourceDir(llvm::StringRef Executable,
                                 llvm::StringRef BundledPath,
                                 llvm::StringRef BuiltInPath) {
  if (!Executable.empty() && !BundledPath.empty()) {
    llvm::SmallString<256> Bundled(llvm::sys::path::parent_path(Executable));
    llvm::sys::path::append(Bundled, "..", BundledPath);
    llvm::sys::path::remove_dots(Bundled, /*remove_dot_dot=*/true);
    if (isFile(Bundled + "/include/__clang_cuda_runtime_wrapper.h"))
      return Bundled.str().str();
  }
  return BuiltInPath.str();
}

void addNvccCompat(std::vector<std::string> &Args, llvm::StringRef File,
                   llvm::StringRef Header, llvm::StringRef HostIncludeDir) {
  if (Args.empty() || !isCudaCommand(Args, File))
    return;
  if (!HostIncludeDir.empty()) {
    // Last of all folders: a header that clang or the system has wins.
    auto Files = llvm::find(Args, "--");
    Args.insert(Files, {"-idirafter", HostIncludeDir.str()});
  }
  if (!Header.empty() && llvm::none_of(Args, [&](const std::string &A) {
        return llvm::StringRef(A).ends_with(NvccCompatHeaderName);
      }))
    // Right after the driver: before the user's own -include files, as
    // nvcc's headers come before them. Named through a system folder (an
    // -include is looked up like #include "..."), so that it is a system
    // header like the toolkit's: nothing in it is reported, and the
    // preamble cache, which holds system headers only, can take it in.
    Args.insert(Args.begin() + 1,
                {"-isystem", llvm::sys::path::parent_path(Header).str(),
                 "-include", NvccCompatHeaderName.str()});
}

} // namespace clang::tidy::cuda::driver
