//===--- CheckTestHarness.h - run cuda-tidy checks on in-memory code ------===//
//
// Runs the registered checks, through clang-tidy's own consumer factory, on a
// CUDA source held in memory and parsed with the real CUDA toolkit headers,
// and returns the findings and the source with every fix applied. Tests
// assert exact findings (line, column, check, message) and fixed text.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TESTS_UNIT_CHECKTESTHARNESS_H
#define CUDA_TIDY_TESTS_UNIT_CHECKTESTHARNESS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/StringRef.h"
#include <ostream>
#include <string>
#include <vector>

namespace clang::tidy::cuda::test {

/// One diagnostic as a test wants to see it.
struct Finding {
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Level; ///< "warning", "error" or "note"
  std::string Check;
  std::string Message;
  bool operator==(const Finding &Other) const {
    return Line == Other.Line && Column == Other.Column &&
           Level == Other.Level && Check == Other.Check &&
           Message == Other.Message;
  }
};

struct CheckRun {
  std::vector<Finding> Findings; ///< Warnings and errors, each followed by its notes.
  std::string FixedCode;         ///< The input with every warning's fix applied.
  bool ParsedCleanly = true;     ///< No compiler error.
};

/// Runs the checks matched by \p Checks (a clang-tidy glob) on \p Code.
/// \p ConfigYaml, if given, is a .clang-tidy document (CheckOptions ...).
CheckRun runChecks(llvm::StringRef Code, llvm::StringRef Checks,
                   llvm::StringRef ConfigYaml = "",
                   llvm::StringRef FileName = "input.cu");

/// The compile flags the harness parses with (device side, real headers).
std::vector<std::string> cudaTestFlags();

std::string toString(const Finding &F);

/// GoogleTest prints a Finding as a diagnostic line, not as bytes.
inline void PrintTo(const Finding &F, std::ostream *OS) { *OS << toString(F); }

} // namespace clang::tidy::cuda::test

#endif
