//===--- CheckTestHarness.cpp - run cuda-tidy checks on in-memory code ----===//

#include "tests/unit/CheckTestHarness.h"
#include "tool/driver/config/CudaToolkit.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace clang::tidy::cuda::test {
namespace {

class ChecksAction : public ASTFrontendAction {
public:
  explicit ChecksAction(ClangTidyASTConsumerFactory &Factory)
      : Factory(Factory) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler,
                                                 StringRef File) override {
    return Factory.createASTConsumer(Compiler, File);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
};

/// Line and column of a file offset, both 1-based.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef Code,
                                            unsigned Offset) {
  unsigned Line = 1, Column = 1;
  for (unsigned I = 0; I < Offset && I < Code.size(); ++I) {
    if (Code[I] == '\n') {
      ++Line;
      Column = 1;
    } else {
      ++Column;
    }
  }
  return {Line, Column};
}

const char *levelName(ClangTidyError::Level Level) {
  switch (Level) {
  case ClangTidyError::Error:
    return "error";
  case ClangTidyError::Warning:
    return "warning";
  default:
    return "remark";
  }
}

} // namespace

std::vector<std::string> cudaTestFlags() {
  std::vector<std::string> Flags = {"clang++"};
  if (auto Toolkit = driver::findCudaToolkit(
          driver::toolkitSearchFromEnvironment("")))
    for (std::string &Flag : driver::toolkitFlags(*Toolkit))
      Flags.push_back(std::move(Flag));
  for (const char *Flag :
       {"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
        "-fsyntax-only", "-std=c++17",
        "-resource-dir=" CUDA_TIDY_TEST_RESOURCE_DIR})
    Flags.emplace_back(Flag);
  return Flags;
}

std::string toString(const Finding &F) {
  return std::to_string(F.Line) + ":" + std::to_string(F.Column) + ": " +
         F.Level + ": " + F.Message + " [" + F.Check + "]";
}

CheckRun runChecks(llvm::StringRef Code, llvm::StringRef Checks,
                   llvm::StringRef ConfigYaml, llvm::StringRef FileName) {
  static bool TargetsReady = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
    return true;
  }();
  (void)TargetsReady;

  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  if (!ConfigYaml.empty()) {
    auto Parsed = parseConfiguration(
        llvm::MemoryBufferRef(ConfigYaml, "<test-config>"));
    if (Parsed)
      Options = Options.merge(*Parsed, 1);
  }
  Options.Checks = Checks.str();
  ClangTidyContext Context(std::make_unique<DefaultOptionsProvider>(
      ClangTidyGlobalOptions(), Options));
  ClangTidyDiagnosticConsumer DiagConsumer(Context);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine DiagEngine(DiagnosticIDs::create(), *DiagOpts,
                               &DiagConsumer, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &DiagEngine);

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  FS->pushOverlay(Memory);
  std::string Path = ("/cuda-tidy-test/" + FileName).str();
  Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  llvm::IntrusiveRefCntPtr<FileManager> Files(
      new FileManager(FileSystemOptions(), FS));

  ClangTidyASTConsumerFactory Factory(Context);
  std::vector<std::string> Args = cudaTestFlags();
  Args.push_back(Path);
  tooling::ToolInvocation Invocation(
      Args, std::make_unique<ChecksAction>(Factory), Files.get());
  Invocation.setDiagnosticConsumer(&DiagConsumer);
  Invocation.run();
  DiagConsumer.finish();

  CheckRun Run;
  tooling::Replacements AllFixes;
  for (const ClangTidyError &Error : DiagConsumer.take()) {
    if (Error.DiagLevel == ClangTidyError::Error)
      Run.ParsedCleanly = false;
    auto Add = [&](const tooling::DiagnosticMessage &Message,
                   const char *Level) {
      auto [Line, Column] = lineAndColumn(Code, Message.FileOffset);
      Run.Findings.push_back(
          {Line, Column, Level, Error.DiagnosticName, Message.Message});
    };
    Add(Error.Message, levelName(Error.DiagLevel));
    for (const tooling::DiagnosticMessage &Note : Error.Notes)
      Add(Note, "note");
    for (const auto &[File, Replacements] : Error.Message.Fix)
      for (const tooling::Replacement &R : Replacements)
        if (llvm::Error E = AllFixes.add(R))
          llvm::consumeError(std::move(E));
  }
  auto Fixed = tooling::applyAllReplacements(Code, AllFixes);
  Run.FixedCode = Fixed ? *Fixed : Code.str();
  if (!Fixed)
    llvm::consumeError(Fixed.takeError());
  return Run;
}

} // namespace clang::tidy::cuda::test
