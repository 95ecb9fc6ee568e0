// nvcc defines __CUDACC_VER_MAJOR__/_MINOR__/_BUILD__ for every file;
// clang does not, so code that picks the *_sync intrinsics by nvcc's version
// parsed its pre-Volta branch under cuda-tidy, and the full-mask call nvcc
// builds was never seen (a wrapper of moderngpu's shape). With the
// nvcc-compatibility header the version is the toolkit's and the branch nvcc
// takes is the one analyzed.
// RUN: %check_cuda_tidy %s cuda-full-warp-mask %t -- -- -include %nvcc_compat_header

#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 13
#error "the toolkit's version stands in for nvcc's"
#endif
#if __CUDACC_VER_MINOR__ < 0 || __CUDACC_VER_BUILD__ != 0
#error "minor and build are defined too"
#endif

#define MEMBER_MASK 0xffffffffu
#if __CUDACC_VER_MAJOR__ >= 9 && defined(__CUDA_ARCH__)
#define USE_SYNC_VOTES
#endif

namespace wrappers {
__device__ unsigned vote(int predicate, unsigned mask = MEMBER_MASK) {
#ifdef USE_SYNC_VOTES
  return __ballot_sync(mask, predicate);
#else
  return 0; // the legacy vote, which clang's sm_90 headers do not declare
#endif
}
} // namespace wrappers

__global__ void headFlags(const int *flags, int *out, int warps) {
  int tid = threadIdx.x;
  if (tid < warps) {
    out[tid] = wrappers::vote(flags[tid] != 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'vote' reaches '__ballot_sync' with a full warp mask under control flow that diverges within the warp (branch): lanes that skipped this branch are named in the mask [cuda-full-warp-mask]
  }
  __syncthreads();
}
