#!/usr/bin/env bash
# The test suite: builds if needed, then runs every test through ctest
# (GoogleTest units, lit files through both front-ends, CLI tests).
#   scripts/test.sh [--all] [ctest arguments...]
# Tests labelled "slow" (the per-file budgets and the quadratic families at
# full size in tests/lit/slow, cache-fuzz-long, cache-identity-whole,
# lint-whole) and "package" (the install, CPack, the wheel, the pre-commit
# wheel, the GitHub action: they copy, strip and compress the 200 MB binary)
# are left out unless --all is given first; ctest -L slow, ctest -L package
# run only them. CI (.ci/run) runs the default suite, then
# scripts/test.sh --all -L package.
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
if [ "${1:-}" = "--all" ]; then
  all=1
  shift
fi
scripts/build.sh
# The SARIF test validates with Microsoft's multitool (npm); without it that
# one test reports itself skipped.
scripts/install-sarif-validator.sh || echo "(no SARIF validator: its test will be skipped)"
build_dir=${BUILD_DIR:-build}
if [ "$all" -eq 1 ]; then
  ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-$(nproc)}" "$@"
else
  ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-$(nproc)}" -LE 'slow|package' "$@"
fi
