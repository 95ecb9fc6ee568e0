#!/usr/bin/env bash
# The fuzz job of CI (issue 38; .ci/run runs it after the test suite, in a
# build folder of its own, so the default suite is unchanged):
#   1. builds the libFuzzer target with CUDA_TIDY_FUZZ=ON (ASan, UBSan and
#      coverage on our code; libclang-rt-22-dev, which install-deps.sh
#      installs) into build-fuzz (or $FUZZ_BUILD_DIR);
#   2. runs the regression corpus (tests/fuzz/regressions) through the
#      fuzzer and the instrumented standalone tool: ctest fuzz-regressions;
#   3. fuzzes for a bounded time, $CUDA_TIDY_FUZZ_SECONDS (default 60), from
#      the seed corpus (make-corpus.sh: the checks and every reader, the
#      cache entries of a real run included) and the regressions.
# A crash, a sanitizer report, a leak, an oracle failure or an input over
# the time or memory limit fails the job; the input is left in
# $FUZZ_BUILD_DIR/fuzz-artifacts/ (docs/reliability.md says how to shrink it
# and add it to tests/fuzz/regressions). CUDA_TIDY_FUZZ_SECONDS=0 stops
# after step 2.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${FUZZ_BUILD_DIR:-build-fuzz}
seconds=${CUDA_TIDY_FUZZ_SECONDS:-60}
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCUDA_TIDY_FUZZ=ON ${CMAKE_ARGS:-}
fi
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" \
      --target cuda_tidy_check_fuzzer cuda-tidy
ctest --test-dir "$build_dir" -R '^fuzz-regressions$' --output-on-failure
if [ "$seconds" -eq 0 ]; then
  exit 0
fi
corpus="$build_dir/fuzz-corpus"
artifacts="$build_dir/fuzz-artifacts"
rm -rf "$corpus"
mkdir -p "$corpus" "$artifacts"
CUDA_TIDY="$build_dir/bin/cuda-tidy" tests/fuzz/make-corpus.sh "$corpus"
cp tests/fuzz/regressions/*.cu "$corpus/"
# One process (see docs/reliability.md); -max_total_time bounds the run,
# -timeout and -rss_limit_mb each input.
"$build_dir/bin/cuda_tidy_check_fuzzer" "$corpus" -dict=tests/fuzz/cuda.dict \
  -max_total_time="$seconds" -max_len=16384 -timeout=20 -rss_limit_mb=4096 \
  -print_final_stats=1 -artifact_prefix="$artifacts/"
