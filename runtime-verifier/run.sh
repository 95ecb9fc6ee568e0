#!/usr/bin/env bash
# runtime-verifier: build every reference kernel listed in manifest.yaml, run
# each in its own process under a watchdog (optionally under compute-sanitizer)
# and write the evidence to results/<gpu>.json and results/<gpu>.md.
#
#   runtime-verifier/run.sh [--sanitizer] [--only ID,ID...] [--build-only]
#
# Environment: RV_BUILD_DIR (default runtime-verifier/build), RV_RESULTS_DIR
# (default runtime-verifier/results), RV_JOBS (parallel compiles, default
# nproc), RV_CMAKE_ARGS (extra arguments for both CMake configures, e.g.
# -DCMAKE_PREFIX_PATH=<yaml-cpp prefix>), CUDACXX (the nvcc to use),
# RV_CUDA_ARCHITECTURES (overrides the manifest's architectures).
#
# Exit status: 0 every case as the manifest expects (or nothing to do: no nvcc,
# no GPU, --build-only), 1 some case differs, 2 a build or setup error.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${RV_BUILD_DIR:-$here/build}"
results="${RV_RESULTS_DIR:-$here/results}"
jobs="${RV_JOBS:-$(nproc 2>/dev/null || echo 2)}"
read -r -a cmake_args <<< "${RV_CMAKE_ARGS:-}"

runner_args=()
build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitizer) runner_args+=(--sanitizer) ;;
    --only) shift; runner_args+=(--only "${1:?--only needs case ids}") ;;
    --build-only) build_only=1 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

gen=()
keep_going=(-- -k)
if command -v ninja > /dev/null 2>&1; then
  gen=(-G Ninja)
  keep_going=(-- -k 0)
fi

# 1. The runner (host C++, yaml-cpp).
mkdir -p "$build"
if ! cmake -S "$here/runner" -B "$build/runner" "${gen[@]}" \
      -DCMAKE_BUILD_TYPE=Release "${cmake_args[@]}" > "$build/runner-configure.log" 2>&1; then
  cat "$build/runner-configure.log" >&2
  echo "runtime-verifier: cannot configure rv-runner (it needs yaml-cpp: install" \
       "libyaml-cpp-dev, or point RV_CMAKE_ARGS=-DCMAKE_PREFIX_PATH=... at it)" >&2
  exit 2
fi
cmake --build "$build/runner" -j "$jobs" || exit 2
runner="$build/runner/rv-runner"
manifest="$here/manifest.yaml"
"$runner" check --manifest "$manifest" > /dev/null || exit 2

# 2. nvcc, or a clear word that there is none.
nvcc="${CUDACXX:-$(command -v nvcc || true)}"
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ]; then
  echo "runtime-verifier: skipped: no nvcc found (set CUDACXX or put nvcc on PATH);" \
       "no case was built or run."
  exit 0
fi

# 3. The cases, with CMake's CUDA language.
"$runner" emit-cmake --manifest "$manifest" --out "$build/cases.cmake" || exit 2
arch_args=()
if [ -n "${RV_CUDA_ARCHITECTURES:-}" ]; then
  arch_args=(-DRV_CUDA_ARCHITECTURES="$RV_CUDA_ARCHITECTURES")
fi
if ! CUDACXX="$nvcc" cmake -S "$here/cases" -B "$build/cases" "${gen[@]}" \
      -DRV_CASES_FILE="$build/cases.cmake" "${arch_args[@]}" "${cmake_args[@]}"; then
  echo "runtime-verifier: cannot configure the CUDA cases" >&2
  exit 2
fi
# Keep going past a case that does not compile: the runner reports it.
cmake --build "$build/cases" -j "$jobs" "${keep_going[@]}" \
  || echo "runtime-verifier: some cases did not build (reported as error:not-built)"
if [ "$build_only" = 1 ]; then
  echo "runtime-verifier: built into $build/cases (--build-only: nothing run)"
  exit 0
fi

# 4. Run them.
"$runner" run --manifest "$manifest" --bin-dir "$build/cases" \
  --results-dir "$results" --cuda-bin "$(dirname "$nvcc")" "${runner_args[@]}"
rc=$?
if [ "$rc" = 75 ]; then
  exit 0 # no usable GPU: said so on stdout, no evidence written
fi
exit "$rc"
