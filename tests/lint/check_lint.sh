#!/usr/bin/env bash
# Our own C++ stays clean under our .clang-tidy: runs what the `lint` target
# runs and fails on any finding (the target itself only prints them).
#   check_lint.sh <run-clang-tidy> <clang-tidy> <build dir> <source dir>
set -u
run_clang_tidy=$1 clang_tidy=$2 build_dir=$3 source_dir=$4
cd "$source_dir" || exit 1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$run_clang_tidy" -quiet -p "$build_dir" -clang-tidy-binary "$clang_tidy" \
  "^$source_dir/(checks|tool)/" >"$log" 2>&1
status=$?
findings=$(grep -cE '^/.*: (warning|error): ' "$log")
files=$(grep -cE '^\[[0-9]+/[0-9]+\]' "$log")
echo "lint: $files files, $findings findings (run-clang-tidy exit $status)"
if [ "$findings" -ne 0 ] || [ "$status" -ne 0 ] || [ "$files" -eq 0 ]; then
  grep -E -A4 ': (warning|error): ' "$log" | head -200
  exit 1
fi
