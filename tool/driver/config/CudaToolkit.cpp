//===--- CudaToolkit.cpp - finds the CUDA toolkit cuda-tidy parses with ---===//

#include "tool/driver/config/CudaToolkit.h"

#include "clang/Basic/OffloadArch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <algorithm>

namespace clang::tidy::cuda::driver {

ToolkitSearch toolkitSearchFromEnvironment(llvm::StringRef ExplicitPath) {
  ToolkitSearch Search;
  Search.ExplicitPath = ExplicitPath.str();
  Search.EnvCudaPath = llvm::sys::Process::GetEnv("CUDA_PATH").value_or("");
  Search.PathEnv = llvm::sys::Process::GetEnv("PATH").value_or("");
  return Search;
}

std::optional<std::pair<int, int>>
parseCudaVersion(llvm::StringRef CudaHeader) {
  // cuda.h: #define CUDA_VERSION 13000 (major * 1000 + minor * 10).
  size_t Pos = CudaHeader.find("#define CUDA_VERSION");
  if (Pos == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest =
      CudaHeader.substr(Pos + strlen("#define CUDA_VERSION")).ltrim();
  unsigned Value = 0;
  if (Rest.consumeInteger(10, Value) || Value == 0)
    return std::nullopt;
  return std::make_pair(static_cast<int>(Value / 1000),
                        static_cast<int>((Value % 1000) / 10));
}

/// Reads the version of the toolkit at \p Root; nullopt when \p Root holds
/// no include/cuda.h (then it is not a toolkit at all).
static std::optional<CudaToolkit> probeToolkit(llvm::StringRef Root,
                                               llvm::StringRef FoundBy) {
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "include", "cuda.h");
  auto Buffer = llvm::MemoryBuffer::getFile(Header);
  if (!Buffer)
    return std::nullopt;
  CudaToolkit Toolkit;
  llvm::SmallString<256> Real;
  Toolkit.Path = llvm::sys::fs::real_path(Root, Real) ? Root.str()
                                                      : Real.str().str();
  Toolkit.FoundBy = FoundBy.str();
  if (auto Version = parseCudaVersion((*Buffer)->getBuffer())) {
    Toolkit.MajorVersion = Version->first;
    Toolkit.MinorVersion = Version->second;
  }
  return Toolkit;
}

std::optional<CudaToolkit> findCudaToolkit(const ToolkitSearch &Search) {
  if (!Search.ExplicitPath.empty())
    return probeToolkit(Search.ExplicitPath, "--cuda-path");
  if (!Search.EnvCudaPath.empty())
    if (auto Toolkit = probeToolkit(Search.EnvCudaPath, "CUDA_PATH"))
      return Toolkit;
  llvm::SmallVector<llvm::StringRef, 16> Dirs;
  llvm::StringRef(Search.PathEnv).split(Dirs, ':', -1, false);
  for (llvm::StringRef Dir : Dirs) {
    llvm::SmallString<256> Nvcc(Dir);
    llvm::sys::path::append(Nvcc, "nvcc");
    if (!llvm::sys::fs::can_execute(Nvcc))
      continue;
    // nvcc lives in <root>/bin; follow a symlink such as /usr/bin/nvcc.
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Nvcc, Real))
      Real = Nvcc;
    llvm::StringRef Root =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(Real));
    if (auto Toolkit = probeToolkit(Root, "nvcc on PATH"))
      return Toolkit;
  }
  for (const std::string &Root : Search.DefaultRoots)
    if (auto Toolkit = probeToolkit(Root, Root))
      return Toolkit;
  return std::nullopt;
}

std::vector<std::string> toolkitFlags(const CudaToolkit &Toolkit) {
  std::vector<std::string> Flags = {"--cuda-path=" + Toolkit.Path,
                                    "-Wno-unknown-cuda-version"};
  // CUDA 13 moved Thrust, CUB and libcu++ under include/cccl. As a system
  // include folder, findings inside those headers stay quiet, like the rest
  // of the toolkit's headers.
  llvm::SmallString<256> Cccl(Toolkit.Path);
  llvm::sys::path::append(Cccl, "include", "cccl");
  if (Toolkit.MajorVersion >= 13 || llvm::sys::fs::is_directory(Cccl)) {
    Flags.emplace_back("-isystem");
    Flags.push_back(Cccl.str().str());
  }
  return Flags;
}

bool isCudaSourcePath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext.equals_insensitive(".cu") || Ext.equals_insensitive(".cuh");
}

static bool hasFlag(const std::vector<std::string> &Args,
                    llvm::StringRef Prefix) {
  return llvm::any_of(Args, [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(Prefix);
  });
}

bool isCudaCommand(const std::vector<std::string> &Args,
                   llvm::StringRef File) {
  for (size_t I = 0; I + 1 < Args.size(); ++I)
    if (Args[I] == "-x")
      return Args[I + 1] == "cuda";
  return llvm::any_of(Args, [](const std::string &A) { return A == "-xcuda"; }) ||
         isCudaSourcePath(File);
}

bool namesCudaPass(const std::vector<std::string> &Args) {
  return hasFlag(Args, "--cuda-device-only") ||
         hasFlag(Args, "--cuda-host-only") ||
         hasFlag(Args, "--offload-device-only") ||
         hasFlag(Args, "--offload-host-only");
}

bool namesHostPass(const std::vector<std::string> &Args) {
  return hasFlag(Args, "--cuda-host-only") ||
         hasFlag(Args, "--offload-host-only");
}

llvm::Expected<std::vector<std::string>>
parseGpuArchList(llvm::StringRef List) {
  std::vector<std::string> Archs;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  List.split(Parts, ',');
  for (llvm::StringRef Part : Parts) {
    llvm::StringRef Arch = Part.trim();
    if (Arch.empty())
      return llvm::createStringError(
          "--cuda-gpu-arch: empty architecture in '" + List.str() +
          "' (expected a comma-separated list such as sm_80,sm_90)");
    if (!IsNVIDIAOffloadArch(StringToOffloadArch(Arch)))
      return llvm::createStringError(
          "--cuda-gpu-arch: '" + Arch.str() +
          "' is not an NVIDIA GPU architecture clang " LLVM_VERSION_STRING
          " knows (such as sm_80, sm_90a, sm_120)");
    if (!llvm::is_contained(Archs, Arch))
      Archs.push_back(Arch.str());
  }
  return Archs;
}

void addCudaDefaults(std::vector<std::string> &Args, llvm::StringRef File,
                     const std::optional<CudaToolkit> &Toolkit, CudaPass Pass,
                     llvm::StringRef GpuArch) {
  if (Args.empty() || !isCudaCommand(Args, File))
    return;
  std::vector<std::string> Added;
  if (llvm::sys::path::extension(File).equals_insensitive(".cuh") &&
      !hasFlag(Args, "-x")) {
    Added.emplace_back("-x");
    Added.emplace_back("cuda");
  }
  if (Toolkit && !hasFlag(Args, "--cuda-path"))
    llvm::append_range(Added, toolkitFlags(*Toolkit));
  else if (!hasFlag(Args, "-Wno-unknown-cuda-version"))
    Added.emplace_back("-Wno-unknown-cuda-version");
  if (!hasFlag(Args, "--cuda-gpu-arch") && !hasFlag(Args, "--offload-arch"))
    Added.push_back(("--cuda-gpu-arch=" + GpuArch).str());
  if (!namesCudaPass(Args))
    Added.emplace_back(Pass == CudaPass::Host ? "--cuda-host-only"
                                              : "--cuda-device-only");
  // After the driver name, before everything else: the user's own flags,
  // which come later, win where both speak.
  Args.insert(Args.begin() + 1, Added.begin(), Added.end());
}

} // namespace clang::tidy::cuda::driver
