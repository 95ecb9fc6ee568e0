//===--- SanitizerDefaults.cpp - sanitizer options of cuda-tidy's ASan build ===//
//
// Linked into cuda-tidy only when it is built with -DCUDA_TIDY_SANITIZE=ON
// (docs/reliability.md). The sanitizers' default exit status is 1, which is
// also cuda-tidy's "findings promoted to errors" status, so a test expecting
// exit 1 would pass on a memory error. 86 is none of cuda-tidy's statuses
// (tool/driver/ExitCodes.h). An environment's ASAN_OPTIONS or UBSAN_OPTIONS
// still override these.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() { return "exitcode=86"; }

extern "C" const char *__ubsan_default_options() {
  return "exitcode=86:print_stacktrace=1";
}
