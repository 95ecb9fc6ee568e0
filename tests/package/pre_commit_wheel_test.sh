#!/usr/bin/env bash
# The `language: python` pre-commit hook (id cuda-tidy-python) under
# Debian's pre-commit, offline: pre-commit pip-installs a snapshot of this
# repository (its pyproject.toml builds the cuda-tidy-pre-commit package,
# with no build requirement) and the cuda-tidy wheel it depends on, found
# through PIP_FIND_LINKS with PIP_NO_INDEX as a private mirror would serve
# it. No cuda-tidy is on PATH: a staged kernel with a finding fails the
# commit, a clean one passes. Exit 77 without pre-commit.
# Usage: pre_commit_wheel_test.sh <source dir> <build dir> <lit Inputs dir>
set -euo pipefail
src=$1 build=$2 inputs=$3
command -v pre-commit > /dev/null || { echo "SKIPPED: pre-commit not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t

"${PYTHON:-python3}" "$src/packaging/python/build_wheel.py" --build-dir "$build" --out "$work/wheels" > /dev/null

# The hook repository as a clone of this tree would have it: its tracked and
# not-ignored files (try-repo on the tree itself would leave out new files
# not yet committed), committed in a scratch repository that the scratch
# project's .pre-commit-config.yaml names.
mkdir "$work/hooks"
(cd "$src" && git ls-files -z -c -o --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work/hooks"
git -C "$work/hooks" init -q && git -C "$work/hooks" add -A && git -C "$work/hooks" commit -qm snapshot

export PRE_COMMIT_HOME=$work/cache PIP_NO_INDEX=1 PIP_FIND_LINKS=$work/wheels
export PATH=/usr/bin:/bin
! command -v cuda-tidy > /dev/null || fail "cuda-tidy is on PATH ($(command -v cuda-tidy)); the test needs it absent"
cd "$work" && git init -q scratch && cd scratch
# A user's configuration naming the hook repository and its commit.
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $work/hooks
    rev: $(git -C "$work/hooks" rev-parse HEAD)
    hooks:
      - id: cuda-tidy-python
YAML
git add .pre-commit-config.yaml
run_hook() { pre-commit run --files "$@" 2>&1; }

cp "$inputs/clean.cu" clean.cu && git add clean.cu
out=$(run_hook clean.cu) || fail "clean file failed the hook: $out"
echo "$out" | grep -q "cuda-tidy.*Passed" || fail "expected Passed: $out"

cp "$src/examples/tile_reduce.cu" bad.cu && git add bad.cu
if out=$(run_hook bad.cu); then fail "a finding did not fail the hook: $out"; fi
echo "$out" | grep -q "cuda-tidy.*Failed" || fail "expected Failed: $out"
echo "$out" | grep -q "bad.cu:8:52: error: cooperative-groups handle 'warp'.*\[cuda-group-by-value,-warnings-as-errors\]" ||
  fail "expected the by-value finding: $out"
# pre-commit's environment holds the wheel's binary.
compgen -G "$PRE_COMMIT_HOME/repo*/py_env-*/lib/python3*/site-packages/cuda_tidy/data/bin/cuda-tidy" > /dev/null ||
  { find "$PRE_COMMIT_HOME" -maxdepth 6 -name "cuda_tidy*" >&2; fail "no cuda-tidy wheel in pre-commit's environment"; }
echo "pre-commit (language: python): installed the hook and the wheel offline; clean file passed, finding failed the commit"
