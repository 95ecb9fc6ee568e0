// Half-typed code: a constexpr local with no initializer yet. The divergence
// analysis evaluated it and read through the missing initializer (SIGSEGV;
// found by the fuzzer, 2026-12-01).
__global__ void e(float *o) {
  constexpr int I = ;
  o[0] = I;
}

__global__ void f(float *o) {
  constexpr int J =
