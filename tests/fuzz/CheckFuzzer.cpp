//===--- CheckFuzzer.cpp - libFuzzer target for every cuda-tidy check -----===//
//
// Feeds each input, as the body of a CUDA translation unit after the
// stand-in headers, through every registered cuda-* check in-process, the
// way the front-ends run them. Crashes, sanitizer reports and hangs are the
// findings. See docs/reliability.md for how to run it.
//
// With CUDA_TIDY_FUZZ_PRINT set in the environment, every diagnostic (the
// checks' and the compiler's) is printed to stderr, which shows that an input
// really reaches the checks: a fuzzer whose inputs never parse proves nothing.
//
//===----------------------------------------------------------------------===//

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace clang;
using namespace clang::tidy;

namespace {

class ChecksAction : public ASTFrontendAction {
public:
  explicit ChecksAction(ClangTidyASTConsumerFactory &Factory)
      : Factory(Factory) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    return Factory.createASTConsumer(CI, File);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
};

bool PrintDiagnostics = false;

void printDiagnostics(const std::vector<ClangTidyError> &Errors) {
  for (const ClangTidyError &Error : Errors)
    llvm::errs() << Error.Message.FilePath << ":" << Error.Message.FileOffset
                 << ": [" << Error.DiagnosticName << "] "
                 << Error.Message.Message << "\n";
  llvm::errs() << Errors.size() << " diagnostics\n";
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  PrintDiagnostics = std::getenv("CUDA_TIDY_FUZZ_PRINT") != nullptr;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Source = "#include \"cuda_stub.h\"\nnamespace cg = cooperative_groups;\n";
  Source.append(reinterpret_cast<const char *>(Data), Size);

  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.Checks = "-*,cuda-*";
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  ClangTidyDiagnosticConsumer Consumer(Context);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIDs::create(), *DiagOpts, &Consumer,
                           /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  FS->pushOverlay(Memory);
  Memory->addFile("/fuzz/input.cu", 0,
                  llvm::MemoryBuffer::getMemBufferCopy(Source));
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(), FS));

  ClangTidyASTConsumerFactory Factory(Context);
  std::vector<std::string> Args = {
      "clang++", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
      "-nocudainc", "-nocudalib", "-fsyntax-only", "-ferror-limit=20",
      // No caret snippets and no "N warnings generated" line per input.
      "-fno-caret-diagnostics",
      "-Wno-unknown-cuda-version", "-I" CUDA_TIDY_FUZZ_STUB_DIR,
      "-resource-dir=" CUDA_TIDY_FUZZ_RESOURCE_DIR, "/fuzz/input.cu"};
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<ChecksAction>(Factory), Files.get());
  Invocation.setDiagnosticConsumer(&Consumer);
  Invocation.run();
  Consumer.finish();
  std::vector<ClangTidyError> Errors = Consumer.take();
  if (PrintDiagnostics)
    printDiagnostics(Errors);
  return 0;
}
