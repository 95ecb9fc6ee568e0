//===--- StrictJson.h - the strict JSON grammar, read without a tree ------===//
//
// One validator for every JSON text the tool reads in place: the project
// index's records (launch/LaunchIndex), baselines and compile databases
// (tool/driver/config). llvm::json::parse builds a tree that costs tens of
// times the text's size; a text this accepts can be walked in place.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_CORE_STRICTJSON_H
#define CUDA_TIDY_CHECKS_ANALYSIS_CORE_STRICTJSON_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace clang::tidy::cuda::analysis {

/// Whether \p Text is one JSON value (whitespace around it allowed) in
/// strict JSON syntax, valid UTF-8, nested at most 256 levels deep. When not,
/// \p ErrorOffset (if given) is the offset of the first byte that is not.
/// llvm::json::parse also accepts numbers such as `+1` and `01`, which no
/// writer of records produces; those are refused here.
bool isStrictJson(llvm::StringRef Text, size_t *ErrorOffset = nullptr);

/// JSON's whitespace: space, tab, line feed, carriage return.
bool isJsonSpace(char C);

} // namespace clang::tidy::cuda::analysis

#endif
