#!/usr/bin/env bash
# One command from a fresh machine: install the toolchain, build cuda-tidy,
# and run it on the bundled examples.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build_dir=${BUILD_DIR:-build}
echo
echo "== cuda-tidy on examples/ (findings are expected: these are the bugs it finds)"
set +e
"$build_dir/bin/cuda-tidy" examples/*.cu --
status=$?
set -e
echo "== cuda-tidy exited with $status (0: findings are warnings; see README for exit codes)"
