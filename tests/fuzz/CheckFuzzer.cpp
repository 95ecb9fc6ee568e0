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
// An input whose first line is one of these markers goes instead to one of
// the readers of what a repository or a cache folder hands cuda-tidy (the
// rest of the input is the file's text), each with an oracle where one is
// cheap (tests/fuzz/make-corpus.sh writes seeds for each):
//   //@cuda-tidy.yaml   parseProjectConfig, after checkNestingDepth (YAML)
//   //@clang-tidy       validateClangTidyConfig (nesting, mapping sizes,
//                       cuda-* names, clang-tidy's parser); when valid, the
//                       result-cache key of a fixed compile with those
//                       options, twice: the same both times
//   //@baseline         parseBaseline; where the text is valid JSON, the
//                       fingerprints must be those llvm::json's tree holds
//   //@compile-db       checkNestingDepth (JSON), isValidJson (what it
//                       accepts llvm::json::parse must accept), clang's JSON
//                       database and cuda-tidy's nvcc translation of every
//                       command
//   //@diff             ChangedLines::fromUnifiedDiff
//   //@cache-result     decodeResult; what decodes re-encodes to a payload
//                       that decodes and encodes to the same bytes
//   //@cache-entry      the bytes as a result entry's file in a cache folder
//                       (under the key its header names), read by
//                       CacheStore::read (header, key, digest), then decoded
//
//===----------------------------------------------------------------------===//

#include "tool/driver/cache/CacheStore.h"
#include "tool/driver/config/ConfigValidation.h"
#include "tool/driver/config/CudaCompilationDatabase.h"
#include "tool/driver/report/Gates.h"
#include "tool/driver/config/ProjectConfig.h"
#include "tool/driver/cache/ResultCache.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
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

namespace ctd = clang::tidy::cuda::driver;

/// A broken oracle: report and stop, so libFuzzer saves the input.
[[noreturn]] void oracleFailed(const char *What) {
  std::fprintf(stderr, "cuda-tidy fuzz oracle failed: %s\n", What);
  std::abort();
}

ChecksAndOptions *Known = nullptr;
std::shared_ptr<CompilerInvocation> KeyInvocation;
std::string CacheFolder;
std::unique_ptr<ctd::CacheStore> Cache;

void fuzzClangTidyConfig(llvm::StringRef Text) {
  if (ctd::validateClangTidyConfig(Text, "/fuzz/.clang-tidy", Known->Checks,
                                      Known->Options, llvm::nulls()) != 0)
    return;
  llvm::ErrorOr<ClangTidyOptions> Parsed =
      parseConfiguration(llvm::MemoryBufferRef(Text, "/fuzz/.clang-tidy"));
  if (!Parsed || !KeyInvocation)
    return;
  ClangTidyOptions Options = ClangTidyOptions::getDefaults().merge(*Parsed, 0);
  const ClangTidyGlobalOptions Global;
  const ctd::Digest A = ctd::ResultCache::key(
      *KeyInvocation, "/fuzz/input.cu", "/fuzz", Options, Global, false);
  const ctd::Digest B = ctd::ResultCache::key(
      *KeyInvocation, "/fuzz/input.cu", "/fuzz", Options, Global, false);
  if (A != B)
    oracleFailed("the result-cache key of one compile differs between calls");
}

void fuzzBaseline(llvm::StringRef Text) {
  auto Read = ctd::parseBaseline(Text, "/fuzz/baseline.json");
  if (!Read) {
    llvm::consumeError(Read.takeError());
    if (ctd::isValidJson(Text) &&
        !ctd::checkNestingDepth(Text, "b", ctd::InputSyntax::Json)) {
      // Only a top value without a "findings" array may be refused.
      auto Tree = llvm::json::parse(Text);
      if (!Tree)
        oracleFailed("isValidJson accepted what llvm::json::parse refuses");
      const llvm::json::Object *Root = Tree->getAsObject();
      if (Root && Root->getArray("findings"))
        oracleFailed("a valid baseline with a findings array was refused");
    }
    return;
  }
  if (!ctd::isValidJson(Text))
    return; // read through llvm::json itself
  auto Tree = llvm::json::parse(Text);
  if (!Tree)
    oracleFailed("isValidJson accepted what llvm::json::parse refuses");
  llvm::StringSet<> Expected;
  const llvm::json::Object *Root = Tree->getAsObject();
  const llvm::json::Array *Items = Root ? Root->getArray("findings") : nullptr;
  if (!Items)
    oracleFailed("a baseline without a findings array was read");
  for (const llvm::json::Value &Item : *Items)
    if (const llvm::json::Object *O = Item.getAsObject())
      if (auto FP = O->getString("fingerprint"))
        Expected.insert(*FP);
  if (Expected.size() != Read->size())
    oracleFailed("the baseline scanner and llvm::json disagree (count)");
  for (const auto &FP : Expected)
    if (!Read->contains(FP.getKey()))
      oracleFailed("the baseline scanner and llvm::json disagree (value)");
}

void fuzzCompileDatabase(llvm::StringRef Text) {
  if (llvm::Error E =
          ctd::checkNestingDepth(Text, "db", ctd::InputSyntax::Json)) {
    llvm::consumeError(std::move(E));
    return;
  }
  if (ctd::isValidJson(Text)) {
    auto Tree = llvm::json::parse(Text);
    if (!Tree)
      oracleFailed("isValidJson accepted what llvm::json::parse refuses");
  }
  std::string Error;
  std::unique_ptr<tooling::JSONCompilationDatabase> Project =
      tooling::JSONCompilationDatabase::loadFromBuffer(
          Text, Error, tooling::JSONCommandLineSyntax::AutoDetect);
  if (!Project)
    return;
  ctd::CommandSettings Settings;
  Settings.ResourceDir = CUDA_TIDY_FUZZ_RESOURCE_DIR;
  ctd::CudaCompilationDatabase Commands(std::move(Project), Settings);
  size_t Arguments = 0;
  for (const tooling::CompileCommand &Command : Commands.getAllCompileCommands())
    Arguments += Command.CommandLine.size();
  (void)Arguments;
}

void fuzzCacheResult(llvm::StringRef Payload) {
  std::optional<ctd::StoredResult> Decoded = ctd::decodeResult(Payload);
  if (!Decoded)
    return;
  const std::string Once = ctd::encodeResult(*Decoded);
  std::optional<ctd::StoredResult> Again = ctd::decodeResult(Once);
  if (!Again)
    oracleFailed("an encoded result does not decode");
  if (ctd::encodeResult(*Again) != Once)
    oracleFailed("a result does not survive encode and decode");
}

void fuzzCacheEntry(llvm::StringRef Bytes) {
  if (!Cache)
    return;
  // The key the entry's header names (bytes 16 to 48), so that real
  // entries make seeds that get past the key check; a short input gets a
  // fixed key.
  ctd::Digest Key = ctd::digestOf("cuda-tidy fuzz entry");
  if (Bytes.size() >= 16 + Key.size())
    std::copy_n(Bytes.begin() + 16, Key.size(), Key.begin());
  llvm::SmallString<256> Path(CacheFolder);
  llvm::sys::path::append(
      Path, ctd::CacheStore::entryName(ctd::EntryKind::Result, Key));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return;
    OS << Bytes;
  }
  if (std::optional<ctd::CacheStore::Entry> Entry =
          Cache->read(ctd::EntryKind::Result, Key))
    fuzzCacheResult(Entry->Payload);
  (void)llvm::sys::fs::remove(Path);
}

/// Runs a marked input through its reader; false when the input is CUDA.
bool fuzzReader(llvm::StringRef Input) {
  if (!Input.starts_with("//@"))
    return false;
  auto [Marker, Text] = Input.split('\n');
  Marker = Marker.drop_front(3).rtrim('\r');
  if (Marker == "cuda-tidy.yaml") {
    if (llvm::Error E = ctd::checkNestingDepth(
            Text, "/fuzz/.cuda-tidy.yaml", ctd::InputSyntax::Yaml)) {
      llvm::consumeError(std::move(E));
      return true;
    }
    auto Config = ctd::parseProjectConfig(Text, "/fuzz/.cuda-tidy.yaml");
    if (Config) {
      (void)Config->checkOptions();
      (void)Config->isExcluded("/fuzz/src/third_party/a.cu");
    } else {
      llvm::consumeError(Config.takeError());
    }
  } else if (Marker == "clang-tidy") {
    fuzzClangTidyConfig(Text);
  } else if (Marker == "baseline") {
    fuzzBaseline(Text);
  } else if (Marker == "compile-db") {
    fuzzCompileDatabase(Text);
  } else if (Marker == "diff") {
    auto Lines = ctd::ChangedLines::fromUnifiedDiff(Text, "/fuzz");
    if (Lines)
      (void)Lines->contains("/fuzz/a.cu", 1);
    else
      llvm::consumeError(Lines.takeError());
  } else if (Marker == "cache-result") {
    fuzzCacheResult(Text);
  } else if (Marker == "cache-entry") {
    fuzzCacheEntry(Text);
  } else {
    return false; // an unknown marker is a comment: CUDA
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  PrintDiagnostics = std::getenv("CUDA_TIDY_FUZZ_PRINT") != nullptr;
  Known = new ChecksAndOptions(getAllChecksAndOptions(false, false));
  // One compile for the cache key (flags, no file is read).
  {
    std::vector<const char *> Args = {"-cc1", "-triple", "nvptx64-nvidia-cuda",
                                      "-fcuda-is-device", "-x", "cuda",
                                      "/fuzz/input.cu"};
    auto Invocation = std::make_shared<CompilerInvocation>();
    DiagnosticOptions Opts;
    DiagnosticsEngine Diags(DiagnosticIDs::create(), Opts,
                            new IgnoringDiagConsumer());
    if (CompilerInvocation::CreateFromArgs(*Invocation, Args, Diags))
      KeyInvocation = std::move(Invocation);
  }
  // A cache folder of its own, for the entry reader, removed at exit
  // (libFuzzer ends with exit(); a crash leaves it in the temporary folder).
  llvm::SmallString<128> Folder;
  if (!llvm::sys::fs::createUniqueDirectory("cuda-tidy-fuzz-cache", Folder)) {
    CacheFolder = std::string(Folder);
    std::atexit([] {
      Cache.reset();
      (void)llvm::sys::fs::remove_directories(CacheFolder);
    });
    auto Store = ctd::CacheStore::open(CacheFolder);
    if (Store)
      Cache = std::move(*Store);
    else
      llvm::consumeError(Store.takeError());
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (fuzzReader(llvm::StringRef(reinterpret_cast<const char *>(Data), Size)))
    return 0;
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
