// A project header that picks its runtime by platform, as portable code does.
#pragma once
#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#endif
__device__ inline float twice(float x) { return 2 * x; }
