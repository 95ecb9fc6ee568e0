#!/usr/bin/env bash
# Runs the sharded GitHub Actions workflow of docs/integrations.md
# ("Cross-file findings"), read from the page, on a scratch CMake + nvcc -rdc
# project whose kernels and launches are in different files: each matrix
# shard's lint step with its own $RUNNER_TEMP, upload-artifact and
# download-artifact (merge-multiple) played by copying the `path:` folders,
# then the join step. The shards' annotations plus the join's must be those
# of one whole run. Exit 77 (skipped) without nvcc, cmake or PyYAML.
set -euo pipefail
repo_root=$1
cuda_tidy_bin=$2
page=$repo_root/docs/integrations.md
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "SKIPPED: no nvcc at $nvcc"; exit 77; }
command -v cmake >/dev/null || { echo "SKIPPED: no cmake"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "SKIPPED: no PyYAML"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$(dirname "$cuda_tidy_bin"):$PATH" CUDACXX=$nvcc

# The workflow: the ```yaml block of the page that names
# cuda-tidy-sharded.yml.
python3 - "$page" > "$work/workflow.yml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
    if "cuda-tidy-sharded.yml" in block:
        print(block)
        sys.exit(0)
sys.exit("no sharded workflow in " + sys.argv[1])
PY
# field JOB STEP-NAME-OR-USES KEY: a step's `run` script or one of its `with`.
field() {
  python3 - "$work/workflow.yml" "$@" <<'PY'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
job, step, key = sys.argv[2:5]
if key == "matrix":
    print(" ".join(str(s) for s in doc["jobs"][job]["strategy"]["matrix"]["shard"]))
    sys.exit(0)
for s in doc["jobs"][job]["steps"]:
    if s.get("name") == step or s.get("uses", "").startswith(step):
        print(s["run"] if key == "run" else s["with"][key])
        sys.exit(0)
sys.exit("no step %r in job %r" % (step, job))
PY
}
shards=$(field lint - matrix)
lint=$(field lint "Lint one shard, record its launches" run)
upload_path=$(field lint actions/upload-artifact path)
download_path=$(field join actions/download-artifact path)
join=$(field join "Cross-file findings" run)

# The project: two files of kernels that synchronize the grid, three files
# that launch them without a cooperative launch.
mkdir -p "$work/repo/src" && cd "$work/repo"
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(scratch LANGUAGES CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
file(GLOB sources src/*.cu)
add_library(kernels ${sources})
set_target_properties(kernels PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
CMAKE
printf '#pragma once\n__global__ void step_a(float *x);\n__global__ void step_b(float *x);\n' > src/kernels.cuh
for k in a b; do
  printf '#include <cooperative_groups.h>\n#include "kernels.cuh"\n__global__ void step_%s(float *x) {\n  x[0] = 1;\n  cooperative_groups::this_grid().sync();\n}\n' "$k" > "src/kernel_$k.cu"
done
for j in 1 2 3; do
  printf '#include "kernels.cuh"\nvoid run_%s(float *x) {\n  step_a<<<64, 128>>>(x);\n  step_b<<<64, 128>>>(x);\n}\n' "$j" > "src/launch_$j.cu"
done
cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; exit 1; }

# The reference: one whole run, as the plain workflow lints.
set +e
cuda-tidy -p build --format=github --warnings-as-errors='cuda-*' > "$work/whole.out" 2>&1
set -e
grep '^::' "$work/whole.out" | sort > "$work/whole.txt"
[ "$(grep -c 'synchronizes the whole grid' "$work/whole.txt")" -eq 6 ] ||
  { echo "expected 6 cross-file findings in the whole run:"; cat "$work/whole.out"; exit 1; }

# Each shard on its "runner", its index uploaded; then the join downloads
# every artifact into one folder and joins it.
: > "$work/sharded.txt"
for k in $shards; do
  runner=$work/runner-$k && mkdir -p "$runner"
  script=${lint//'${{ matrix.shard }}'/$k}
  set +e
  RUNNER_TEMP=$runner bash -eo pipefail -c "$script" > "$work/shard-$k.out" 2>&1
  set -e
  grep '^::' "$work/shard-$k.out" >> "$work/sharded.txt" || true
  if grep -q 'synchronizes the whole grid' "$work/shard-$k.out"; then
    echo "shard $k reported a cross-file finding:"; cat "$work/shard-$k.out"; exit 1
  fi
  from=${upload_path//'${{ runner.temp }}'/$runner}
  mkdir -p "$work/artifacts/$k" && cp -R "$from/." "$work/artifacts/$k/"
done
join_runner=$work/runner-join
into=${download_path//'${{ runner.temp }}'/$join_runner}
mkdir -p "$into"
for k in $shards; do cp -R "$work/artifacts/$k/." "$into/"; done
set +e
RUNNER_TEMP=$join_runner bash -eo pipefail -c "$join" > "$work/join.out" 2>&1
join_rc=$?
set -e
[ "$join_rc" -eq 1 ] || { echo "the join step should fail on its findings (exit $join_rc):"; cat "$work/join.out"; exit 1; }
grep '^::' "$work/join.out" >> "$work/sharded.txt"
sort "$work/sharded.txt" > "$work/sharded-sorted.txt"
if ! diff "$work/whole.txt" "$work/sharded-sorted.txt"; then
  echo "the shards plus the join differ from one whole run (< whole, > shards + join)"; exit 1
fi
echo "github sharded workflow: $(echo $shards | wc -w) shards + the join = one whole run ($(wc -l < "$work/whole.txt") annotations)"
