//===--- PerArchFindings.h - which architectures saw a finding ------------===//
//
// --cuda-gpu-arch=sm_80,sm_90 parses a file's device side once per arch.
// The findings of the commands are merged, as clang-tidy's diagnostic
// consumer merges them (one finding per file, offset, check and message),
// and a finding that only some of the archs see says which: code under
// `#if __CUDA_ARCH__ >= 900` is a different program on sm_80, and a user
// told "line 7" must know which build it is about.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_PERARCHFINDINGS_H
#define CUDA_TIDY_TOOL_DRIVER_PERARCHFINDINGS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// The findings of one compile command of a file.
struct CommandFindings {
  /// The device arch the command parsed for ("sm_90"); empty for the host
  /// side or a command that is not CUDA.
  std::string DeviceArch;
  std::vector<ClangTidyError> Errors;
};

/// The findings of all of a file's commands, each once, ordered as
/// clang-tidy orders them (file, offset, check, message). When the commands
/// parsed for more than one device arch, a finding that some of those archs
/// saw and others did not (and that no host-side command saw) gets a note at
/// its own location naming both, e.g. "found when analyzed for sm_90; not
/// for sm_80 (--cuda-gpu-arch)". The archs are named in ascending order, so
/// the order of the list does not change the report.
std::vector<ClangTidyError>
mergeCommandFindings(std::vector<CommandFindings> Commands);

/// Orders \p Errors as clang-tidy's consumer does (file, offset, check,
/// message), keeping the order of those equal in all four. For after
/// absoluteFileNames (Findings.h): the consumer ordered them by the names
/// the parse gave, and a header found through a relative -I is named
/// relatively by a full parse and absolutely by a parse from a preamble,
/// so the findings of one file came out in two orders (issue 38 G11).
void sortAsClangTidy(std::vector<ClangTidyError> &Errors);

} // namespace clang::tidy::cuda::driver

#endif
