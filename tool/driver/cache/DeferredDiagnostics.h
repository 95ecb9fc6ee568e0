//===--- DeferredDiagnostics.h - CUDA deferred diagnostics of a preamble --===//
//
// A CUDA deferred diagnostic is one Sema records, not reports, while it
// parses a __host__ __device__ function (Sema::DeviceDeferredDiags: a call
// of a host-only function, an exception, a variable-length array): it
// counts only if the function turns out to be emitted for the device, which
// Sema learns at the end of the translation unit (Sema::emitDeferredDiags,
// which walks the calls from the functions that are emitted).
//
// A PCH does not keep them. Before this record a preamble whose user
// headers held one was cut before those headers, since a parse from it
// would have missed the error a full parse reports when the file's device
// code calls the function; ggml's common.cuh holds three (a lambda calling
// getenv in ggml_cuda_kernel_launch), so every ggml file started from the
// shared base alone. Now the build records them (recordDeferredDiagnostics,
// when the PCH is written, so each function is named by the ID the PCH
// gives its declaration) and a parse from the preamble gives them back to
// Sema before the end of its translation unit (restoreDeferredDiagnostics),
// where clang decides, as in a full parse, whether to report them, with the
// same "called by" notes.
//
// What is recorded is exact or nothing: a diagnostic's ID (of this build of
// clang: the preamble key holds its version), its location and ranges, and
// its arguments, an integer as it is and a declaration, type or name as the
// text the diagnostic prints for it (with the modifier its format gives
// it). A location is kept as its distance from the start of the PCH that
// holds it, the preamble's own or the shared one, which clang's reader of
// a PCH keeps. Anything else (a fix-it, %diff, two types, an argument
// printed two ways, a function the PCH did not write) makes the record
// fail, and the preamble is cut before the user headers as before.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_DEFERREDDIAGNOSTICS_H
#define CUDA_TIDY_TOOL_DRIVER_DEFERREDDIAGNOSTICS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTWriter;
class Decl;
class CompilerInstance;
class Sema;
} // namespace clang

namespace clang::tidy::cuda::driver {

class PayloadReader;
class PayloadWriter;

/// A source location of a preamble's build, in a form a parse from the
/// preamble can turn back into its own.
struct PreambleLocation {
  enum class Kind : uint8_t {
    Invalid = 0,
    /// In what the preamble's own PCH holds: Offset is the distance from
    /// the start of the preamble's main file (Preamble::UserFile::Offset;
    /// the PCH keeps it), below Preamble::Span.
    Local = 1,
    /// In the shared PCH the preamble is chained on: Offset is the
    /// distance from the start of that PCH's source locations
    /// (ModuleFile::SLocEntryBaseOffset), which the reader of the PCH keeps
    /// wherever a compile loads it.
    Shared = 2,
  };
  Kind K = Kind::Invalid;
  bool Macro = false; ///< In a macro expansion.
  uint32_t Offset = 0;
};

struct DeferredArgument {
  /// DiagnosticsEngine::ArgumentKind: an integer kind, or ak_std_string.
  uint8_t Kind = 0;
  uint64_t Value = 0;
  std::string Text;
};

struct DeferredRange {
  PreambleLocation Begin, End;
  bool TokenRange = false;
};

struct DeferredDiagnostic {
  unsigned DiagID = 0;
  PreambleLocation At;
  std::vector<DeferredArgument> Arguments;
  std::vector<DeferredRange> Ranges;
};

/// The deferred diagnostics of one function, in the order Sema recorded
/// them.
struct DeferredFunction {
  /// The PCH writer's ID of the function's declaration (LocalDeclID).
  uint64_t DeclID = 0;
  /// Its qualified name, checked when it is read back.
  std::string Name;
  std::vector<DeferredDiagnostic> Diagnostics;
};

/// The modifier (and the modifier's argument, between braces) each
/// argument of a diagnostic format is printed with, as
/// Diagnostic::FormatDiagnostic reads the format: `%0`, `%q0`,
/// `%select{a|b}0`, nested ones included. An argument printed in two
/// different ways, or by `%diff`, is Ambiguous.
struct ArgumentFormat {
  llvm::StringRef Modifier;
  llvm::StringRef Argument;
  bool Seen = false;
  bool Ambiguous = false;
};
using ArgumentFormats = std::array<ArgumentFormat, 10>;
void scanArgumentFormats(llvm::StringRef Format, ArgumentFormats &Out);

/// Records in \p Out the deferred diagnostics of the functions \p CI's
/// Sema holds one for outside system headers, named by \p Writer's IDs (it
/// has just written the PCH). \p SharedPch: the path of the shared PCH the
/// build is chained on, or empty. Returns false when one of them cannot be
/// recorded exactly.
bool recordDeferredDiagnostics(CompilerInstance &CI, ASTWriter &Writer,
                               llvm::StringRef SharedPch,
                               std::vector<DeferredFunction> &Out);

/// Gives \p CI's Sema back \p Functions, for a compile that loaded the PCH
/// at \p PchPath as its preamble, chained on \p SharedPch (or empty);
/// \p Base is the start of that PCH's main file in \p CI's source
/// locations (invalid when unknown) and \p Span the preamble's span.
/// Returns how many functions could not be read back.
unsigned restoreDeferredDiagnostics(llvm::ArrayRef<DeferredFunction> Functions,
                                    llvm::StringRef PchPath,
                                    llvm::StringRef SharedPch,
                                    SourceLocation Base, uint32_t Span,
                                    CompilerInstance &CI);

/// The declarations the PCH at \p PchPath, loaded by \p CI as its
/// preamble, gives the IDs \p IDs (its writer's LocalDeclIDs), in order;
/// nothing when one of them cannot be read back as a top-level declaration.
std::optional<std::vector<Decl *>>
declarationsFromPch(llvm::ArrayRef<uint64_t> IDs, llvm::StringRef PchPath,
                    CompilerInstance &CI);

/// The cache entry's form (PreambleCache's payload); the reader rejects
/// a Local offset not below \p Span.
void writeDeferredFunctions(PayloadWriter &Out,
                            llvm::ArrayRef<DeferredFunction> Functions);
bool readDeferredFunctions(PayloadReader &In, uint32_t Span,
                           std::vector<DeferredFunction> &Functions);

} // namespace clang::tidy::cuda::driver

#endif // CUDA_TIDY_TOOL_DRIVER_DEFERREDDIAGNOSTICS_H
