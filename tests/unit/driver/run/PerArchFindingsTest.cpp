//===--- PerArchFindingsTest.cpp - which architectures saw a finding ------===//
//
// The merge of a file's per-command findings under --cuda-gpu-arch=A,B
// (tool/driver/run/PerArchFindings.h); tests/lit/cli/gpu-arch-list.test runs
// the same through the tool on a file whose finding only sm_90 sees.

#include "tool/driver/run/PerArchFindings.h"

#include "gtest/gtest.h"

namespace clang::tidy::cuda::driver {
namespace {

ClangTidyError finding(llvm::StringRef Check, unsigned Offset,
                       llvm::StringRef Message = "a barrier diverges") {
  ClangTidyError E(Check, ClangTidyError::Warning, "/p", false);
  E.Message = tooling::DiagnosticMessage(Message);
  E.Message.FilePath = "/p/k.cu";
  E.Message.FileOffset = Offset;
  return E;
}

std::vector<std::string> notesOf(const ClangTidyError &E) {
  std::vector<std::string> Notes;
  for (const tooling::DiagnosticMessage &Note : E.Notes)
    Notes.push_back(Note.Message);
  return Notes;
}

TEST(PerArchFindings, FindingEveryArchSeesIsReportedOnceWithoutNote) {
  auto Merged = mergeCommandFindings(
      {{"sm_80", {finding("cuda-divergent-barrier", 40)}},
       {"sm_90", {finding("cuda-divergent-barrier", 40)}}});
  ASSERT_EQ(Merged.size(), 1u);
  EXPECT_TRUE(Merged[0].Notes.empty());
}

TEST(PerArchFindings, FindingOneArchSeesNamesItAndTheOthers) {
  auto Merged = mergeCommandFindings(
      {{"sm_90", {finding("cuda-divergent-barrier", 10),
                  finding("cuda-divergent-barrier", 40)}},
       {"sm_100", {finding("cuda-divergent-barrier", 40)}},
       {"sm_80", {finding("cuda-divergent-barrier", 40)}}});
  ASSERT_EQ(Merged.size(), 2u);
  EXPECT_EQ(Merged[0].Message.FileOffset, 10u);
  ASSERT_EQ(notesOf(Merged[0]),
            std::vector<std::string>{"found when analyzed for sm_90; not for "
                                     "sm_80, sm_100 (--cuda-gpu-arch)"});
  // The note is at the finding itself, never a location-less line.
  EXPECT_EQ(Merged[0].Notes[0].FilePath, "/p/k.cu");
  EXPECT_EQ(Merged[0].Notes[0].FileOffset, 10u);
  EXPECT_TRUE(Merged[1].Notes.empty());
}

TEST(PerArchFindings, OrderOfTheArchsDoesNotChangeTheResult) {
  auto Forward = mergeCommandFindings(
      {{"sm_80", {finding("cuda-full-warp-mask", 5)}},
       {"sm_90", {finding("cuda-divergent-barrier", 7)}},
       {"sm_120a", {finding("cuda-divergent-barrier", 7)}}});
  auto Reversed = mergeCommandFindings(
      {{"sm_120a", {finding("cuda-divergent-barrier", 7)}},
       {"sm_90", {finding("cuda-divergent-barrier", 7)}},
       {"sm_80", {finding("cuda-full-warp-mask", 5)}}});
  ASSERT_EQ(Forward.size(), 2u);
  ASSERT_EQ(Reversed.size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    EXPECT_EQ(Forward[I].DiagnosticName, Reversed[I].DiagnosticName);
    EXPECT_EQ(notesOf(Forward[I]), notesOf(Reversed[I]));
  }
  EXPECT_EQ(notesOf(Forward[0]),
            std::vector<std::string>{"found when analyzed for sm_80; not for "
                                     "sm_90, sm_120a (--cuda-gpu-arch)"});
  EXPECT_EQ(notesOf(Forward[1]),
            std::vector<std::string>{"found when analyzed for sm_90, sm_120a; "
                                     "not for sm_80 (--cuda-gpu-arch)"});
}

TEST(PerArchFindings, OneArchOrHostSideFindingsGetNoNote) {
  // One device arch: nothing to tell apart.
  auto One = mergeCommandFindings(
      {{"sm_90", {finding("cuda-divergent-barrier", 7)}}, {"", {}}});
  ASSERT_EQ(One.size(), 1u);
  EXPECT_TRUE(One[0].Notes.empty());
  // Seen by the host side (--cuda-pass=both): not a device-arch difference.
  auto Host = mergeCommandFindings(
      {{"sm_80", {}},
       {"sm_90", {}},
       {"", {finding("cuda-grid-sync-launch", 3)}}});
  ASSERT_EQ(Host.size(), 1u);
  EXPECT_TRUE(Host[0].Notes.empty());
}

TEST(PerArchFindings, SameLocationDifferentMessagesStayApart) {
  auto Merged = mergeCommandFindings(
      {{"sm_80", {finding("cuda-divergent-barrier", 7, "first")}},
       {"sm_90", {finding("cuda-divergent-barrier", 7, "second"),
                  finding("cuda-divergent-barrier", 7, "first")}}});
  ASSERT_EQ(Merged.size(), 2u);
  EXPECT_EQ(Merged[0].Message.Message, "first");
  EXPECT_TRUE(Merged[0].Notes.empty());
  EXPECT_EQ(Merged[1].Message.Message, "second");
  EXPECT_EQ(notesOf(Merged[1]).size(), 1u);
}

TEST(PerArchFindings, WarningAsErrorInAnyCopyKeepsIt) {
  ClangTidyError AsError = finding("cuda-divergent-barrier", 7);
  AsError.IsWarningAsError = true;
  auto Merged = mergeCommandFindings(
      {{"sm_80", {finding("cuda-divergent-barrier", 7)}},
       {"sm_90", {AsError}}});
  ASSERT_EQ(Merged.size(), 1u);
  EXPECT_TRUE(Merged[0].IsWarningAsError);
}

} // namespace
} // namespace clang::tidy::cuda::driver
