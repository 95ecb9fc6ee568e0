//===--- CudaToolkitTest.cpp - toolkit discovery and CUDA defaults --------===//

#include "tool/driver/config/CudaToolkit.h"
#include "tool/driver/config/CudaCompilationDatabase.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace clang::tidy::cuda::driver {
namespace {

/// A fake toolkit folder: include/cuda.h with the given CUDA_VERSION.
class FakeToolkit {
public:
  explicit FakeToolkit(int Version) {
    llvm::sys::fs::createUniqueDirectory("cuda-tidy-toolkit", Root);
    llvm::SmallString<256> Include(Root);
    llvm::sys::path::append(Include, "include");
    llvm::sys::fs::create_directories(Include);
    llvm::SmallString<256> Header(Include);
    llvm::sys::path::append(Header, "cuda.h");
    std::error_code EC;
    llvm::raw_fd_ostream OS(Header, EC);
    OS << "#pragma once\n#define CUDA_VERSION " << Version << "\n";
  }
  ~FakeToolkit() { llvm::sys::fs::remove_directories(Root); }
  std::string path() const { return Root.str().str(); }

private:
  llvm::SmallString<256> Root;
};

TEST(CudaToolkit, ParsesCudaVersionFromHeader) {
  auto V = parseCudaVersion("/* x */\n#define CUDA_VERSION 13000\n");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->first, 13);
  EXPECT_EQ(V->second, 0);
  V = parseCudaVersion("#define CUDA_VERSION 12060");
  ASSERT_TRUE(V);
  EXPECT_EQ(V->second, 6);
  EXPECT_FALSE(parseCudaVersion("#define CUDART_VERSION 13000"));
}

TEST(CudaToolkit, ExplicitPathWinsAndIsNotReplacedWhenWrong) {
  FakeToolkit Fake(12080);
  ToolkitSearch Search;
  Search.ExplicitPath = Fake.path();
  Search.EnvCudaPath = "/nonexistent";
  auto Found = findCudaToolkit(Search);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->MajorVersion, 12);
  EXPECT_EQ(Found->FoundBy, "--cuda-path");

  Search.ExplicitPath = "/nonexistent/cuda";
  Search.DefaultRoots = {Fake.path()};
  EXPECT_FALSE(findCudaToolkit(Search));
}

TEST(CudaToolkit, FallsBackFromEnvironmentToDefaultRoots) {
  FakeToolkit Fake(13000);
  ToolkitSearch Search;
  Search.EnvCudaPath = "/nonexistent";
  Search.PathEnv = "/nonexistent/bin";
  Search.DefaultRoots = {Fake.path()};
  auto Found = findCudaToolkit(Search);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->MajorVersion, 13);
  auto Flags = toolkitFlags(*Found);
  EXPECT_EQ(Flags.back(), Found->Path + "/include/cccl");
}

TEST(CudaToolkit, AddsDefaultsOnceAndKeepsUserFlags) {
  CudaToolkit Toolkit{"/opt/cuda", 13, 0, "test"};
  std::vector<std::string> Args = {"clang++", "-DX=1", "k.cu"};
  addCudaDefaults(Args, "k.cu", Toolkit, CudaPass::Device, "sm_90");
  std::vector<std::string> Expected = {
      "clang++", "--cuda-path=/opt/cuda", "-Wno-unknown-cuda-version",
      "-isystem", "/opt/cuda/include/cccl", "--cuda-gpu-arch=sm_90",
      "--cuda-device-only", "-DX=1", "k.cu"};
  EXPECT_EQ(Args, Expected);

  std::vector<std::string> User = {"clang++", "--cuda-gpu-arch=sm_80",
                                   "--cuda-host-only", "k.cu"};
  addCudaDefaults(User, "k.cu", Toolkit, CudaPass::Device, "sm_90");
  EXPECT_EQ(std::count(User.begin(), User.end(), "--cuda-device-only"), 0);
  EXPECT_EQ(std::count(User.begin(), User.end(), "--cuda-gpu-arch=sm_90"), 0);
}

/// The side each command of \p Commands compiles.
std::vector<std::string>
sidesOf(const std::vector<tooling::CompileCommand> &Commands) {
  std::vector<std::string> Sides;
  for (const tooling::CompileCommand &Command : Commands)
    for (const std::string &Arg : Command.CommandLine)
      if (Arg == "--cuda-device-only" || Arg == "--cuda-host-only")
        Sides.push_back(Arg);
  return Sides;
}

TEST(CudaCompilationDatabase, BothPassesSplitEachCudaCommandInTwo) {
  CommandSettings Settings;
  Settings.Toolkit = CudaToolkit{"/opt/cuda", 13, 0, "test"};
  Settings.Pass = CudaPass::Both;
  CudaCompilationDatabase Both(nullptr, Settings);
  std::vector<tooling::CompileCommand> Commands =
      Both.getCompileCommands("k.cu");
  ASSERT_EQ(Commands.size(), 2u);
  EXPECT_EQ(sidesOf(Commands),
            (std::vector<std::string>{"--cuda-device-only", "--cuda-host-only"}));
  // Apart from the side, the two commands are the same.
  std::vector<std::string> Device = Commands[0].CommandLine;
  std::vector<std::string> Host = Commands[1].CommandLine;
  llvm::replace(Device, std::string("--cuda-device-only"), std::string("SIDE"));
  llvm::replace(Host, std::string("--cuda-host-only"), std::string("SIDE"));
  EXPECT_EQ(Device, Host);

  // Not CUDA: one command, no side.
  EXPECT_EQ(Both.getCompileCommands("main.cpp").size(), 1u);

  // The user named a side: that one only.
  Settings.FallbackFlags = {"--cuda-host-only"};
  CudaCompilationDatabase Named(nullptr, Settings);
  EXPECT_EQ(sidesOf(Named.getCompileCommands("k.cu")),
            std::vector<std::string>{"--cuda-host-only"});

  // The default: the device side once.
  CommandSettings DeviceSettings;
  CudaCompilationDatabase Default(nullptr, DeviceSettings);
  EXPECT_EQ(sidesOf(Default.getCompileCommands("k.cu")),
            std::vector<std::string>{"--cuda-device-only"});
}

TEST(CudaCompilationDatabase, GpuArchListRunsTheDeviceSideOncePerArch) {
  CommandSettings Settings;
  Settings.Toolkit = CudaToolkit{"/opt/cuda", 13, 0, "test"};
  Settings.GpuArchs = {"sm_80", "sm_90"};
  Settings.GpuArchExplicit = true;
  auto ArchsOf = [](const std::vector<tooling::CompileCommand> &Commands) {
    std::vector<std::string> Archs;
    for (const tooling::CompileCommand &Command : Commands)
      for (const std::string &Arg : Command.CommandLine)
        if (llvm::StringRef(Arg).starts_with("--cuda-gpu-arch="))
          Archs.push_back(Arg);
    return Archs;
  };
  CudaCompilationDatabase Device(nullptr, Settings);
  std::vector<tooling::CompileCommand> Commands =
      Device.getCompileCommands("k.cu");
  EXPECT_EQ(ArchsOf(Commands), (std::vector<std::string>{
                                   "--cuda-gpu-arch=sm_80",
                                   "--cuda-gpu-arch=sm_90"}));
  EXPECT_EQ(sidesOf(Commands), (std::vector<std::string>{
                                   "--cuda-device-only", "--cuda-device-only"}));
  // Not CUDA: one command.
  EXPECT_EQ(Device.getCompileCommands("main.cpp").size(), 1u);

  // Both sides: each arch's device side, then the host side once.
  Settings.Pass = CudaPass::Both;
  CudaCompilationDatabase Both(nullptr, Settings);
  Commands = Both.getCompileCommands("k.cu");
  EXPECT_EQ(sidesOf(Commands),
            (std::vector<std::string>{"--cuda-device-only",
                                      "--cuda-device-only",
                                      "--cuda-host-only"}));
  EXPECT_EQ(ArchsOf(Commands), (std::vector<std::string>{
                                   "--cuda-gpu-arch=sm_80",
                                   "--cuda-gpu-arch=sm_90",
                                   "--cuda-gpu-arch=sm_80"}));

  // A command that names the host side only is not split by arch.
  Settings.Pass = CudaPass::Device;
  Settings.FallbackFlags = {"--cuda-host-only"};
  CudaCompilationDatabase Host(nullptr, Settings);
  EXPECT_EQ(Host.getCompileCommands("k.cu").size(), 1u);
}

TEST(CudaToolkit, ParsesGpuArchLists) {
  auto Parsed = parseGpuArchList("sm_80, sm_90a,sm_80,sm_120");
  ASSERT_TRUE(static_cast<bool>(Parsed));
  EXPECT_EQ(*Parsed,
            (std::vector<std::string>{"sm_80", "sm_90a", "sm_120"}));
  for (llvm::StringRef Bad : {"sm_80,sm_999", "gfx906", "", "sm_80,", "90"}) {
    auto Rejected = parseGpuArchList(Bad);
    ASSERT_FALSE(static_cast<bool>(Rejected)) << Bad.str();
    const std::string Message = llvm::toString(Rejected.takeError());
    EXPECT_NE(Message.find("--cuda-gpu-arch"), std::string::npos) << Message;
  }
  auto Named = parseGpuArchList("sm_80,sm_999");
  ASSERT_FALSE(static_cast<bool>(Named));
  EXPECT_NE(llvm::toString(Named.takeError()).find("'sm_999'"),
            std::string::npos);
}

TEST(CudaToolkit, LeavesNonCudaFilesAloneAndMarksHeaders) {
  std::vector<std::string> Cpp = {"clang++", "main.cpp"};
  addCudaDefaults(Cpp, "main.cpp", std::nullopt, CudaPass::Device, "sm_90");
  EXPECT_EQ(Cpp.size(), 2u);
  std::vector<std::string> Header = {"clang++", "util.cuh"};
  addCudaDefaults(Header, "util.cuh", std::nullopt, CudaPass::Device, "sm_90");
  ASSERT_GE(Header.size(), 3u);
  EXPECT_EQ(Header[1], "-x");
  EXPECT_EQ(Header[2], "cuda");
}

} // namespace
} // namespace clang::tidy::cuda::driver
