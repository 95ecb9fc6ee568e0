//===--- ProjectIndexTest.cpp - cuda-grid-sync-launch across files --------===//

#include "tool/driver/index/ProjectIndex.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace clang::tidy::cuda::driver {
namespace {

using analysis::IndexedKernel;
using analysis::IndexedLaunch;
using analysis::IndexLocation;
using analysis::TranslationUnitRecord;

/// A scratch folder, removed at the end of the test.
struct ScratchDir {
  llvm::SmallString<128> Path;
  ScratchDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("gsl-test", Path));
    analysis::trustIndexFolder(Path);
  }
  ~ScratchDir() {
    analysis::forgetIndexFolder(Path);
    (void)llvm::sys::fs::remove_directories(Path);
  }
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    llvm::SmallString<128> File(Path);
    llvm::sys::path::append(File, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(File, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(File);
  }
};

TranslationUnitRecord kernelUnit(const std::string &Main,
                                 std::string Mangled) {
  TranslationUnitRecord R;
  R.MainFile = Main;
  IndexedKernel K;
  K.MangledName = std::move(Mangled);
  K.SyncSpelling = "grid_group::sync()";
  K.Chain.push_back(
      {{Main, 40, 2, 30}, "'k' synchronizes the whole grid here"});
  R.Kernels.push_back(K);
  return R;
}

TranslationUnitRecord launchUnit(const std::string &Main, std::string Mangled,
                                 unsigned Offset, unsigned Line) {
  TranslationUnitRecord R;
  R.MainFile = Main;
  IndexedLaunch L;
  L.MangledName = std::move(Mangled);
  L.KernelName = "k";
  L.Form = "<<<...>>>";
  L.Where = {Main, Offset, Line, 3};
  R.Launches.push_back(L);
  return R;
}

TEST(ProjectIndex, JoinsLaunchesToKernelsByMangledName) {
  std::vector<TranslationUnitRecord> Records = {
      kernelUnit("/p/a.cu", "_Z1kPi"), launchUnit("/p/b.cu", "_Z1kPi", 10, 2),
      launchUnit("/p/c.cu", "_Z1kPf", 10, 2), // another overload: no sync
  };
  std::vector<CrossFileFinding> Findings = joinLaunchRecords(Records);
  ASSERT_EQ(Findings.size(), 1u);
  EXPECT_EQ(Findings[0].MainFile, "/p/b.cu");
  EXPECT_EQ(Findings[0].Where.File, "/p/b.cu");
  EXPECT_EQ(Findings[0].Where.Offset, 10u);
  EXPECT_EQ(Findings[0].Message, analysis::needsCooperativeLaunchMessage(
                                     "k", "grid_group::sync()", "<<<...>>>"));
  ASSERT_EQ(Findings[0].Notes.size(), 1u);
  EXPECT_EQ(Findings[0].Notes[0].Where.File, "/p/a.cu");
}

TEST(ProjectIndex, NoKernelRecordNoFinding) {
  std::vector<TranslationUnitRecord> Records = {
      launchUnit("/p/b.cu", "_Z1kPi", 10, 2)};
  EXPECT_TRUE(joinLaunchRecords(Records).empty());
}

TEST(ProjectIndex, RecordsRoundTripThroughTheFolder) {
  ScratchDir Dir;
  ASSERT_FALSE(static_cast<bool>(
      analysis::writeRecord(Dir.Path, launchUnit("/p/z.cu", "_Z1kPi", 7, 1))));
  ASSERT_FALSE(static_cast<bool>(
      analysis::writeRecord(Dir.Path, kernelUnit("/p/a.cu", "_Z1kPi"))));
  // A record still being written is not read.
  Dir.write("tu-unfinished.json.tmp", "{");
  auto Records = analysis::readRecords(Dir.Path);
  ASSERT_TRUE(static_cast<bool>(Records))
      << llvm::toString(Records.takeError());
  ASSERT_EQ(Records->size(), 2u);
  EXPECT_EQ((*Records)[0].MainFile, "/p/a.cu"); // ordered by main file
  ASSERT_EQ((*Records)[0].Kernels.size(), 1u);
  EXPECT_EQ((*Records)[0].Kernels[0].Chain[0].Where.Column, 30u);
  EXPECT_EQ((*Records)[1].MainFile, "/p/z.cu");
  ASSERT_EQ((*Records)[1].Launches.size(), 1u);
  EXPECT_EQ((*Records)[1].Launches[0].Where.Offset, 7u);
}

TEST(ProjectIndex, AnUntrustedFolderIsNeitherReadNorWritten) {
  // A folder no run made and no CUDA_TIDY_INDEX_DIR names (issue 16 F22).
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gsl-foreign", Path));
  {
    ScratchDir Trusted; // a trusted folder elsewhere changes nothing
    EXPECT_FALSE(analysis::isTrustedIndexFolder(Path));
  }
  llvm::SmallString<128> Existing(Path);
  llvm::sys::path::append(Existing, "tu-planted.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Existing, EC);
    ASSERT_FALSE(EC);
    OS << "{\"version\": 1, \"main\": \"/p/x.cu\", \"kernels\": [], "
          "\"launches\": []}";
  }
  llvm::Error Written =
      analysis::writeRecord(Path, kernelUnit("/p/a.cu", "_Z1kPi"));
  ASSERT_TRUE(static_cast<bool>(Written));
  EXPECT_NE(llvm::toString(std::move(Written)).find("not read or written"),
            std::string::npos);
  auto Records = analysis::readRecords(Path);
  ASSERT_FALSE(static_cast<bool>(Records));
  llvm::consumeError(Records.takeError());
  std::error_code EC;
  unsigned Entries = 0;
  for (llvm::sys::fs::directory_iterator It(Path, EC), End; !EC && It != End;
       It.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1u); // only the planted record
  (void)llvm::sys::fs::remove_directories(Path);
}

TEST(ProjectIndex, ABrokenRecordIsAnError) {
  ScratchDir Dir;
  Dir.write("tu-broken.json", R"({"version": 1, "main": 3})");
  auto Records = analysis::readRecords(Dir.Path);
  ASSERT_FALSE(static_cast<bool>(Records));
  llvm::consumeError(Records.takeError());
}

std::unique_ptr<ClangTidyOptionsProvider>
optionsWith(llvm::StringRef WarningsAsErrors) {
  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.Checks = "-*,cuda-grid-sync-launch";
  Options.WarningsAsErrors = WarningsAsErrors.str();
  return std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(),
                                                  Options);
}

/// A record with every field, names that need escapes, and a note.
TranslationUnitRecord fullRecord() {
  TranslationUnitRecord R = kernelUnit("/p/a \"q\"\\\xc3\xa9.cu", "_Z1kPi");
  TranslationUnitRecord L = launchUnit(R.MainFile, "_Z1kPf", 12, 3);
  L.Launches[0].Notes.push_back({{"/p/h.cuh", 4, 1, 5}, "line\nbreak\x1b"});
  R.Launches = L.Launches;
  R.Kernels.push_back(R.Kernels[0]);
  R.Kernels[1].MangledName = "_Z2k2Pi"; // a name is recorded once
  R.Kernels[1].Chain.clear();
  return R;
}

// Issue 38 G10: records are written and read without llvm::json's tree
// (a 119 MB record held 8 GB); the text and the records are those of
// toJSON and fromJSON.
TEST(ProjectIndex, RecordTextIsWrittenAsTheTreeWritesIt) {
  TranslationUnitRecord R = fullRecord();
  std::string Tree;
  llvm::raw_string_ostream(Tree) << llvm::json::Value(analysis::toJSON(R));
  std::string Streamed;
  {
    llvm::raw_string_ostream OS(Streamed);
    llvm::json::OStream JOS(OS);
    analysis::writeJSON(JOS, R);
  }
  EXPECT_EQ(Streamed, Tree);
}

/// What fromJSON on llvm::json's tree and fromJSONText on the text say of
/// \p Text: the record as toJSON writes it, or the error.
std::pair<std::string, std::string> readBothWays(llvm::StringRef Text) {
  auto Describe = [](bool Ok, const TranslationUnitRecord &R,
                     llvm::json::Path::Root &Root) {
    if (!Ok)
      return "error: " + llvm::toString(Root.getError());
    std::string S;
    llvm::raw_string_ostream(S) << llvm::json::Value(analysis::toJSON(R));
    return S;
  };
  std::pair<std::string, std::string> Out;
  {
    llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
    EXPECT_TRUE(static_cast<bool>(Parsed)) << Text.str();
    if (!Parsed) {
      llvm::consumeError(Parsed.takeError());
      return Out;
    }
    TranslationUnitRecord R;
    llvm::json::Path::Root Root;
    bool Ok = analysis::fromJSON(*Parsed, R, Root);
    Out.first = Describe(Ok, R, Root);
  }
  EXPECT_TRUE(analysis::isStrictJson(Text)) << Text.str();
  TranslationUnitRecord R;
  llvm::json::Path::Root Root;
  bool Ok = analysis::fromJSONText(Text, R, Root);
  Out.second = Describe(Ok, R, Root);
  return Out;
}

TEST(ProjectIndex, RecordTextIsReadAsTheTreeReadsIt) {
  std::string Good;
  llvm::raw_string_ostream(Good)
      << llvm::json::Value(analysis::toJSON(fullRecord()));
  std::vector<std::string> Texts = {
      Good,
      // Whitespace, escapes in keys and strings, unknown keys of any kind.
      R"(  {"v\u0065rsion": 1, "main": "/p/\u00e9\n.cu", "x": {"y": [1, {"z": null}]}, "kernels": [ ], "launches": [] }  )",
      // Duplicate keys: the last one counts, an error in an earlier one too.
      R"({"version": 2, "version": 1, "main": 7, "main": "/m.cu", "kernels": [{"mangled": "a"}], "kernels": [], "launches": []})",
      // Errors, each at its path: missing keys, wrong types, bad nesting.
      "[]",
      "{}",
      R"({"version": "1"})",
      R"({"version": 1.5})",
      R"({"version": 2, "main": "m"})",
      R"({"version": 1, "main": [], "kernels": [], "launches": []})",
      R"({"version": 1, "main": "m", "kernels": {}, "launches": []})",
      R"({"version": 1, "main": "m", "kernels": [{"mangled": "k", "sync": "s", "chain": [{"at": {"file": "f", "offset": -1, "line": 1, "column": 1}, "message": "m"}]}], "launches": []})",
      R"({"version": 1, "main": "m", "kernels": [], "launches": [{"mangled": "k", "kernel": "k", "form": "f", "at": {"file": "f", "offset": 1, "line": 1, "column": 2.0}, "notes": [{"at": 3, "message": "m"}]}]})",
      R"({"version": 1, "main": "m", "kernels": [{"mangled": "k", "sync": {"a": 1}, "chain": []}], "launches": []})",
  };
  for (const std::string &Text : Texts) {
    auto [Tree, InPlace] = readBothWays(Text);
    EXPECT_EQ(InPlace, Tree) << Text;
  }
  EXPECT_EQ(readBothWays(Good).second, Good);
}

TEST(ProjectIndex, RepeatedKernelsOfARecordAreReadOnce) {
  // The join uses a name's first entry (issue 38 G10): the others are not
  // kept, whichever reader reads the record.
  const char *Text =
      R"({"version": 1, "main": "/m.cu", "kernels": [)"
      R"({"mangled": "k", "sync": "first", "chain": []},)"
      R"({"mangled": "j", "sync": "other", "chain": []},)"
      R"({"mangled": "k", "sync": "second", "chain": []},)"
      R"({"mangled": "k", "sync": "third", "chain": []}], "launches": []})";
  auto [Tree, InPlace] = readBothWays(Text);
  EXPECT_EQ(InPlace, Tree);
  llvm::Expected<TranslationUnitRecord> R = analysis::parseRecord(Text);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Kernels.size(), 2u);
  EXPECT_EQ(R->Kernels[0].MangledName, "k");
  EXPECT_EQ(R->Kernels[0].SyncSpelling, "first");
  EXPECT_EQ(R->Kernels[1].MangledName, "j");
}

TEST(ProjectIndex, OnlyStrictJsonIsReadInPlace) {
  for (llvm::StringRef Bad :
       {"", "{", R"({"a": 1,})", "[1 2]", "01", "+1", "1.", R"("\x")",
        "\"a\xff\"", "\"\x01\"", R"({"a" 1})", "nul", "[] []"})
    EXPECT_FALSE(analysis::isStrictJson(Bad)) << Bad.str();
  size_t Offset = 0;
  EXPECT_FALSE(analysis::isStrictJson(R"({"a": [1,
 2,, 3]})", &Offset));
  EXPECT_EQ(Offset, 13u);
  std::string Deep(300, '[');
  Deep += std::string(300, ']');
  EXPECT_FALSE(analysis::isStrictJson(Deep));
  EXPECT_TRUE(analysis::isStrictJson(
      R"( [1, -0.5e+3, true, false, null, "\ud83d\ude00\/", {}] )"));
  llvm::Expected<TranslationUnitRecord> Bad =
      analysis::parseRecord(R"({"version": 1,
  "main" "m"})");
  ASSERT_FALSE(static_cast<bool>(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "not JSON (invalid at line 2, column 10)");
}

TEST(ProjectIndex, FindingsAreClangTidyErrorsThatHonourNolint) {
  ScratchDir Dir;
  std::string A = Dir.write("a.cu", "// kernel\n__global__ void k(int *p);\n");
  const char *BText = "void host(int *p) {\n"
                      "  k<<<1, 1>>>(p);\n"
                      "  k<<<1, 1>>>(p); // NOLINT(cuda-grid-sync-launch)\n"
                      "}\n";
  std::string B = Dir.write("b.cu", BText);
  llvm::StringRef Text(BText);
  const unsigned First = Text.find("k<<<");
  const unsigned Second = Text.find("k<<<", First + 1);

  std::vector<CrossFileFinding> Findings(2);
  for (unsigned I = 0; I < 2; ++I) {
    Findings[I].MainFile = B;
    Findings[I].Where = {B, I == 0 ? First : Second, I + 2, 3};
    Findings[I].Message = "launch " + std::to_string(I);
    Findings[I].Notes.push_back({{A, 10, 2, 1}, "the kernel"});
  }
  ClangTidyStats Stats;
  std::vector<ClangTidyError> Errors = toClangTidyErrors(
      Findings, optionsWith("cuda-*"), llvm::vfs::getRealFileSystem(), Stats);
  ASSERT_EQ(Errors.size(), 1u);
  const ClangTidyError &E = Errors[0];
  EXPECT_EQ(E.DiagnosticName, "cuda-grid-sync-launch");
  EXPECT_EQ(E.DiagLevel, ClangTidyError::Warning);
  EXPECT_TRUE(E.IsWarningAsError);
  EXPECT_EQ(E.Message.Message, "launch 0");
  EXPECT_EQ(E.Message.FilePath, B);
  EXPECT_EQ(E.Message.FileOffset, First);
  ASSERT_EQ(E.Notes.size(), 1u);
  EXPECT_EQ(E.Notes[0].FilePath, A);
  EXPECT_EQ(E.Notes[0].FileOffset, 10u);
  EXPECT_EQ(Stats.ErrorsIgnoredNOLINT, 1u);
}

TEST(ProjectIndex, AFileThatChangedSinceTheRunIsSkipped) {
  ScratchDir Dir;
  std::string B = Dir.write("b.cu", "short\n");
  CrossFileFinding F;
  F.MainFile = B;
  F.Where = {B, 1000, 40, 3};
  F.Message = "stale";
  ClangTidyStats Stats;
  EXPECT_TRUE(toClangTidyErrors({F}, optionsWith(""),
                                llvm::vfs::getRealFileSystem(), Stats)
                  .empty());
}

TEST(ProjectIndex, TheIndexFolderReachesTheCheckAsAnOption) {
  std::string Dir;
  {
    ProjectIndex Index;
    ASSERT_TRUE(Index.enabled()) << Index.error().str();
    Dir = Index.directory().str();
    std::unique_ptr<ClangTidyOptionsProvider> Provider =
        Index.withIndexOption(optionsWith(""));
    ClangTidyOptions Options = Provider->getOptions("/any/file.cu");
    auto It =
        Options.CheckOptions.find("cuda-grid-sync-launch.ProjectIndexDir");
    ASSERT_NE(It, Options.CheckOptions.end());
    EXPECT_EQ(It->second.Value, Dir);
    // Nothing recorded, no folder; the first record makes it.
    EXPECT_FALSE(llvm::sys::fs::exists(Dir));
    ClangTidyStats Stats;
    EXPECT_TRUE(Index.report(optionsWith(""), Stats).empty());
    ASSERT_FALSE(static_cast<bool>(
        analysis::writeRecord(Dir, kernelUnit("/p/a.cu", "_Z1kPi"))));
    EXPECT_TRUE(llvm::sys::fs::is_directory(Dir));
  }
  EXPECT_FALSE(llvm::sys::fs::exists(Dir)); // removed with the index
}

// --index-dir and --join-index: the records of several runs in a folder the
// user names.

TEST(IndexFolder, OneFileNamePerSourceFile) {
  EXPECT_EQ(indexFileName("/p/a.cu"), indexFileName("/p/a.cu"));
  EXPECT_NE(indexFileName("/p/a.cu"), indexFileName("/q/a.cu"));
  EXPECT_EQ(llvm::StringRef(indexFileName("/p/a.cu")).substr(0, 5), "a.cu.");
  // Never a dot-file (not read), never a separator or a control character.
  EXPECT_EQ(indexFileName("/p/.hidden.cu")[0], '_');
  EXPECT_EQ(indexFileName("/p/a b\x1b.cu").find_first_of(" \x1b/"),
            std::string::npos);
}

TEST(IndexFolder, PreparedFolderIsPrivate) {
  ScratchDir Dir;
  llvm::SmallString<128> Made(Dir.Path);
  llvm::sys::path::append(Made, "deeper", "index");
  llvm::Expected<std::string> Prepared = prepareIndexFolder(Made);
  ASSERT_TRUE(static_cast<bool>(Prepared))
      << llvm::toString(Prepared.takeError());
  EXPECT_EQ(*Prepared, Made.str());
  llvm::sys::fs::file_status Status;
  ASSERT_FALSE(llvm::sys::fs::status(Made, Status));
  EXPECT_EQ(Status.permissions(), llvm::sys::fs::owner_all);
  // A folder other users may write to could hold planted records.
  ASSERT_FALSE(llvm::sys::fs::setPermissions(Made, llvm::sys::fs::all_all));
  llvm::Expected<std::string> Shared = prepareIndexFolder(Made);
  ASSERT_FALSE(static_cast<bool>(Shared));
  EXPECT_NE(llvm::toString(Shared.takeError()).find("writable by other users"),
            std::string::npos);
  // A file is not a folder.
  std::string File = Dir.write("file", "x");
  llvm::Expected<std::string> NotAFolder = prepareIndexFolder(File);
  ASSERT_FALSE(static_cast<bool>(NotAFolder));
  llvm::consumeError(NotAFolder.takeError());
}

TEST(IndexFolder, RecordsOfSeveralRunsJoinAsOneRunsRecords) {
  ScratchDir Dir;
  std::string A = Dir.write("a.cu", "kernel\n");
  std::string B = Dir.write("b.cu", "launch\n");
  std::string C = Dir.write("c.cu", "neither\n");
  llvm::SmallString<128> First(Dir.Path);
  llvm::sys::path::append(First, "first");
  llvm::SmallString<128> Second(Dir.Path);
  llvm::sys::path::append(Second, "second");
  ASSERT_TRUE(static_cast<bool>(prepareIndexFolder(First)));
  ASSERT_TRUE(static_cast<bool>(prepareIndexFolder(Second)));
  // Two "shards": a.cu (two commands recorded it) and c.cu (nothing
  // recorded: an empty record), then b.cu.
  ASSERT_FALSE(static_cast<bool>(writeIndexFolder(
      First, {kernelUnit(A, "_Z1kPi"), kernelUnit(A, "_Z1kPi")}, {A, C},
      "1.0")));
  ASSERT_FALSE(static_cast<bool>(writeIndexFolder(
      Second, {launchUnit(B, "_Z1kPi", 0, 1)}, {B}, "1.0")));
  auto Read = readIndexFolders({First.str().str(), Second.str().str()}, "1.0");
  ASSERT_TRUE(static_cast<bool>(Read)) << llvm::toString(Read.takeError());
  EXPECT_TRUE(Read->Skipped.empty());
  EXPECT_EQ(Read->MainFiles, (std::vector<std::string>{A, B, C}));
  ASSERT_EQ(Read->Records.size(), 3u);
  EXPECT_EQ(Read->Records[0].MainFile, A);
  EXPECT_EQ(Read->Records[2].MainFile, B);
  EXPECT_EQ(joinLaunchRecords(Read->Records).size(), 1u);

  // b.cu run again, now without its launch: its record is replaced.
  ASSERT_FALSE(static_cast<bool>(writeIndexFolder(Second, {}, {B}, "1.0")));
  std::error_code EC;
  unsigned Files = 0;
  for (llvm::sys::fs::directory_iterator It(Second, EC), End; !EC && It != End;
       It.increment(EC))
    ++Files;
  EXPECT_EQ(Files, 1u);
  Read = readIndexFolders({First.str().str(), Second.str().str()}, "1.0");
  ASSERT_TRUE(static_cast<bool>(Read));
  EXPECT_TRUE(joinLaunchRecords(Read->Records).empty());

  // The same file in two folders: the one named later wins.
  ASSERT_FALSE(static_cast<bool>(writeIndexFolder(
      First, {launchUnit(B, "_Z1kPi", 0, 1)}, {B}, "1.0")));
  Read = readIndexFolders({Second.str().str(), First.str().str()}, "1.0");
  ASSERT_TRUE(static_cast<bool>(Read));
  EXPECT_EQ(joinLaunchRecords(Read->Records).size(), 1u);
  Read = readIndexFolders({First.str().str(), Second.str().str()}, "1.0");
  ASSERT_TRUE(static_cast<bool>(Read));
  EXPECT_TRUE(joinLaunchRecords(Read->Records).empty());
}

TEST(IndexFolder, WhatCannotBeJoinedIsNamedAndSkipped) {
  ScratchDir Dir;
  std::string A = Dir.write("a.cu", "kernel\n");
  llvm::SmallString<128> Index(Dir.Path);
  llvm::sys::path::append(Index, "index");
  ASSERT_TRUE(static_cast<bool>(prepareIndexFolder(Index)));
  ASSERT_FALSE(static_cast<bool>(
      writeIndexFolder(Index, {kernelUnit(A, "_Z1kPi")}, {A}, "1.0")));
  auto Write = [&](llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> Path(Index);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  };
  Write("broken.json", R"({"format": )");
  Write("foreign.json", R"({"version": 1, "main": "/p/x.cu"})");
  Write(".being-written.tmp", "{");
  std::string Gone = Dir.Path.str().str() + "/gone.cu";
  Write(indexFileName(Gone),
        R"({"format": "cuda-tidy-launch-index", "version": 1, "tool": "1.0", "main": ")" +
            Gone + R"(", "records": []})");
  Write(indexFileName("/p/renamed.cu"),
        R"({"format": "cuda-tidy-launch-index", "version": 1, "tool": "1.0", "main": "/p/other.cu", "records": []})");

  auto Read = readIndexFolders({Index.str().str()}, "1.0");
  ASSERT_TRUE(static_cast<bool>(Read));
  EXPECT_EQ(Read->MainFiles, (std::vector<std::string>{A}));
  ASSERT_EQ(Read->Skipped.size(), 4u);
  std::string All = llvm::join(Read->Skipped, "\n");
  EXPECT_NE(All.find("broken.json': not JSON"), std::string::npos) << All;
  EXPECT_NE(All.find("foreign.json': not a launch record"), std::string::npos);
  EXPECT_NE(All.find("its source '" + Gone + "' is not here"),
            std::string::npos);
  EXPECT_NE(All.find("the record of '/p/other.cu' is named"),
            std::string::npos);

  // Another cuda-tidy's records: named, none joined.
  Read = readIndexFolders({Index.str().str()}, "2.0");
  ASSERT_TRUE(static_cast<bool>(Read));
  EXPECT_TRUE(Read->Records.empty());
  EXPECT_NE(llvm::join(Read->Skipped, "\n")
                .find("written by cuda-tidy 1.0, this is cuda-tidy 2.0"),
            std::string::npos);

  // A folder that is not there is an error.
  auto Missing = readIndexFolders({Index.str().str() + "-no-such"}, "1.0");
  ASSERT_FALSE(static_cast<bool>(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("no folder"),
            std::string::npos);
}

TEST(IndexFolder, AFindingWhoseLineMovedIsNotPlaced) {
  ScratchDir Dir;
  // Recorded in "void f() {\n  k<<<1, 1>>>(p);\n": offset 13, line 2,
  // column 3. A line inserted above moves offset 13 to line 2, column 2.
  std::string B =
      Dir.write("b.cu", "// inserted\nvoid f() {\n  k<<<1, 1>>>(p);\n");
  CrossFileFinding F;
  F.MainFile = B;
  F.Where = {B, 13, 2, 3};
  F.Message = "moved";
  ClangTidyStats Stats;
  std::vector<std::string> Unplaced;
  EXPECT_TRUE(toClangTidyErrors({F}, optionsWith(""),
                                llvm::vfs::getRealFileSystem(), Stats,
                                &Unplaced)
                  .empty());
  ASSERT_EQ(Unplaced.size(), 1u);
  EXPECT_NE(Unplaced[0].find("changed since it was analyzed"),
            std::string::npos);
}

} // namespace
} // namespace clang::tidy::cuda::driver
