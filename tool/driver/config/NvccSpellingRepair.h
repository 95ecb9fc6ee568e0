//===--- NvccSpellingRepair.h - nvcc spellings clang's parser rejects --*- C++ -*-===//
//
// A few spellings build with nvcc but are errors in clang's parser or Sema,
// where no header can help (issue 15, "parse what nvcc parses"; the shims
// that a header can provide are in tool/compat/cuda_tidy_nvcc_compat.h):
//  - `__shared__ cuda::barrier<cuda::thread_scope_block> bar;`, libcu++'s
//    documented idiom: clang accepts a __shared__ object only when its
//    constructor and destructor are "empty" (CUDA E.2.3.1) and libcu++'s
//    barrier has a destructor with a body; nvcc accepts it;
//  - `%globaltimer` in an asm string: nvcc passes a `%` that no operand
//    follows through to PTX; clang reads `%g` as an operand modifier;
//  - asm operands with no comma between them (`"r"(a) "l"(b)`);
//  - a variable-length array with an initialiser (`T a[n] = {0};` in host
//    code), a GNU extension g++ accepts.
// The standalone reads the compiler errors of a file that failed, and when
// some of them are these, parses the file again with each such spelling
// rewritten in place for clang, through an in-memory overlay: the file on
// disk is never touched. Every rewrite keeps the file's length and
// every other byte's offset, so the findings, notes and fixes of the second
// parse point at the same lines and columns as the source. The plugin cannot
// do this (clang-tidy parses the file once, as it is).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_NVCCSPELLINGREPAIR_H
#define CUDA_TIDY_TOOL_DRIVER_NVCCSPELLINGREPAIR_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// One rewrite: the bytes at [Offset, Offset + Replacement.size()) become
/// Replacement.
struct SpellingEdit {
  size_t Offset = 0;
  std::string Replacement;
};

/// The rewrite of one nvcc spelling, and what it stands for.
struct SpellingRepair {
  std::vector<SpellingEdit> Edits;
  /// Names the nvcc behaviour, for the note printed with the file.
  std::string What;
};

/// The repair for the compiler error \p Message located at \p Offset of
/// \p Text (a file's bytes); none when the error is not one of the
/// spellings above, or its text is not the shape this knows how to rewrite
/// without moving other bytes.
std::optional<SpellingRepair> repairForError(llvm::StringRef Message,
                                             llvm::StringRef Text,
                                             size_t Offset);

/// \p Text with \p Edits applied; edits out of range are ignored.
std::string applyEdits(llvm::StringRef Text, llvm::ArrayRef<SpellingEdit> Edits);

/// What one failed parse asks to rewrite.
struct RepairPlan {
  /// Absolute path -> the file's bytes with the repairs applied.
  std::map<std::string, std::string> Files;
  /// "path:line:column: what", one per repair, in file order.
  std::vector<std::string> Notes;
  bool empty() const { return Files.empty(); }
};

/// From the errors of a file's parse: the repairs of the errors that are
/// nvcc spellings. \p Current holds the bytes an earlier round already
/// repaired (by path), so a second round builds on them; files are read
/// through \p FS otherwise. Empty when no error is one of those spellings.
RepairPlan planSpellingRepairs(
    llvm::ArrayRef<ClangTidyError> Errors, llvm::vfs::FileSystem &FS,
    const std::map<std::string, std::string> &Current = {});

/// \p Base with the repaired files on top, in memory.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
repairedFileSystem(const llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> &Base,
                   const std::map<std::string, std::string> &Files);

} // namespace clang::tidy::cuda::driver

#endif
