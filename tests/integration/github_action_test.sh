#!/usr/bin/env bash
# Runs action.yml (the composite GitHub action) step by step with
# run_action.py, the way a runner would, on a scratch CMake + nvcc
# repository with the cuda-tidy wheel built from this build (pip offline):
#   1. a pull request from the same repository whose change has a finding:
#      the annotation, the job fails (exit 1), the SARIF is uploaded, the
#      cache is saved;
#   2. the same change from a fork: the annotation and the failure, no
#      upload (a fork's token cannot write security events);
#   3. a push to the default branch with that finding fixed: every finding
#      counts, none left, the job passes, the SARIF is uploaded, and the
#      cache saved by run 1 is restored.
# Exit 77 without nvcc, cmake or PyYAML.
# Usage: github_action_test.sh <source dir> <build dir>
set -euo pipefail
src=$1 build=$2
python=${PYTHON:-python3}
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "SKIPPED: no nvcc at $nvcc"; exit 77; }
command -v cmake > /dev/null || { echo "SKIPPED: no cmake"; exit 77; }
"$python" -c 'import yaml' 2> /dev/null || { echo "SKIPPED: no PyYAML for $python"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
export CUDACXX=$nvcc HOME=$work/home PIP_NO_INDEX=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
unset XDG_CACHE_HOME
mkdir -p "$HOME" "$work/state"
wheel=$("$python" "$src/packaging/python/build_wheel.py" --build-dir "$build" --out "$work/dist")

git init -q --bare -b main "$work/origin.git"
git clone -q "$work/origin.git" "$work/repo" 2> /dev/null
cd "$work/repo"
mkdir src
cat > CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(scratch LANGUAGES CUDA)
set(CMAKE_CUDA_ARCHITECTURES 90)
add_library(kernels src/a.cu src/b.cu)
CMAKE
printf '__global__ void a(float *x) { x[threadIdx.x] = 1.0f; }\n' > src/a.cu
printf '#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__device__ void ok(const cg::thread_block &g) { g.sync(); }\n' > src/b.cu
printf 'build/\ncuda-tidy.sarif\n' > .gitignore
git add -A && git commit -qm base && git push -q origin main
git checkout -qb change
printf '__device__ void byValue(cg::thread_block g) { g.sync(); }\n' >> src/b.cu
git commit -qam "a finding"
cmake -S . -B build -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "cmake could not write the database"; }

# run_job EVENT HEAD_REPO: the action's steps; output in job.out, exit in job_rc.
run_job() {
  cat > "$work/context.json" <<JSON
{"inputs": {"wheel": "$wheel"},
 "github": {"event_name": "$1", "base_ref": "$([ "$1" = push ] || echo main)", "sha": "$(git rev-parse HEAD)",
            "repository": "org/scratch", "actor": "someone",
            "event": {"pull_request": {"head": {"repo": {"full_name": "$2"}}}}}}
JSON
  rm -f "$work/state/uploads.txt" cuda-tidy.sarif
  set +e
  "$python" "$src/tests/integration/run_action.py" "$src/action.yml" "$work/state" "$work/context.json" > job.out 2>&1
  job_rc=$?
  set -e
}

# 1. A pull request from the same repository.
run_job pull_request org/scratch
[ "$job_rc" -eq 1 ] || { cat job.out; fail "same-repo pull request: job exit $job_rc, expected 1"; }
grep -q '^::error file=src/b.cu,line=4,col=[0-9]*,title=cuda-group-by-value::' job.out ||
  { cat job.out; fail "no annotation for src/b.cu:4"; }
grep -q 'upload-sarif@v4 cuda-tidy 1$' "$work/state/uploads.txt" 2> /dev/null ||
  { cat job.out; fail "the SARIF (1 result) was not uploaded"; }
grep -q '^cache saved with key: cuda-tidy-Linux-' job.out || { cat job.out; fail "the cache was not saved"; }
compgen -G "$work/state/actions-cache/cuda-tidy-Linux-*/*" > /dev/null || fail "the saved cache is empty"

# 2. The same change from a fork.
run_job pull_request someone/scratch-fork
[ "$job_rc" -eq 1 ] || { cat job.out; fail "fork pull request: job exit $job_rc, expected 1"; }
grep -q '^::error file=src/b.cu,line=4,' job.out || { cat job.out; fail "fork: no annotation"; }
grep -q '^::step-skipped::Upload SARIF to code scanning' job.out || { cat job.out; fail "fork: the upload was not skipped"; }
[ ! -e "$work/state/uploads.txt" ] || fail "fork: SARIF uploaded"

# 3. A push to the default branch with the finding fixed, on a fresh
# runner (empty home) that restores run 1's cache.
git checkout -q main
rm -rf "$HOME/.cache"
printf '__device__ void byRef(const cg::thread_block &g) { g.sync(); }\n' >> src/b.cu
git commit -qam "fixed"
run_job push ""
[ "$job_rc" -eq 0 ] || { cat job.out; fail "push: job exit $job_rc, expected 0"; }
grep -q '^cache restored from key: cuda-tidy-Linux-' job.out || { cat job.out; fail "push: no cache restored"; }
grep -q 'upload-sarif@v4 cuda-tidy 0$' "$work/state/uploads.txt" 2> /dev/null || { cat job.out; fail "push: no upload"; }
! grep -q '^::error' job.out || { cat job.out; fail "push: an annotation on clean code"; }
echo "github action: same-repo PR annotated, failed, uploaded, cache saved; fork PR annotated, failed, upload skipped; push passed, uploaded, cache restored"
