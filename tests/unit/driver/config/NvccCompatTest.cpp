//===--- NvccCompatTest.cpp - where the nvcc shims come from --------------===//

#include "tool/driver/config/NvccCompat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace clang::tidy::cuda::driver {
namespace {

/// A scratch folder tree; files are created empty on demand.
class Scratch {
public:
  Scratch() { llvm::sys::fs::createUniqueDirectory("cuda-tidy-compat", Root); }
  ~Scratch() { llvm::sys::fs::remove_directories(Root); }
  std::string path(llvm::StringRef Relative) const {
    llvm::SmallString<256> Path(Root);
    llvm::sys::path::append(Path, Relative);
    return Path.str().str();
  }
  std::string touch(llvm::StringRef Relative) const {
    std::string Path = path(Relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    return Path;
  }

private:
  llvm::SmallString<256> Root;
};

TEST(NvccCompat, HeaderBesideTheBinaryWinsOverTheBuiltInPath) {
  Scratch S;
  std::string Beside = S.touch("prefix/share/cuda-tidy/cuda_tidy_nvcc_compat.h");
  std::string BuiltIn = S.touch("src/tool/compat/cuda_tidy_nvcc_compat.h");
  NvccCompat Found =
      findNvccCompat(S.path("prefix/bin/cuda-tidy"), BuiltIn, "", {});
  EXPECT_EQ(Found.Header, Beside);
  // No copy beside the binary: the source tree's.
  Found = findNvccCompat(S.path("elsewhere/bin/cuda-tidy"), BuiltIn, "", {});
  EXPECT_EQ(Found.Header, BuiltIn);
  // Neither: none, and no flag is added for it.
  Found = findNvccCompat(S.path("elsewhere/bin/cuda-tidy"),
                         S.path("missing.h"), "", {});
  EXPECT_TRUE(Found.Header.empty());
}

TEST(NvccCompat, BundledResourceDirWinsOverTheBuiltInPath) {
  Scratch S;
  S.touch("prefix/share/cuda-tidy/clang/22/include/"
          "__clang_cuda_runtime_wrapper.h");
  std::string BuiltIn = S.path("llvm/lib/clang/22");
  // An installed tree: the copy beside the binary, wherever the tree is.
  EXPECT_EQ(findClangResourceDir(S.path("prefix/bin/cuda-tidy"),
                                 "share/cuda-tidy/clang/22", BuiltIn),
            S.path("prefix/share/cuda-tidy/clang/22"));
  // The build tree has no copy: the LLVM it was built against.
  EXPECT_EQ(findClangResourceDir(S.path("build/bin/cuda-tidy"),
                                 "share/cuda-tidy/clang/22", BuiltIn),
            BuiltIn);
  // A folder without clang's CUDA wrapper is not a resource folder.
  S.touch("other/share/cuda-tidy/clang/22/include/stddef.h");
  EXPECT_EQ(findClangResourceDir(S.path("other/bin/cuda-tidy"),
                                 "share/cuda-tidy/clang/22", BuiltIn),
            BuiltIn);
}

TEST(NvccCompat, NewestGccWithOmpHeaderUnlessClangHasOne) {
  Scratch S;
  S.touch("gcc/9/include/omp.h");
  S.touch("gcc/12/include/omp.h");
  S.touch("gcc/13/include/stddef.h"); // newest, but no omp.h
  S.touch("gcc/not-a-version/include/omp.h");
  NvccCompat Found = findNvccCompat("", "", S.path("clang"), {S.path("gcc")});
  EXPECT_EQ(Found.HostCompilerIncludeDir, S.path("gcc/12/include"));
  // clang's resource dir has its own (libomp-dev): GCC's is not searched.
  S.touch("clang/include/omp.h");
  Found = findNvccCompat("", "", S.path("clang"), {S.path("gcc")});
  EXPECT_TRUE(Found.HostCompilerIncludeDir.empty());
}

TEST(NvccCompat, AddsIncludeFirstAndFolderLastForCudaOnly) {
  std::vector<std::string> Args = {"clang++", "-Iinc", "-include", "mine.h",
                                   "--", "a.cu"};
  addNvccCompat(Args, "a.cu", "/p/cuda_tidy_nvcc_compat.h", "/gcc/include");
  EXPECT_EQ(Args, (std::vector<std::string>{
                      "clang++", "-isystem", "/p", "-include",
                      "cuda_tidy_nvcc_compat.h", "-Iinc", "-include", "mine.h",
                      "-idirafter", "/gcc/include", "--", "a.cu"}));
  // Asked again (a command adjusted twice, or the user's own -include of
  // the header): not added twice.
  std::vector<std::string> Twice = {"clang++", "-include",
                                    "/q/cuda_tidy_nvcc_compat.h", "a.cu"};
  addNvccCompat(Twice, "a.cu", "/p/cuda_tidy_nvcc_compat.h", "");
  EXPECT_EQ(Twice.size(), 4u);
  // A C++ file is left alone.
  std::vector<std::string> Cpp = {"clang++", "-c", "host.cpp"};
  addNvccCompat(Cpp, "host.cpp", "/p/cuda_tidy_nvcc_compat.h", "/gcc/include");
  EXPECT_EQ(Cpp.size(), 3u);
}

} // namespace
} // namespace clang::tidy::cuda::driver
