#!/usr/bin/env bash
# The test suite: builds if needed, then runs every test through ctest
# (GoogleTest units, lit files through both front-ends, CLI tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
# The SARIF test validates with Microsoft's multitool (npm); without it that
# one test reports itself skipped.
scripts/install-sarif-validator.sh || echo "(no SARIF validator: its test will be skipped)"
build_dir=${BUILD_DIR:-build}
# Tests labelled "slow" (none today) are left out; ctest -L slow runs them.
ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-$(nproc)}" -LE slow "$@"
