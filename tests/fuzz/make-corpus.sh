#!/usr/bin/env bash
# Builds the fuzzer's seed corpus in the folder given (default fuzz-corpus)
# from the lit tests, the runtime verifier's cases and the benchmark corpus,
# plus seeds for the configuration, baseline, compile-database, diff and
# cache readers (cache entries only with CUDA_TIDY=<cuda-tidy binary>).
# Their #include lines are dropped: the fuzzer puts its stand-in header in
# front of every input, and a toolkit or project header it cannot find would
# stop the parse at the first line.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-fuzz-corpus}"
mkdir -p "$out"
for f in "$root"/tests/lit/*/*.cu "$root"/runtime-verifier/cases/*.cu \
         "$root"/bench/corpus/*.cu; do
  name="${f#"$root"/}"
  sed '/^[[:space:]]*#[[:space:]]*include/d' "$f" > "$out/${name//\//_}"
done

# Seeds for the readers (CheckFuzzer.cpp: a first-line marker picks one).
seed() { { printf '//@%s\n' "$1"; cat; } > "$out/reader-$1-$2"; }
printf 'launch:\n  block-dim-x-multiple-of-32: true\nbarrier-functions: [myBarrier, ns::grid_barrier]\nuniform-functions: [configValue]\nexclude: ["src/third_party/*"]\nbaseline: base.json\n' | seed cuda-tidy.yaml full
printf 'exclude:\n  - "a/*"\n  - b.cu\n' | seed cuda-tidy.yaml exclude
seed clang-tidy repo < "$root/.clang-tidy"
printf "Checks: '-*,cuda-*,-cuda-prefer-tile-collectives'\nWarningsAsErrors: 'cuda-*'\nHeaderFilterRegex: '.*'\nCheckOptions:\n  cuda-divergent-barrier.ReportConvergent: true\n  cuda-grid-sync-launch.ProjectIndexDir: /tmp/x\n  CudaBarrierFunctions: 'myBarrier;ns::b'\nExtraArgs: ['-DN=1', '-Xclang', '-stats-file=s']\n" | seed clang-tidy options
printf '{\n  "baselineVersion": 1,\n  "findings": [\n    {\n      "check": "cuda-group-by-value",\n      "file": "k.cu",\n      "fingerprint": "58e1e53f07779c85178ebef9dbe8e040",\n      "line": 3,\n      "message": "cooperative-groups handle \\"b\\" \\u00e9 \\ud83d\\ude00"\n    },\n    {"fingerprint": "\\u0061b", "fingerprint": 3}, [1, 2.5e-3, true, null]\n  ],\n  "tool": "cuda-tidy"\n}\n' | seed baseline written
printf '[{"directory": "/fuzz", "file": "/fuzz/a.cu", "command": "/usr/local/cuda/bin/nvcc -rdc=true -arch=sm_90 -Xcompiler -fPIC --expt-relaxed-constexpr -c /fuzz/a.cu -o a.o"},\n {"directory": "/fuzz", "file": "b.cu", "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80", "-DNAME=\\"\\u00e9\\"", "-Xclang", "-stats-file=x", "-MD", "-MF", "b.d", "-c", "b.cu"], "output": "b.o"}]\n' | seed compile-db nvcc
printf 'diff --git a/a.cu b/a.cu\nindex 1111111..2222222 100644\n--- a/a.cu\n+++ b/a.cu\n@@ -3,0 +4,2 @@ void f()\n+  __syncthreads();\n+  x = 1;\n@@ -10 +12 @@\n-old\n+new\ndiff --git a/b.cu b/b.cu\nnew file mode 100644\n--- /dev/null\n+++ b/b.cu\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n' | seed diff two-files
# Cache entries of a real run (with the stand-in header, so they stay small),
# when a cuda-tidy binary is given: CUDA_TIDY=build/bin/cuda-tidy.
if [ -n "${CUDA_TIDY:-}" ]; then
  scratch=$(mktemp -d)
  printf '#include "cuda_stub.h"\nnamespace cg = cooperative_groups;\n__device__ void byValue(cg::thread_block b) { b.sync(); }\n__global__ void k(int *o) { if (threadIdx.x < 3) { __syncthreads(); } o[0] = __shfl_sync(0xffffffff, 1, 0); }\n' > "$scratch/a.cu"
  "$CUDA_TIDY" --no-nvcc-compat --cache-dir="$scratch/cache" "$scratch/a.cu" -- \
    -nocudainc -nocudalib -I"$root/tests/fuzz/stub" > /dev/null 2>&1 || true
  n=0
  for entry in "$scratch"/cache/result-*; do
    [ -f "$entry" ] || continue
    n=$((n + 1))
    seed cache-entry "$n" < "$entry"
    tail -c +129 "$entry" | seed cache-result "$n"
  done
  rm -rf "$scratch"
fi
echo "make-corpus: $(ls "$out" | wc -l) seeds in $out, $(ls "$out" | grep -c '^reader-') of them for the readers"
