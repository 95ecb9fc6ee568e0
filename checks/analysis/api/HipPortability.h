//===--- HipPortability.h - is this code also built for AMD GPUs? ---------===//
//
// Most large CUDA projects (PyTorch, FBGEMM, vLLM, ggml, FlashAttention)
// build the same source for AMD GPUs through HIP. The two platforms differ
// on one rule that decides a whole class of findings: on NVIDIA GPUs since
// Volta a block barrier waits only for threads that have not exited (the
// PTX ISA: bar.sync counts the non-exited threads of the CTA), so a thread
// that returned from the kernel before `__syncthreads()` does not hang the
// block; under HIP on AMD GPUs `__syncthreads()` is `s_barrier`, which
// waits for every wave of the workgroup, and a wave that returned never
// arrives (HIP's programming guide: "all threads of a block must reach
// __syncthreads()"). Code written to be portable must keep the stricter rule.
//
// A file is written to be portable when its preprocessor directives test
// one of the HIP platform macros (USE_ROCM, __HIP_PLATFORM_AMD__,
// __HIP_PLATFORM_HCC__, __HIPCC__, __HIP__, __HIP_DEVICE_COMPILE__,
// GGML_USE_HIP) or it includes a header under hip/. A translation unit is
// portable when its main file or any user header it includes is.
//
// Facts only; no diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_ANALYSIS_API_HIPPORTABILITY_H
#define CUDA_TIDY_CHECKS_ANALYSIS_API_HIPPORTABILITY_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::tidy::cuda::analysis {

/// Where a file shows it is also built for HIP.
struct HipEvidence {
  /// Offset of the directive's '#' in the file.
  size_t Offset = 0;
  /// What it tests or includes: "USE_ROCM", "hip/hip_runtime.h".
  std::string What;
  /// True for an #include of a hip/ header, false for a tested macro.
  bool IsInclude = false;
};

/// The first preprocessor directive of \p Text that tests a HIP platform
/// macro (#if/#ifdef/#ifndef/#elif/#elifdef/#elifndef naming it, in or out
/// of defined()) or includes a hip/ header; nullopt when none does.
/// Comments and string literals are not directives; a backslash-continued
/// directive is read whole.
std::optional<HipEvidence> hipEvidenceIn(llvm::StringRef Text);

/// True for the macro names listed above.
bool isHipPlatformMacro(llvm::StringRef Name);

} // namespace clang::tidy::cuda::analysis

#endif
