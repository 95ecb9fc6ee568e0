//===--- HeaderPairing.h - a translation unit for a header ------*- C++ -*-===//
//
// A header has no compile command of its own in a compile database. Given on
// its own (a pre-commit hook staging a .cuh, a --diff run), it is analyzed
// the way clangd pairs a header with a source: through a translation unit of
// the database that includes it, with that unit's flags, keeping only the
// findings located in the header. Only when no unit includes it is it parsed
// on its own.
//
// The search is cheap and textual: each file of the database is scanned for
// #include lines whose spelling names the header, and a spelling counts when
// it resolves to the header (by real path) from the including file's folder
// or one of its command's include folders. A header reached only through
// another header is not found this way.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_HEADERPAIRING_H
#define CUDA_TIDY_TOOL_DRIVER_HEADERPAIRING_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// True for the names treated as headers: .h .hh .hpp .hxx .h++ .cuh .inl
/// .ipp .tcc.
bool isHeaderPath(llvm::StringRef Path);

/// The identity of a file: its real path (symlinks and ".." resolved), else
/// \p Path made absolute against \p Base with its dots removed.
std::string fileIdentity(llvm::StringRef Path, llvm::StringRef Base = {});

/// The spellings of the #include lines in \p Text, in order.
std::vector<std::string> includeSpellings(llvm::StringRef Text);

/// The include folders a compile command searches for a quoted include
/// (-iquote, -I, -isystem, -idirafter, in that order), absolute against the
/// command's directory.
std::vector<std::string> includeFolders(const tooling::CompileCommand &Command);

/// True when \p Text uses a CUDA keyword (__global__, __device__, __host__,
/// __shared__, __constant__, __managed__, __launch_bounds__,
/// __grid_constant__, __cluster_dims__) as a whole word.
bool usesCudaKeywords(llvm::StringRef Text);

/// True for a header that only parses as CUDA: a .cuh, or any header whose
/// text uses CUDA keywords (a .h of device code, an NVRTC kernel header).
/// False for a file that is no header or cannot be read.
bool isCudaHeader(llvm::StringRef Path);

/// A file of \p Database (its commands as given: \p Database is the one
/// cuda-tidy runs with) that includes \p Header directly; the first in
/// sorted order, CUDA sources first. With \p CudaIncluderOnly, only a file
/// whose command compiles CUDA counts: a CUDA header parsed through a C++
/// file is parsed as C++. None when no file does.
std::optional<std::string>
findIncludingFile(const tooling::CompilationDatabase &Database,
                  llvm::StringRef Header, bool CudaIncluderOnly = false);

} // namespace clang::tidy::cuda::driver

#endif
