#!/usr/bin/env bash
# Configures tests/projects/<name> with CMake and nvcc (both generators) and
# lints it through its compile database with no file list (-p alone), then
# compares the findings with expected.txt (check, file, line per finding).
# Exit 77 when nvcc is missing.
set -euo pipefail
cuda_tidy=$1 project=$2 expected=$3
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
[ -x "$nvcc" ] || { echo "SKIPPED: no nvcc at $nvcc"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$project" "$work/src"
for gen in Ninja "Unix Makefiles"; do
  build="$work/build-${gen// /-}"
  cmake -S "$work/src" -B "$build" -G "$gen" -DCMAKE_CUDA_COMPILER="$nvcc" > "$work/configure.log" 2>&1 \
    || { cat "$work/configure.log"; exit 1; }
  # The Makefiles generator writes its include flags into .rsp files at
  # configure time and names them with --options-file.
  set +e
  "$cuda_tidy" -p "$build" --format=json --output="$work/findings.json" 2> "$work/stderr.txt"
  status=$?
  set -e
  [ "$status" -eq 0 ] || { echo "[$gen] cuda-tidy exited $status"; cat "$work/stderr.txt"; exit 1; }
  python3 - "$work/findings.json" "$work/src" "$expected" "$gen" <<'PY'
import json, os, sys
findings, root, expected_path, gen = sys.argv[1:5]
got = sorted("%s %s:%d" % (f["check"], os.path.relpath(os.path.join(os.getcwd(), f["file"]) if not os.path.isabs(f["file"]) else f["file"], root), f["line"])
             for f in json.load(open(findings))["findings"])
want = sorted(l.strip() for l in open(expected_path) if l.strip() and not l.startswith("#"))
if got != want:
    print("[%s] findings differ\n got: %s\nwant: %s" % (gen, got, want)); sys.exit(1)
print("[%s] %d findings as expected" % (gen, len(got)))
PY
done
