//===--- NvccTranslateDriver.cpp - the translator as a command ------------===//
//
// For the end-to-end test: translates one nvcc command and prints the result
// as one JSON object.
//
//   nvcc_translate_driver [--directory DIR] [--cuda-path P] [--no-infer]
//                         [--default-arch A] [--clang C] -- nvcc ARGS...
//
// Exit status: 0 translated, 1 translated with errors, 2 usage, 3 the
// command is not an nvcc command (the JSON is still printed).
//
//===----------------------------------------------------------------------===//

#include "tool/compdb/NvccCommandLine.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using namespace clang::tidy::cuda::compdb;

static std::string quote(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  return Out + "\"";
}

static std::string list(const std::vector<std::string> &Items) {
  std::string Out = "[";
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? ", " : "") + quote(Items[I]);
  return Out + "]";
}

int main(int Argc, char **Argv) {
  TranslationOptions Opts;
  std::string Directory;
  int I = 1;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc) {
        std::cerr << "missing value for " << A << "\n";
        std::exit(2);
      }
      return Argv[++I];
    };
    if (A == "--")
      break;
    if (A == "--directory")
      Directory = Next();
    else if (A == "--cuda-path")
      Opts.CudaPath = Next();
    else if (A == "--no-infer")
      Opts.InferCudaPathFromNvcc = false;
    else if (A == "--default-arch")
      Opts.DefaultArch = Next();
    else if (A == "--clang")
      Opts.ClangDriver = Next();
    else {
      std::cerr << "unknown option " << A << "\n";
      return 2;
    }
  }
  if (I >= Argc - 1) {
    std::cerr << "usage: nvcc_translate_driver [options] -- nvcc ARGS...\n";
    return 2;
  }
  std::vector<std::string> Args(Argv + I + 1, Argv + Argc);
  bool IsNvcc = isNvccCommand(Args);
  TranslatedCommand T = translateNvccCommand(Args, Directory, Opts);
  std::cout << "{\n  \"is_nvcc\": " << (IsNvcc ? "true" : "false")
            << ",\n  \"is_cuda\": " << (T.IsCuda ? "true" : "false")
            << ",\n  \"rdc\": " << (T.RelocatableDeviceCode ? "true" : "false")
            << ",\n  \"arguments\": " << list(T.Arguments)
            << ",\n  \"gpu_archs\": " << list(T.GpuArchs)
            << ",\n  \"highest_arch\": " << quote(T.HighestArch)
            << ",\n  \"input_files\": " << list(T.InputFiles)
            << ",\n  \"cuda_path\": " << quote(T.CudaPath)
            << ",\n  \"notes\": " << list(T.Notes)
            << ",\n  \"errors\": " << list(T.Errors) << "\n}\n";
  if (!IsNvcc)
    return 3;
  return T.Errors.empty() ? 0 : 1;
}
