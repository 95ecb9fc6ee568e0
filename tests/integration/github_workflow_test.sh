#!/usr/bin/env bash
# Runs the lint steps of docs/examples/github-workflow.yml, read from the
# page, on a scratch CMake + nvcc repository with a pull-request branch, the
# way GitHub Actions would (the `run:` scripts under bash, with
# ${{ github.base_ref }} = main): a change with no finding passes, a header
# and a file named with a space and a comma each get their annotation and
# fail the step. Exit 77 (skipped) without nvcc, cmake or PyYAML.
set -euo pipefail
repo_root=$1
cuda_tidy_bin=$2
workflow=$repo_root/docs/examples/github-workflow.yml
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "SKIPPED: no nvcc at $nvcc"; exit 77; }
command -v cmake >/dev/null || { echo "SKIPPED: no cmake"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "SKIPPED: no PyYAML"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$(dirname "$cuda_tidy_bin"):$PATH" CUDACXX=$nvcc
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t

# The step scripts, by name, with the pull request's base branch filled in.
step() {
  python3 - "$workflow" "$1" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
for job in doc["jobs"].values():
    for s in job["steps"]:
        if s.get("name") == sys.argv[2]:
            print(s["run"].replace("${{ github.base_ref }}", "main"))
            sys.exit(0)
sys.exit("no step named %r in %s" % (sys.argv[2], sys.argv[1]))
PY
}
configure=$(step "Configure (compile database only)")
lint=$(step "Lint, annotate changed lines")
sarif=$(step "Full SARIF for code scanning")

git init -q --bare -b main "$work/origin.git"
git clone -q "$work/origin.git" "$work/repo" 2>/dev/null
cd "$work/repo"
mkdir src
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(scratch LANGUAGES CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
add_library(kernels "src/my kernel, v2.cu" src/other.cu)
CMAKE
cat > src/util.cuh <<'CUH'
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ inline void together(cg::thread_block &b) { b.sync(); }
CUH
printf '#include "util.cuh"\n__global__ void spaced(float *x) {\n  together(*new cg::thread_block(cg::this_thread_block()));\n  x[threadIdx.x] = 1.0f;\n}\n' > "src/my kernel, v2.cu"
printf '// other kernels\n__global__ void other(float *x) { x[threadIdx.x] = 2.0f; }\n' > src/other.cu
git add -A && git commit -qm base && git push -q origin main
git checkout -qb change

# Runs the three steps; the lint step's output and exit code are kept.
run_steps() {
  rm -rf build
  bash -eo pipefail -c "$configure" > configure.log 2>&1 || { cat configure.log; exit 1; }
  set +e
  bash -eo pipefail -c "$lint" > lint.out 2>&1
  lint_rc=$?
  bash -eo pipefail -c "$sarif" > sarif.out 2>&1
  sarif_rc=$?
  set -e
  [ "$sarif_rc" -eq 0 ] || { echo "SARIF step failed ($sarif_rc):"; cat sarif.out; exit 1; }
  python3 -c 'import json,sys; json.load(open("cuda-tidy.sarif"))' ||
    { echo "the SARIF step wrote no valid report"; exit 1; }
}

# 1. A clean change (a comment): the lint step passes.
sed -i 's|// other kernels|// other kernels, reworded|' src/other.cu
git commit -qam "clean change"
run_steps
[ "$lint_rc" -eq 0 ] || { echo "a clean change failed the lint step ($lint_rc):"; cat lint.out; exit 1; }

# 2. A finding in the header, changed by the pull request.
sed -i 's|together(cg::thread_block &b)|together(cg::thread_block b)|' src/util.cuh
git commit -qam "header finding"
run_steps
[ "$lint_rc" -ne 0 ] || { echo "a header finding did not fail the lint step:"; cat lint.out; exit 1; }
grep -q '^::error file=src/util.cuh,line=4,' lint.out ||
  { echo "expected the header's annotation:"; cat lint.out; exit 1; }

# 3. A finding in the file whose name has a space and a comma (a property
# value's comma is written %2C in a workflow command).
git revert --no-edit HEAD > /dev/null
printf '__device__ void byValue(cg::thread_block g) { g.sync(); }\n' >> "src/my kernel, v2.cu"
git commit -qam "spaced finding"
run_steps
[ "$lint_rc" -ne 0 ] || { echo "the finding did not fail the lint step:"; cat lint.out; exit 1; }
grep -q '^::error file=src/my kernel%2C v2.cu,line=6,' lint.out ||
  { echo "expected the annotation of 'src/my kernel, v2.cu':"; cat lint.out; exit 1; }
if grep -q 'util.cuh' lint.out; then
  echo "a finding on an unchanged line was annotated:"; cat lint.out; exit 1
fi
echo "github workflow: clean change passed; header and 'my kernel, v2.cu' findings annotated and failed the step"
