// Code under __CUDA_ARCH__ conditionals: each side of the compilation
// sees one branch of each conditional.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#ifdef __CUDA_ARCH__
__device__ void deviceSide(cg::thread_block DeviceBlock) { DeviceBlock.sync(); }
#else
__device__ void hostSide(cg::thread_block HostBlock) { HostBlock.sync(); }
#endif

__device__ void everySide(cg::thread_block SharedBlock) { SharedBlock.sync(); }
