//===--- DeferredDiagnosticsTest.cpp - a preamble's deferred diagnostics --===//
//
// The pieces of DeferredDiagnostics a wrong answer would hide: how each
// argument of a diagnostic format is read (an argument recorded as text
// must be printed one way only), and the cache entry's form, which is read
// back from a folder anyone can write and so must reject what no build
// wrote. That a parse from a preamble reports what a full parse reports is
// tested end to end (tests/lit/cli/preamble-deferred-diagnostics.test).
//
//===----------------------------------------------------------------------===//

#include "tool/driver/cache/CacheStore.h"
#include "tool/driver/cache/DeferredDiagnostics.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticSema.h"
#include "gtest/gtest.h"

using namespace clang::tidy::cuda::driver;
using clang::DiagnosticsEngine;

namespace {

ArgumentFormats scan(llvm::StringRef Format) {
  ArgumentFormats Out;
  scanArgumentFormats(Format, Out);
  return Out;
}

TEST(DeferredDiagnosticsTest, ReadsEachArgumentsModifier) {
  // err_ref_bad_target's format, the one ggml's common.cuh defers.
  ArgumentFormats F = scan(
      "reference to %select{__device__|__global__|__host__|__host__ "
      "__device__}0 %select{function|variable}1 %2 in "
      "%select{__device__|__global__|__host__|__host__ __device__}3 function");
  for (unsigned I : {0u, 1u, 3u}) {
    EXPECT_TRUE(F[I].Seen) << I;
    EXPECT_EQ(F[I].Modifier, "select") << I;
    EXPECT_FALSE(F[I].Ambiguous) << I;
  }
  EXPECT_TRUE(F[2].Seen);
  EXPECT_EQ(F[2].Modifier, "");
  EXPECT_FALSE(F[2].Ambiguous);
  EXPECT_FALSE(F[4].Seen);
  EXPECT_EQ(F[1].Argument, "function|variable");
}

TEST(DeferredDiagnosticsTest, NestedFormatsAndEscapes) {
  // An argument inside a select's branch counts; `%%` is a percent sign,
  // not an argument.
  ArgumentFormats F = scan("100%% of %select{%q2|none}1 and %plural{1:one|:%3 many}0");
  EXPECT_EQ(F[1].Modifier, "select");
  EXPECT_EQ(F[2].Modifier, "q");
  EXPECT_EQ(F[0].Modifier, "plural");
  EXPECT_EQ(F[3].Modifier, "");
  EXPECT_FALSE(F[5].Seen);
  // `%%0` is a percent sign and a digit.
  EXPECT_FALSE(scan("%%0")[0].Seen);
}

TEST(DeferredDiagnosticsTest, AnArgumentPrintedTwoWaysIsAmbiguous) {
  ArgumentFormats Twice = scan("%0 and %q0");
  EXPECT_TRUE(Twice[0].Ambiguous);
  ArgumentFormats Same = scan("%0 and again %0");
  EXPECT_FALSE(Same[0].Ambiguous);
  // %diff prints its two types against each other: never text.
  ArgumentFormats Diff = scan("%diff{cannot convert $ to $|cannot convert}0,1");
  EXPECT_TRUE(Diff[0].Ambiguous);
  EXPECT_TRUE(Diff[1].Ambiguous);
}

DeferredFunction sampleFunction() {
  DeferredFunction F;
  F.DeclID = 1234;
  F.Name = "ggml_cuda_kernel_launch(lambda)::operator()";
  DeferredDiagnostic D;
  D.DiagID = clang::diag::err_ref_bad_target;
  D.At = {PreambleLocation::Kind::Local, false, 40};
  D.Arguments.push_back({DiagnosticsEngine::ak_uint, 2, ""});
  D.Arguments.push_back({DiagnosticsEngine::ak_uint, 0, ""});
  D.Arguments.push_back({DiagnosticsEngine::ak_std_string, 0, "'getenv'"});
  D.Arguments.push_back({DiagnosticsEngine::ak_uint, 3, ""});
  D.Ranges.push_back({{PreambleLocation::Kind::Shared, true, 7},
                      {PreambleLocation::Kind::Local, false, 44},
                      true});
  F.Diagnostics.push_back(D);
  return F;
}

std::string written(llvm::ArrayRef<DeferredFunction> Functions) {
  PayloadWriter Out;
  writeDeferredFunctions(Out, Functions);
  return Out.bytes();
}

TEST(DeferredDiagnosticsTest, PayloadRoundTrips) {
  std::vector<DeferredFunction> Written = {sampleFunction(), sampleFunction()};
  Written[1].DeclID = 99;
  Written[1].Diagnostics.clear();
  std::string Bytes = written(Written);
  PayloadReader In(Bytes);
  std::vector<DeferredFunction> Read;
  ASSERT_TRUE(readDeferredFunctions(In, /*Span=*/100, Read));
  EXPECT_TRUE(In.atEnd());
  ASSERT_EQ(Read.size(), 2u);
  EXPECT_EQ(Read[0].DeclID, 1234u);
  EXPECT_EQ(Read[0].Name, Written[0].Name);
  ASSERT_EQ(Read[0].Diagnostics.size(), 1u);
  const DeferredDiagnostic &D = Read[0].Diagnostics[0];
  EXPECT_EQ(D.DiagID, unsigned(clang::diag::err_ref_bad_target));
  EXPECT_EQ(D.At.K, PreambleLocation::Kind::Local);
  EXPECT_EQ(D.At.Offset, 40u);
  ASSERT_EQ(D.Arguments.size(), 4u);
  EXPECT_EQ(D.Arguments[2].Text, "'getenv'");
  EXPECT_EQ(D.Arguments[3].Value, 3u);
  ASSERT_EQ(D.Ranges.size(), 1u);
  EXPECT_EQ(D.Ranges[0].Begin.K, PreambleLocation::Kind::Shared);
  EXPECT_TRUE(D.Ranges[0].Begin.Macro);
  EXPECT_TRUE(D.Ranges[0].TokenRange);
  EXPECT_EQ(Read[1].DeclID, 99u);
  EXPECT_TRUE(Read[1].Diagnostics.empty());
}

bool reads(const std::string &Bytes, uint32_t Span = 100) {
  PayloadReader In(Bytes);
  std::vector<DeferredFunction> Read;
  return readDeferredFunctions(In, Span, Read);
}

TEST(DeferredDiagnosticsTest, PayloadRejectsWhatNoBuildWrote) {
  const DeferredFunction Good = sampleFunction();
  ASSERT_TRUE(reads(written({Good})));
  // A location in the preamble's own PCH past its span.
  EXPECT_FALSE(reads(written({Good}), /*Span=*/40));
  // A diagnostic ID outside clang's own tables (a custom ID is numbered
  // per compile).
  DeferredFunction Custom = Good;
  Custom.Diagnostics[0].DiagID = clang::diag::DIAG_UPPER_LIMIT + 3;
  EXPECT_FALSE(reads(written({Custom})));
  DeferredFunction Zero = Good;
  Zero.Diagnostics[0].DiagID = 0;
  EXPECT_FALSE(reads(written({Zero})));
  // An argument of a kind that is a pointer in a compile.
  DeferredFunction Pointer = Good;
  Pointer.Diagnostics[0].Arguments[2].Kind = DiagnosticsEngine::ak_nameddecl;
  EXPECT_FALSE(reads(written({Pointer})));
  // More arguments than a diagnostic holds.
  DeferredFunction Many = Good;
  Many.Diagnostics[0].Arguments.resize(11, {DiagnosticsEngine::ak_uint, 0, ""});
  EXPECT_FALSE(reads(written({Many})));
  // A location kind no build writes.
  std::string Bytes = written({Good});
  const std::string Prefix = written({}); // the count alone
  // The first location's kind byte: after the count, the ID, the name and
  // the diagnostics' count and the diagnostic's ID.
  const size_t KindAt = Prefix.size() + 8 + 4 + Good.Name.size() + 4 + 4;
  ASSERT_LT(KindAt, Bytes.size());
  ASSERT_EQ(static_cast<uint8_t>(Bytes[KindAt]), 1u); // Local, no macro bit
  Bytes[KindAt] = 3;
  EXPECT_FALSE(reads(Bytes));
  // Every truncation is rejected, none is read as a shorter list.
  const std::string Whole = written({Good, Good});
  for (size_t Cut = 0; Cut < Whole.size(); ++Cut)
    EXPECT_FALSE(reads(Whole.substr(0, Cut))) << Cut;
}

} // namespace
