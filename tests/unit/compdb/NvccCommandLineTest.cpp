//===--- NvccCommandLineTest.cpp - nvcc -> clang translation --------------===//
//
// Hand-written nvcc command lines, one rule per test. The nvcc behaviour the
// expectations encode was checked with nvcc 13.0 (`nvcc -dryrun`, `nvcc -E`);
// tests/compdb/nvcc_compdb_e2e.py runs the translation on the commands a real
// CMake project writes and hands the results to clang.
//
//===----------------------------------------------------------------------===//

#include "tool/compdb/NvccCommandLine.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace clang::tidy::cuda::compdb {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

/// No toolkit inference: the expectations stay machine-independent.
TranslationOptions plainOptions() {
  TranslationOptions Opts;
  Opts.InferCudaPathFromNvcc = false;
  return Opts;
}

TranslatedCommand translate(const Args &A,
                            const TranslationOptions &Opts = plainOptions(),
                            const std::string &Directory = "/build") {
  return translateNvccCommand(A, Directory, Opts);
}

bool contains(const Args &Haystack, const std::string &Needle) {
  return std::find(Haystack.begin(), Haystack.end(), Needle) != Haystack.end();
}

/// True when \p Sequence appears in \p Haystack as consecutive elements.
bool containsSequence(const Args &Haystack, const Args &Sequence) {
  return std::search(Haystack.begin(), Haystack.end(), Sequence.begin(),
                     Sequence.end()) != Haystack.end();
}

bool noteMentions(const TranslatedCommand &T, const std::string &Text) {
  return std::any_of(T.Notes.begin(), T.Notes.end(), [&](const std::string &N) {
    return N.find(Text) != std::string::npos;
  });
}

size_t countPrefix(const Args &A, const std::string &Prefix) {
  return std::count_if(A.begin(), A.end(), [&](const std::string &S) {
    return S.rfind(Prefix, 0) == 0;
  });
}

/// A fresh folder under the test temp dir, removed at the end of the test.
class TempDir {
public:
  explicit TempDir(const std::string &Name) {
    Path = fs::path(::testing::TempDir()) /
           ("nvcc-cmdline-" + Name + "-" + std::to_string(::getpid()));
    fs::remove_all(Path);
    fs::create_directories(Path);
  }
  ~TempDir() {
    std::error_code EC;
    fs::remove_all(Path, EC);
  }
  std::string write(const std::string &Rel, const std::string &Text) const {
    fs::path P = Path / Rel;
    fs::create_directories(P.parent_path());
    std::ofstream(P, std::ios::binary) << Text;
    return P.string();
  }
  fs::path Path;
};

//===-- Recognising nvcc commands -----------------------------------------===//

TEST(NvccDetection, ByCompilerName) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"ccache", "/opt/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/c++", "-c", "a.cpp"}));
  EXPECT_FALSE(isNvccCommand({"clang++", "-x", "cuda", "-c", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"/opt/nvcc-tools/bin/clang++", "-c", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({}));
}

TEST(NvccDetection, ByNvccOnlyFlags) {
  EXPECT_TRUE(isNvccCommand(
      {"wrapper", "-gencode", "arch=compute_90,code=sm_90", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "--generate-code=arch=compute_90,"
                                        "code=[compute_90,sm_90]"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "-x", "cu", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "-rdc=true", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "-Xcompiler=-Wall", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "--options-file", "x.rsp", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "--expt-relaxed-constexpr", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "-arch=sm_90", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "-arch", "compute_80", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"wrapper", "-arch=native", "a.cu"}));
  // clang's own -arch (Darwin) is not nvcc's.
  EXPECT_FALSE(isNvccCommand({"clang++", "-arch", "x86_64", "a.cpp"}));
  EXPECT_FALSE(isNvccCommand({"g++", "-x", "c++", "-Wall", "a.cpp"}));
}

//===-- The frame of the command ------------------------------------------===//

TEST(NvccTranslation, DriverFirstSourceAndOutputKept) {
  TranslationOptions Opts = plainOptions();
  Opts.ClangDriver = "/usr/bin/clang++-22";
  TranslatedCommand T = translate(
      {"/usr/local/cuda/bin/nvcc", "-c", "src/a.cu", "-o", "a.cu.o"}, Opts);
  EXPECT_TRUE(T.Errors.empty());
  EXPECT_EQ(T.Arguments, (Args{"/usr/bin/clang++-22", "-c", "src/a.cu", "-o",
                               "a.cu.o", "--cuda-gpu-arch=sm_90"}));
  EXPECT_EQ(T.InputFiles, (Args{"src/a.cu"}));
  EXPECT_TRUE(T.IsCuda);
}

TEST(NvccTranslation, LauncherIsSkipped) {
  TranslatedCommand T =
      translate({"ccache", "/usr/local/cuda/bin/nvcc", "-c", "a.cu"});
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "-c", "a.cu", "--cuda-gpu-arch=sm_90"}));
}

// clang's interpolated command for a file the database lacks ends in
// `-- <file>` (issue 15): the flags the translation appends go before it, or
// clang reads them as file names.
TEST(NvccTranslation, InputsAfterDoubleDashStayLast) {
  TranslatedCommand T =
      translate({"/usr/local/cuda/bin/nvcc", "-Iinc", "-rdc=true", "-c", "--",
                 "src/new.cu"});
  EXPECT_TRUE(T.Errors.empty());
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "-Iinc", "-c", "--cuda-gpu-arch=sm_90",
                  "-fgpu-rdc", "--", "src/new.cu"}));
  EXPECT_EQ(T.InputFiles, (Args{"src/new.cu"}));
  EXPECT_TRUE(T.IsCuda);
  // Restricted to one arch, the arch still lands before the `--`.
  EXPECT_EQ(restrictToGpuArch({"clang++", "-c", "--", "a.cu"}, "sm_75"),
            (Args{"clang++", "-c", "--cuda-gpu-arch=sm_75", "--", "a.cu"}));
}

TEST(NvccTranslation, OutputLongSpellings) {
  TranslatedCommand T =
      translate({"nvcc", "--compile", "a.cu", "--output-file", "a.o"});
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-c", "a.cu", "-o", "a.o",
                               "--cuda-gpu-arch=sm_90"}));
  T = translate({"nvcc", "-c", "a.cu", "-o=a.o"});
  EXPECT_TRUE(containsSequence(T.Arguments, {"-o", "a.o"}));
}

TEST(NvccTranslation, MissingValueIsAnError) {
  TranslatedCommand T = translate({"nvcc", "-c", "a.cu", "-o"});
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("'-o'"), std::string::npos);
}

//===-- Language ----------------------------------------------------------===//

TEST(NvccTranslation, LanguageCuBecomesCuda) {
  // nvcc's -x is global; clang's applies to the inputs after it, so the
  // translation puts it before everything else.
  TranslatedCommand T = translate({"nvcc", "-c", "a.cpp", "-x", "cu"});
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-x", "cuda", "-c", "a.cpp",
                               "--cuda-gpu-arch=sm_90"}));
  EXPECT_TRUE(T.IsCuda);
  T = translate({"nvcc", "-x=cu", "-c", "a.cpp"});
  EXPECT_TRUE(containsSequence(T.Arguments, {"-x", "cuda"}));
  T = translate({"nvcc", "--x", "cu", "-c", "a.cpp"});
  EXPECT_TRUE(containsSequence(T.Arguments, {"-x", "cuda"}));
}

TEST(NvccTranslation, HostLanguageGetsNoCudaFlags) {
  TranslationOptions Opts = plainOptions();
  Opts.CudaPath = "/usr/local/cuda";
  TranslatedCommand T = translate(
      {"nvcc", "-x", "c++", "-rdc=true", "-arch=sm_90", "-c", "host.cpp"},
      Opts);
  EXPECT_FALSE(T.IsCuda);
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-x", "c++", "-c", "host.cpp"}));
  EXPECT_TRUE(T.GpuArchs.empty());
  EXPECT_TRUE(noteMentions(T, "host c++"));
}

TEST(NvccTranslation, LanguageBySuffixWithoutDashX) {
  EXPECT_FALSE(translate({"nvcc", "-c", "host.cpp"}).IsCuda);
  EXPECT_TRUE(translate({"nvcc", "-c", "kernel.CU"}).IsCuda);
}

//===-- GPU architectures -------------------------------------------------===//

TEST(NvccArch, ArchSpellings) {
  for (const Args &Flags :
       {Args{"-arch=sm_80"}, Args{"-arch", "sm_80"},
        Args{"--gpu-architecture=sm_80"}, Args{"--gpu-architecture", "sm_80"},
        Args{"-arch=compute_80"}, Args{"-arch", "lto_80"}}) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-c", "a.cu"});
    TranslatedCommand T = translate(Command);
    EXPECT_EQ(T.Arguments,
              (Args{"clang++", "-c", "a.cu", "--cuda-gpu-arch=sm_80"}))
        << Flags[0];
    EXPECT_EQ(T.HighestArch, "sm_80");
  }
}

TEST(NvccArch, GenerateCodeSpellings) {
  for (const Args &Flags :
       {Args{"-gencode", "arch=compute_90,code=sm_90"},
        Args{"-gencode=arch=compute_90,code=sm_90"},
        Args{"--generate-code=arch=compute_90,code=[compute_90,sm_90]"},
        Args{"--generate-code", "arch=compute_90,code=[compute_90,sm_90]"},
        // The quotes a shell leaves in: -gencode 'arch=...,code="a,b"'.
        Args{"-gencode", "arch=compute_90,code=\"sm_90,compute_90\""}}) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-c", "a.cu"});
    TranslatedCommand T = translate(Command);
    EXPECT_EQ(T.GpuArchs, (Args{"sm_90"})) << Flags.back();
    EXPECT_EQ(countPrefix(T.Arguments, "--cuda-gpu-arch="), 1u);
    EXPECT_FALSE(contains(T.Arguments, "-gencode"));
    EXPECT_TRUE(T.Errors.empty());
  }
}

TEST(NvccArch, CMakeMultiArchLineKeepsAllAndNamesHighest) {
  // CUDA_ARCHITECTURES "80;90-real;90-virtual", as CMake 3.25 writes it.
  TranslatedCommand T = translate(
      {"nvcc", "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
       "--generate-code=arch=compute_90,code=[sm_90]",
       "--generate-code=arch=compute_90,code=[compute_90]", "-x", "cu", "-c",
       "main.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_80", "sm_90"}));
  EXPECT_EQ(T.HighestArch, "sm_90");
  EXPECT_TRUE(contains(T.Arguments, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(contains(T.Arguments, "--cuda-gpu-arch=sm_90"));
  EXPECT_EQ(countPrefix(T.Arguments, "--cuda-gpu-arch="), 2u);
}

TEST(NvccArch, SeveralGencodesInOneValue) {
  TranslatedCommand T =
      translate({"nvcc", "-gencode",
                 "arch=compute_70,code=sm_70,arch=compute_100,code=sm_100",
                 "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_70", "sm_100"}));
  EXPECT_EQ(T.HighestArch, "sm_100");
}

TEST(NvccArch, CodeDoesNotChangeTheCompiledArch) {
  // nvcc compiles once per virtual arch: with -arch=compute_86
  // -code=compute_86,sm_90 the device code sees __CUDA_ARCH__ == 860.
  TranslatedCommand T = translate(
      {"nvcc", "-arch=compute_86", "-code=compute_86,sm_90", "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_86"}));
  EXPECT_TRUE(noteMentions(T, "-code=compute_86,sm_90"));
  T = translate(
      {"nvcc", "-gencode", "arch=compute_80,code=sm_86", "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_80"}));
}

TEST(NvccArch, ArchSpecificSuffixes) {
  TranslatedCommand T =
      translate({"nvcc", "-gencode", "arch=compute_90a,code=sm_90a", "-gencode",
                 "arch=compute_90,code=sm_90", "-gencode",
                 "arch=compute_100a,code=sm_100a", "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_90", "sm_90a", "sm_100a"}));
  EXPECT_EQ(T.HighestArch, "sm_100a");
  EXPECT_EQ(translate({"nvcc", "-arch=sm_90a", "-c", "a.cu"}).HighestArch,
            "sm_90a");
}

TEST(NvccArch, FamilySuffixHasNoClangSpelling) {
  // clang 22 rejects sm_100f; the family's features include sm_100's.
  TranslatedCommand T = translate({"nvcc", "-arch=sm_100f", "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_100"}));
  EXPECT_TRUE(noteMentions(T, "sm_100f"));
  EXPECT_EQ(clangGpuArchFromNvcc("compute_120f"), "sm_120");
  EXPECT_EQ(clangGpuArchFromNvcc("lto_90a"), "sm_90a");
  EXPECT_EQ(clangGpuArchFromNvcc("sm_9x"), "");
  EXPECT_EQ(clangGpuArchFromNvcc("native"), "");
}

TEST(NvccArch, KeywordsBecomeTheDefaultArch) {
  TranslationOptions Opts = plainOptions();
  Opts.DefaultArch = "sm_89";
  for (std::string Keyword : {"native", "all", "all-major"}) {
    TranslatedCommand T =
        translate({"nvcc", "-arch=" + Keyword, "-c", "a.cu"}, Opts);
    EXPECT_EQ(T.GpuArchs, (Args{"sm_89"})) << Keyword;
    EXPECT_TRUE(noteMentions(T, "'-arch=" + Keyword + "' -> sm_89")) << Keyword;
    // Taken as the keyword, not as a command that names no arch.
    EXPECT_FALSE(noteMentions(T, "no GPU architecture")) << Keyword;
    EXPECT_FALSE(noteMentions(T, "ignored")) << Keyword;
  }
}

TEST(NvccArch, NoArchUsesTheDefaultWithANote) {
  TranslatedCommand T = translate({"nvcc", "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_90"}));
  EXPECT_TRUE(noteMentions(T, "no GPU architecture"));
}

TEST(NvccArch, DuplicatesAreMerged) {
  TranslatedCommand T = translate({"nvcc", "-arch=sm_90", "-gencode",
                                   "arch=compute_90,code=sm_90", "-c", "a.cu"});
  EXPECT_EQ(T.GpuArchs, (Args{"sm_90"}));
}

TEST(NvccArch, RestrictToOneArch) {
  Args In = {"clang++",
             "-c",
             "a.cu",
             "--cuda-gpu-arch=sm_80",
             "--cuda-gpu-arch=sm_90",
             "-fgpu-rdc"};
  EXPECT_EQ(
      restrictToGpuArch(In, "sm_90"),
      (Args{"clang++", "-c", "a.cu", "--cuda-gpu-arch=sm_90", "-fgpu-rdc"}));
  EXPECT_EQ(restrictToGpuArch({"clang++", "a.cu"}, "sm_75"),
            (Args{"clang++", "a.cu", "--cuda-gpu-arch=sm_75"}));
}

//===-- Relocatable device code -------------------------------------------===//

TEST(NvccRdc, Spellings) {
  for (const Args &Flags : {Args{"-rdc=true"}, Args{"-rdc", "true"},
                            Args{"--relocatable-device-code=true"},
                            Args{"--relocatable-device-code", "TRUE"}}) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-c", "a.cu"});
    TranslatedCommand T = translate(Command);
    EXPECT_TRUE(contains(T.Arguments, "-fgpu-rdc")) << Flags[0];
    EXPECT_TRUE(T.RelocatableDeviceCode);
    EXPECT_FALSE(contains(T.Arguments, "true"));
  }
  TranslatedCommand T = translate({"nvcc", "-rdc=false", "-c", "a.cu"});
  EXPECT_FALSE(contains(T.Arguments, "-fgpu-rdc"));
  EXPECT_FALSE(T.RelocatableDeviceCode);
}

TEST(NvccRdc, DeviceCompileIsRdcPlusCompile) {
  TranslatedCommand T = translate({"nvcc", "-dc", "a.cu", "-o", "a.o"});
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-c", "a.cu", "-o", "a.o",
                               "--cuda-gpu-arch=sm_90", "-fgpu-rdc"}));
  T = translate({"nvcc", "--device-c", "a.cu"});
  EXPECT_TRUE(contains(T.Arguments, "-fgpu-rdc"));
  // The last word wins, as in nvcc.
  T = translate({"nvcc", "-dc", "-rdc=false", "a.cu"});
  EXPECT_FALSE(contains(T.Arguments, "-fgpu-rdc"));
  EXPECT_TRUE(contains(T.Arguments, "-c"));
  T = translate({"nvcc", "-rdc=true", "-dw", "a.cu"});
  EXPECT_FALSE(contains(T.Arguments, "-fgpu-rdc"));
}

//===-- Host compiler options ---------------------------------------------===//

TEST(NvccHostOptions, SplitIntoSeparateFlags) {
  EXPECT_EQ(
      translate({"nvcc", "-Xcompiler=-Wall,-Wextra", "-c", "a.cu"}).Arguments,
      (Args{"clang++", "-Wall", "-Wextra", "-c", "a.cu",
            "--cuda-gpu-arch=sm_90"}));
  EXPECT_TRUE(containsSequence(
      translate({"nvcc", "-Xcompiler", "-fPIC,-O2", "a.cu"}).Arguments,
      {"-fPIC", "-O2"}));
  EXPECT_TRUE(containsSequence(
      translate({"nvcc", "--compiler-options", "-g,-Wshadow", "a.cu"})
          .Arguments,
      {"-g", "-Wshadow"}));
  EXPECT_TRUE(containsSequence(
      translate({"nvcc", "--compiler-options=-fno-strict-aliasing", "a.cu"})
          .Arguments,
      {"-fno-strict-aliasing"}));
}

TEST(NvccHostOptions, ShellRulesInsideTheValue) {
  // nvcc pastes the pieces into a shell command line: blanks separate,
  // quotes group and vanish, and every comma splits (even in -Wl,...).
  EXPECT_TRUE(containsSequence(
      translate({"nvcc", "-Xcompiler", "-Wall -Wextra", "a.cu"}).Arguments,
      {"-Wall", "-Wextra"}));
  EXPECT_TRUE(containsSequence(
      translate({"nvcc", "-Xcompiler", "-Wl,-rpath,/x", "a.cu"}).Arguments,
      {"-Wl", "-rpath", "/x"}));
  EXPECT_TRUE(contains(
      translate({"nvcc", "-Xcompiler", "-DA=\"x y\"", "a.cu"}).Arguments,
      "-DA=x y"));
  EXPECT_TRUE(contains(
      translate({"nvcc", "-Xcompiler", "-DA=\"1,2\"", "a.cu"}).Arguments,
      "-DA=1,2"));
}

TEST(NvccHostOptions, UnknownFlagsAreHostFlagsAndKept) {
  TranslatedCommand T =
      translate({"nvcc", "-forward-unknown-to-host-compiler", "-Wall", "-fPIC",
                 "-march=native", "-pthread", "-c", "a.cu"});
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "-Wall", "-fPIC", "-march=native", "-pthread",
                  "-c", "a.cu", "--cuda-gpu-arch=sm_90"}));
  EXPECT_TRUE(noteMentions(T, "-forward-unknown-to-host-compiler"));
}

//===-- Kept options, in clang's spelling ---------------------------------===//

TEST(NvccKept, MacrosAndIncludes) {
  TranslatedCommand T = translate({"nvcc",
                                   "-DA",
                                   "-D",
                                   "B=2",
                                   "-D=C",
                                   "--define-macro",
                                   "E,F=1",
                                   "-UG",
                                   "-U",
                                   "H",
                                   "-I/inc",
                                   "-I",
                                   "/inc2",
                                   "-I=/inc3",
                                   "--include-path",
                                   "/inc4,/inc5",
                                   "-isystem",
                                   "/sys",
                                   "-isystem=/sys2",
                                   "--system-include",
                                   "/sys3",
                                   "-include",
                                   "pre.h",
                                   "--pre-include=a.h,b.h",
                                   "-c",
                                   "a.cu"});
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "-DA",      "-DB=2",   "-DC",
                  "-DE",     "-DF=1",    "-UG",     "-UH",
                  "-I/inc",  "-I/inc2",  "-I/inc3", "-I/inc4",
                  "-I/inc5", "-isystem", "/sys",    "-isystem",
                  "/sys2",   "-isystem", "/sys3",   "-include",
                  "pre.h",   "-include", "a.h",     "-include",
                  "b.h",     "-c",       "a.cu",    "--cuda-gpu-arch=sm_90"}));
}

TEST(NvccKept, MacroListQuoting) {
  // nvcc splits -D at commas outside quotes and keeps the quotes: -DA="1,2"
  // defines A as the string literal "1,2"; \, is a literal comma.
  EXPECT_TRUE(contains(translate({"nvcc", "-DA=\"1,2\"", "a.cu"}).Arguments,
                       "-DA=\"1,2\""));
  EXPECT_TRUE(
      contains(translate({"nvcc", "-DA=1\\,2", "a.cu"}).Arguments, "-DA=1,2"));
  EXPECT_TRUE(containsSequence(
      translate({"nvcc", "-DA=x,B=y", "a.cu"}).Arguments, {"-DA=x", "-DB=y"}));
  // Paths lose the quotes that protect their commas.
  EXPECT_TRUE(
      contains(translate({"nvcc", "-I\"a,b\"", "a.cu"}).Arguments, "-Ia,b"));
}

TEST(NvccKept, LanguageStandardOptimisationDebug) {
  TranslatedCommand T = translate(
      {"nvcc", "-std=c++17", "-O3", "-g", "-w", "-m64", "-c", "a.cu"});
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-std=c++17", "-O3", "-g", "-w",
                               "-m64", "-c", "a.cu", "--cuda-gpu-arch=sm_90"}));
  EXPECT_TRUE(contains(translate({"nvcc", "-std", "c++20", "a.cu"}).Arguments,
                       "-std=c++20"));
  EXPECT_TRUE(contains(translate({"nvcc", "--std=c++14", "a.cu"}).Arguments,
                       "-std=c++14"));
  EXPECT_TRUE(
      contains(translate({"nvcc", "-O", "2", "a.cu"}).Arguments, "-O2"));
  EXPECT_TRUE(
      contains(translate({"nvcc", "--optimize=1", "a.cu"}).Arguments, "-O1"));
  EXPECT_TRUE(contains(translate({"nvcc", "--machine", "64", "a.cu"}).Arguments,
                       "-m64"));
  EXPECT_TRUE(contains(translate({"nvcc", "--debug", "a.cu"}).Arguments, "-g"));
  EXPECT_TRUE(contains(translate({"nvcc", "-noeh", "a.cu"}).Arguments,
                       "-fno-exceptions"));
  EXPECT_TRUE(
      contains(translate({"nvcc", "-ftemplate-depth", "64", "a.cu"}).Arguments,
               "-ftemplate-depth=64"));
}

TEST(NvccKept, DependencyFlags) {
  TranslatedCommand T =
      translate({"nvcc", "-MD", "-MT", "a.o", "-MF=a.d", "-c", "a.cu"});
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-MD", "-MT", "a.o", "-MF", "a.d",
                               "-c", "a.cu", "--cuda-gpu-arch=sm_90"}));
}

//===-- Rewritten options -------------------------------------------------===//

TEST(NvccRewrite, DefaultStreamPerThread) {
  for (const Args &Flags : {Args{"--default-stream", "per-thread"},
                            Args{"--default-stream=per-thread"},
                            Args{"-default-stream", "per-thread"}}) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-c", "a.cu"});
    TranslatedCommand T = translate(Command);
    EXPECT_TRUE(contains(T.Arguments, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"))
        << Flags[0];
    EXPECT_FALSE(contains(T.Arguments, "per-thread"));
  }
  TranslatedCommand T = translate({"nvcc", "--default-stream", "per-thread",
                                   "--default-stream", "legacy", "a.cu"});
  EXPECT_FALSE(contains(T.Arguments, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"));
  EXPECT_FALSE(contains(T.Arguments, "legacy"));
}

TEST(NvccRewrite, FastMathIsDeviceOnly) {
  for (std::string Flag : {"-use_fast_math", "--use_fast_math"}) {
    TranslatedCommand T = translate({"nvcc", Flag, "-c", "a.cu"});
    EXPECT_EQ(T.Arguments, (Args{"clang++", "-fgpu-approx-transcendentals",
                                 "-c", "a.cu", "--cuda-gpu-arch=sm_90"}));
    EXPECT_TRUE(noteMentions(T, Flag));
  }
}

//===-- Dropped options ---------------------------------------------------===//

TEST(NvccDrop, EachDropTakesItsValueAndLeavesANote) {
  // Every line must vanish entirely: a value left behind would become an
  // input file (or an option argument) for clang.
  const std::vector<Args> Dropped = {
      {"-ccbin", "g++-12"},
      {"-ccbin=/usr/bin/g++"},
      {"--compiler-bindir", "/usr/bin/g++"},
      {"--compiler-bindir=/usr/bin/g++"},
      {"-maxrregcount", "32"},
      {"-maxrregcount=32"},
      {"--maxrregcount=64"},
      {"-Xptxas", "-v"},
      {"-Xptxas=-v,-O3"},
      {"--ptxas-options=-v"},
      {"-Xnvlink", "--suppress-stack-size-warning"},
      {"-Xcudafe", "--diag_suppress=177"},
      {"-Xcudafe=--display_error_number"},
      {"-Xfatbin", "-compress-all"},
      {"-Xarchive", "-x"},
      {"-Xlinker", "-rpath,/x"},
      {"--diag-suppress", "177"},
      {"--diag-suppress=177,550"},
      {"-diag-suppress=20012"},
      {"--diag_suppress=177"},
      {"-diag_suppress", "177"},
      {"--diag-warn", "177"},
      {"--diag-error=177"},
      {"--display-error-number"},
      {"-err-no"},
      {"--no-display-error-number"},
      {"-forward-unknown-to-host-compiler"},
      {"--forward-unknown-to-host-compiler"},
      {"--threads", "4"},
      {"--threads=0"},
      {"-t", "4"},
      {"-t4"},
      {"-G"},
      {"--device-debug"},
      {"-lineinfo"},
      {"--generate-line-info"},
      {"--keep"},
      {"-keep-dir", "/tmp/k"},
      {"-res-usage"},
      {"--resource-usage"},
      {"-Werror", "all-warnings"},
      {"-Werror=cross-execution-space-call,reorder"},
      {"--Werror", "all-warnings"},
      {"-dlink"},
      {"--cudart", "shared"},
      {"-cudart=static"},
      {"--source-in-ptx"},
      {"-src-in-ptx"},
      {"-Wno-deprecated-gpu-targets"},
      {"--expt-relaxed-constexpr"},
      {"-expt-relaxed-constexpr"},
      {"--extended-lambda"},
      {"--expt-extended-lambda"},
      {"-extended-lambda"},
      {"-ftz=true"},
      {"--prec-div=false"},
      {"-prec-sqrt", "false"},
      {"--fmad=false"},
      {"-lcublas"},
      {"-l", "cudart"},
      {"-L/usr/local/cuda/lib64"},
      {"-Wmissing-launch-bounds"},
      {"--allow-unsupported-compiler"},
      {"-split-compile", "0"},
      {"-lto"},
      {"-ptx"},
      {"-v"},
  };
  for (const Args &Flags : Dropped) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-c", "a.cu"});
    TranslatedCommand T = translate(Command);
    std::string Shown = Flags[0] + (Flags.size() > 1 ? " " + Flags[1] : "");
    EXPECT_EQ(T.Arguments,
              (Args{"clang++", "-c", "a.cu", "--cuda-gpu-arch=sm_90"}))
        << Shown;
    EXPECT_EQ(T.InputFiles, (Args{"a.cu"})) << Shown;
    EXPECT_TRUE(noteMentions(T, "dropped '" + Shown + "'")) << Shown;
    EXPECT_TRUE(T.Errors.empty()) << Shown;
  }
}

TEST(NvccDrop, TrapsDoNotEatTheSource) {
  // clang would read "-G a.cu" as -G with value a.cu, and "-t 4" as an
  // unknown flag plus an input "4".
  TranslatedCommand T = translate({"nvcc", "-G", "a.cu", "-t", "4", "-c"});
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "a.cu", "-c", "--cuda-gpu-arch=sm_90"}));
  // -lineinfo, -lib and -ldir are whole options, not -l with a value.
  T = translate({"nvcc", "-lineinfo", "-ldir", "/x", "a.cu"});
  EXPECT_EQ(T.Arguments, (Args{"clang++", "a.cu", "--cuda-gpu-arch=sm_90"}));
}

//===-- Options files -----------------------------------------------------===//

TEST(NvccOptionsFile, Tokenizer) {
  EXPECT_EQ(tokenizeNvccOptionsFile("-I/a  -I/b\n-DX=1\r\n"),
            (Args{"-I/a", "-I/b", "-DX=1"}));
  // Checked against nvcc: double quotes group, a backslash keeps the next
  // character, single quotes and '#' are ordinary.
  EXPECT_EQ(tokenizeNvccOptionsFile("-DA=\"x y\""), (Args{"-DA=x y"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("-DA=x\\ y"), (Args{"-DA=x y"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("-DA='x y'"), (Args{"-DA='x", "y'"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("-DA=1 # c"), (Args{"-DA=1", "#", "c"}));
  EXPECT_EQ(tokenizeNvccOptionsFile("\"/path with space/inc\""),
            (Args{"/path with space/inc"}));
  EXPECT_EQ(tokenizeNvccOptionsFile(""), Args{});
}

TEST(NvccOptionsFile, InlinedRelativeToTheDirectory) {
  TempDir Dir("optf");
  Dir.write("CMakeFiles/k.dir/includes_CUDA.rsp",
            "-I/src/inc \"-I/src/dir with space\" -Xcompiler=-Wall");
  for (const Args &Flags :
       {Args{"--options-file", "CMakeFiles/k.dir/includes_CUDA.rsp"},
        Args{"--options-file=CMakeFiles/k.dir/includes_CUDA.rsp"},
        Args{"-optf", "CMakeFiles/k.dir/includes_CUDA.rsp"}}) {
    Args Command = {"nvcc", "-DFOO=1"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-c", "a.cu"});
    TranslatedCommand T = translate(Command, plainOptions(), Dir.Path.string());
    EXPECT_TRUE(T.Errors.empty()) << Flags[0];
    EXPECT_EQ(T.Arguments,
              (Args{"clang++", "-DFOO=1", "-I/src/inc", "-I/src/dir with space",
                    "-Wall", "-c", "a.cu", "--cuda-gpu-arch=sm_90"}))
        << Flags[0];
  }
}

TEST(NvccOptionsFile, ListNestedAndAbsolute) {
  TempDir Dir("optf-nested");
  std::string Inner = Dir.write("inner.rsp", "-DINNER -rdc=true");
  Dir.write("outer.rsp", "-DOUTER --options-file " + Inner);
  Dir.write("second.rsp", "-gencode arch=compute_80,code=sm_80");
  TranslatedCommand T = translate(
      {"nvcc", "--options-file", "outer.rsp,second.rsp", "-c", "a.cu"},
      plainOptions(), Dir.Path.string());
  EXPECT_TRUE(T.Errors.empty());
  EXPECT_EQ(T.Arguments, (Args{"clang++", "-DOUTER", "-DINNER", "-c", "a.cu",
                               "--cuda-gpu-arch=sm_80", "-fgpu-rdc"}));
}

TEST(NvccOptionsFile, MissingFileIsAnErrorNamingIt) {
  TranslatedCommand T =
      translate({"nvcc", "--options-file", "CMakeFiles/x.dir/includes_CUDA.rsp",
                 "-c", "a.cu"},
                plainOptions(), "/no/such/build");
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(
      T.Errors[0].find("/no/such/build/CMakeFiles/x.dir/includes_CUDA.rsp"),
      std::string::npos)
      << T.Errors[0];
  // The rest of the command is still translated.
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "-c", "a.cu", "--cuda-gpu-arch=sm_90"}));
}

TEST(NvccOptionsFile, SelfInclusionIsAnError) {
  TempDir Dir("optf-loop");
  Dir.write("loop.rsp", "-DX --options-file loop.rsp");
  TranslatedCommand T = translate({"nvcc", "-optf", "loop.rsp", "a.cu"},
                                  plainOptions(), Dir.Path.string());
  ASSERT_EQ(T.Errors.size(), 1u);
  EXPECT_NE(T.Errors[0].find("includes itself"), std::string::npos);
}

//===-- The CUDA toolkit --------------------------------------------------===//

TEST(NvccToolkit, ExplicitCudaPathAndCccl) {
  TempDir Dir("toolkit");
  fs::create_directories(Dir.Path / "include" / "cccl");
  TranslationOptions Opts = plainOptions();
  Opts.CudaPath = Dir.Path.string();
  TranslatedCommand T = translate({"nvcc", "-c", "a.cu"}, Opts);
  EXPECT_EQ(T.Arguments,
            (Args{"clang++", "--cuda-path=" + Dir.Path.string(), "-c", "a.cu",
                  "--cuda-gpu-arch=sm_90", "-isystem",
                  (Dir.Path / "include" / "cccl").string()}));
  EXPECT_EQ(T.CudaPath, Dir.Path.string());

  Opts.AddCcclInclude = false;
  EXPECT_FALSE(
      contains(translate({"nvcc", "-c", "a.cu"}, Opts).Arguments, "-isystem"));
  // A toolkit without include/cccl (CUDA 12) gets none.
  Opts.AddCcclInclude = true;
  Opts.CudaPath = "/no/such/cuda";
  T = translate({"nvcc", "-c", "a.cu"}, Opts);
  EXPECT_TRUE(contains(T.Arguments, "--cuda-path=/no/such/cuda"));
  EXPECT_FALSE(contains(T.Arguments, "-isystem"));
}

TEST(NvccToolkit, InferredFromTheNvccPath) {
  TranslationOptions Opts; // InferCudaPathFromNvcc defaults to true.
  TranslatedCommand T =
      translate({"/opt/cuda-12.4/bin/nvcc", "-c", "a.cu"}, Opts);
  EXPECT_EQ(T.CudaPath, "/opt/cuda-12.4");
  EXPECT_EQ(T.Arguments[1], "--cuda-path=/opt/cuda-12.4");
  EXPECT_TRUE(noteMentions(T, "/opt/cuda-12.4"));
  // A bare "nvcc" names no toolkit; nothing is guessed.
  T = translate({"nvcc", "-c", "a.cu"}, Opts);
  EXPECT_TRUE(T.CudaPath.empty());
  EXPECT_EQ(countPrefix(T.Arguments, "--cuda-path"), 0u);
  // An explicit path wins; inference can be turned off.
  Opts.CudaPath = "/usr/local/cuda-13.0";
  EXPECT_EQ(translate({"/opt/cuda-12.4/bin/nvcc", "a.cu"}, Opts).CudaPath,
            "/usr/local/cuda-13.0");
  EXPECT_TRUE(translate({"/opt/cuda-12.4/bin/nvcc", "a.cu"}, plainOptions())
                  .CudaPath.empty());
}

//===-- A whole CMake line ------------------------------------------------===//

TEST(NvccTranslation, CMakeNinjaLine) {
  // Written by CMake 3.25 (Ninja) for a CUDA_SEPARABLE_COMPILATION library
  // with --extended-lambda and -Xcompiler=-Wall.
  TranslationOptions Opts = plainOptions();
  Opts.CudaPath = "/usr/local/cuda";
  Opts.AddCcclInclude = false;
  TranslatedCommand T = translate(
      {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler",
       "-DFOO=1", "-I/src/inc",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
       "--extended-lambda", "-Xcompiler=-Wall", "-x", "cu", "-rdc=true", "-c",
       "/src/a.cu", "-o", "CMakeFiles/kern.dir/a.cu.o"},
      Opts);
  EXPECT_TRUE(T.Errors.empty());
  EXPECT_EQ(T.Arguments, (Args{"clang++", "--cuda-path=/usr/local/cuda", "-x",
                               "cuda", "-DFOO=1", "-I/src/inc", "-Wall", "-c",
                               "/src/a.cu", "-o", "CMakeFiles/kern.dir/a.cu.o",
                               "--cuda-gpu-arch=sm_90", "-fgpu-rdc"}));
  EXPECT_EQ(T.HighestArch, "sm_90");
  EXPECT_TRUE(T.RelocatableDeviceCode);
  EXPECT_EQ(T.Notes.size(), 2u); // -forward-unknown..., --extended-lambda.
}

} // namespace
} // namespace clang::tidy::cuda::compdb
