// nvcc builds every kernel below; clang 22 rejects one spelling in each
// (the error is in the comment). cuda-tidy rewrites them in memory, keeping
// every byte's place, so the findings after them keep their lines and
// columns (nvcc-spelling-repairs.test).
#include <cuda/barrier>
#include <cuda/std/utility>
#include <string.h>

// "initialization is not supported for __shared__ variables": libcu++'s
// barrier has a destructor with a body.
__global__ void arriveAndWait(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  auto token = bar.arrive();
  bar.wait(cuda::std::move(token));
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = 1.0f;
  __syncthreads();
}
// "invalid % escape in inline assembly string": nvcc passes %globaltimer to
// PTX as it is.
__global__ void stamp(unsigned long long *out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)); if (threadIdx.x & 1) __syncthreads();
  out[threadIdx.x] = t;
  __syncthreads();
}
// "expected ')'": no comma between the two input operands.
__global__ void release(unsigned char *flag, unsigned char value) {
  asm volatile("st.release.gpu.global.u8 [%1], %0;" ::"r"((unsigned)value) "l"(flag) : "memory");
  if (threadIdx.x == 3) __syncthreads();
  __syncthreads();
}
// "variable-sized object may not be initialized": a GNU extension g++
// accepts in host code.
void hostTable(int n, int *out) {
  int table[n] = {0};
  memcpy(out, table, sizeof(int) * n);
}
