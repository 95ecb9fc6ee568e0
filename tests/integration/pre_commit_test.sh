#!/usr/bin/env bash
# Runs Debian's pre-commit against a scratch repository, offline, with this
# repository's .pre-commit-hooks.yaml (pre-commit try-repo): a staged kernel
# with a finding fails the commit, a clean one passes, a header staged with
# the file that includes it is reported once. Exit 77 when pre-commit is
# missing (ctest reports the test skipped).
set -euo pipefail
repo_root=$1
cuda_tidy_bin=$2
inputs=$3
command -v pre-commit >/dev/null || { echo "SKIPPED: pre-commit not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME=$work/cache PATH="$(dirname "$cuda_tidy_bin"):$PATH"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
cd "$work" && git init -q scratch && cd scratch

# try-repo takes the hook repository's HEAD plus its uncommitted changes.
run_hook() { pre-commit try-repo "$repo_root" cuda-tidy --files "$@" 2>&1; }

cp "$inputs/clean.cu" clean.cu && git add clean.cu
out=$(run_hook clean.cu) || { echo "clean file failed the hook:"; echo "$out"; exit 1; }
echo "$out" | grep -q "cuda-tidy.*Passed" || { echo "expected Passed:"; echo "$out"; exit 1; }

cat > util.cuh <<'CUH'
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ inline void headerByValue(cg::thread_block b) { b.sync(); }
CUH
printf '#include "util.cuh"\n__global__ void k() { headerByValue(cg::this_thread_block()); }\n' > user.cu
git add util.cuh user.cu
if out=$(run_hook util.cuh user.cu); then
  echo "a finding did not fail the hook:"; echo "$out"; exit 1
fi
echo "$out" | grep -q "cuda-tidy.*Failed" || { echo "expected Failed:"; echo "$out"; exit 1; }
count=$(echo "$out" | grep -c "util.cuh:4:55: error: cooperative-groups handle 'b'" || true)
[ "$count" -eq 1 ] || { echo "the header finding was reported $count times, expected once:"; echo "$out"; exit 1; }

# The compile database is found where IDEs and presets put it: the finding
# below exists only with the database's -DFROM_DATABASE.
cat > dbonly.cu <<'CU'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#ifdef FROM_DATABASE
__device__ void databaseByValue(cg::thread_block b) { b.sync(); }
#endif
CU
git add dbonly.cu
for dir in out/build/debug-preset cmake-build-relwithdebinfo build; do
  rm -rf out cmake-build-relwithdebinfo build && mkdir -p "$dir"
  printf '[{"directory": "%s", "file": "dbonly.cu", "command": "clang++ -x cuda -DFROM_DATABASE -c dbonly.cu"}]\n' "$PWD" > "$dir/compile_commands.json"
  if out=$(run_hook dbonly.cu); then
    echo "the database in $dir was not used:"; echo "$out"; exit 1
  fi
  echo "$out" | grep -q "dbonly.cu:4:50: error: cooperative-groups handle 'b'" ||
    { echo "expected the database-only finding with $dir:"; echo "$out"; exit 1; }
done
echo "pre-commit hook: clean file passed, finding failed the commit, header reported once, databases found in out/build/*/, cmake-build-*/ and build/"
