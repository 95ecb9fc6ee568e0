//===--- ConfigValidation.h - .clang-tidy files checked before a run ------===//
//
// clang-tidy prints a broken .clang-tidy and goes on without it; a CI gate
// must not silently run with the wrong configuration. This reads every
// .clang-tidy that applies to the inputs and reports, with file, line and
// column: malformed YAML, an unknown cuda-* check, an unknown cuda-* option.
// Names outside cuda-* are left alone: a project's .clang-tidy serves
// clang-tidy's own checks too.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOL_DRIVER_CONFIGVALIDATION_H
#define CUDA_TIDY_TOOL_DRIVER_CONFIGVALIDATION_H

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::cuda::driver {

/// The most cuda-tidy reads of a configuration file (.cuda-tidy.yaml,
/// .clang-tidy, --config-file) and of a baseline or compile database.
inline constexpr uint64_t ConfigFileMaxBytes = 16ull << 20;
inline constexpr uint64_t DataFileMaxBytes = 512ull << 20;

/// The bytes of an input cuda-tidy reads whole (a configuration, a baseline,
/// a compile database): a regular file once symlinks are followed, of at
/// most \p MaxBytes. A device, a FIFO or a folder is an error, not a read
/// that never ends (issue 16 F5, F12); the message names the path.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef Path, uint64_t MaxBytes);

/// The deepest nesting cuda-tidy accepts in a configuration (YAML), a
/// baseline or a compile database (JSON). The parsers (LLVM's YAML and JSON,
/// clang-tidy's YAML I/O, yaml-cpp) recurse once per level, and 50,000
/// levels overflowed the stack (SIGSEGV, every file's output lost: issue 16
/// F7). Real files nest 3 to 6 deep.
inline constexpr unsigned MaxNestingDepth = 256;

/// The most keys cuda-tidy accepts in one YAML mapping (CheckOptions). LLVM's
/// YAML I/O checks each key of a mapping against every key it expected, so
/// reading a mapping takes time quadratic in its size: 80,000 CheckOptions
/// took 22 s, 200,000 more than 120 s (issue 16 F16). Real configurations
/// set tens of options.
inline constexpr unsigned MaxMappingEntries = 4096;

enum class InputSyntax { Json, Yaml };

/// Fails, naming \p Path and the line and column where it goes too deep,
/// when \p Text nests collections more than MaxNestingDepth levels deep,
/// or (YAML) holds a mapping of more than MaxMappingEntries keys.
/// Counted without recursion: JSON by its brackets outside strings, YAML by
/// walking LLVM's YAML parser's nodes with an explicit stack. Text that is
/// not valid is left to the real parser to report.
llvm::Error checkNestingDepth(llvm::StringRef Text, llvm::StringRef Path,
                              InputSyntax Syntax);

/// True when \p Text is one valid JSON value (RFC 8259, strings valid
/// UTF-8), checked without building it: validating a 149 MB compile
/// database with llvm::json::parse cost 2.5 GB of memory before clang's
/// loader read it again (issue 16 F18). Strict: text it rejects may still
/// be accepted by llvm::json::parse, which callers then run for the
/// message. Call it on text that passed checkNestingDepth (it recurses
/// once per level).
bool isValidJson(llvm::StringRef Text);

/// Validates the .clang-tidy files in the folders of \p Inputs and their
/// parents (each file once). Returns the number of errors printed to \p OS.
unsigned validateClangTidyFiles(const std::vector<std::string> &Inputs,
                                const llvm::StringSet<> &KnownChecks,
                                const llvm::StringSet<> &KnownOptions,
                                llvm::raw_ostream &OS);

/// Validates one configuration text (from \p Source).
unsigned validateClangTidyConfig(llvm::StringRef Text, llvm::StringRef Source,
                                 const llvm::StringSet<> &KnownChecks,
                                 const llvm::StringSet<> &KnownOptions,
                                 llvm::raw_ostream &OS);

/// For clang-tidy's "invalid configuration value ... for option 'X'"
/// message: prints "file:line:col: error: <message>" at the .clang-tidy that
/// sets X (the nearest one above an input that names it).
void locateConfigurationProblem(const std::vector<std::string> &Inputs,
                                llvm::StringRef Message,
                                llvm::raw_ostream &OS);

} // namespace clang::tidy::cuda::driver

#endif
