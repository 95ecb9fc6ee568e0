#!/usr/bin/env bash
# The Python wheel (packaging/python/build_wheel.py, issue 37 §2): builds it
# from the build's install, installs it into a fresh venv with no index
# (pip install --no-index), and runs its `cuda-tidy` console script on copies
# of examples/ from another folder, with PATH holding only the venv and the
# system: it must report what the build tree's binary reports, run the
# binary inside the installed package (not the build's), and pass exit codes
# through (1 with --warnings-as-errors, 2 on a bad flag).
# Usage: wheel_test.sh <source dir> <build dir> <cuda-tidy in build>
set -euo pipefail
src=$1 build=$2 built_tidy=$3
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$python" -m venv "$work/venv" 2> "$work/venv.err" ||
  { cat "$work/venv.err"; echo "SKIPPED: $python -m venv failed (python3-venv missing?)"; exit 77; }

wheel=$("$python" "$src/packaging/python/build_wheel.py" --build-dir "$build" --out "$work/dist")
case "$(basename "$wheel")" in
  cuda_tidy-*-py3-none-manylinux_2_*_"$(uname -m)".whl) ;;
  *) fail "unexpected wheel name $wheel" ;;
esac
"$work/venv/bin/pip" install --quiet --no-index "$wheel" || fail "pip install --no-index $wheel"
"$work/venv/bin/pip" check > /dev/null || fail "pip check"

mkdir -p "$work/project" "$work/cwd"
cp "$src"/examples/*.cu "$work/project/"
cd "$work/cwd"
export PATH="$work/venv/bin:/usr/bin:/bin"
[ "$(command -v cuda-tidy)" = "$work/venv/bin/cuda-tidy" ] || fail "cuda-tidy on PATH is $(command -v cuda-tidy)"
set +e
cuda-tidy --no-cache "$work"/project/*.cu -- > "$work/wheel.out" 2> "$work/wheel.err"
rc=$?
"$built_tidy" --no-cache "$work"/project/*.cu -- > "$work/built.out" 2> /dev/null
built_rc=$?
set -e
[ "$rc" -eq "$built_rc" ] || { cat "$work/wheel.err"; fail "exit $rc, the build's binary $built_rc"; }
grep -q 'warning: .*\[cuda-' "$work/wheel.out" || { cat "$work/wheel.out" "$work/wheel.err"; fail "no finding"; }
diff -u "$work/built.out" "$work/wheel.out" || fail "the wheel's cuda-tidy reports differently"

# The console script runs the binary of the installed package, which finds
# its headers beside itself.
exe=$("$work/venv/bin/python" -c 'import cuda_tidy; print(cuda_tidy.binary())')
case "$exe" in "$work/venv/"*) ;; *) fail "the bundled binary is at $exe" ;; esac
cuda-tidy --export-compile-commands="$work/exported" "$work/project/tile_reduce.cu" -- 2> /dev/null
grep -q -- "-resource-dir=$(dirname "$(dirname "$exe")")/share/cuda-tidy/clang/" "$work/exported/compile_commands.json" ||
  fail "not parsed with the wheel's resource headers: $(cat "$work/exported/compile_commands.json")"

# Exit codes pass through the console script.
set +e
cuda-tidy --warnings-as-errors='cuda-*' "$work/project/tile_reduce.cu" -- > /dev/null 2>&1; gate=$?
cuda-tidy --no-such-flag > /dev/null 2>&1; usage=$?
"$work/venv/bin/python" -m cuda_tidy --version > "$work/version" 2>&1; module=$?
set -e
[ "$gate" -eq 1 ] || fail "--warnings-as-errors exit $gate, expected 1"
[ "$usage" -eq 2 ] || fail "a bad flag exit $usage, expected 2"
[ "$module" -eq 0 ] && grep -q '^cuda-tidy ' "$work/version" || fail "python -m cuda_tidy --version: $(cat "$work/version")"
echo "wheel: $(basename "$wheel") installed offline; $(grep -c 'warning: ' "$work/wheel.out") findings as the build's; exit codes 1 and 2 pass through"
