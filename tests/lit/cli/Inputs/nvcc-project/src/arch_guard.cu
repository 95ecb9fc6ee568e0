// Compiles only as the device side of sm_90 with relocatable device code and
// the project's macro: proof that the nvcc command was translated, not
// replaced by defaults.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 900
#error "wrong arch: the highest requested arch (sm_90) should be analyzed"
#endif
#ifndef PROJECT_MACRO
#error "PROJECT_MACRO from the compile command is missing"
#endif
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void byValue(cg::grid_group g) { g.sync(); }
