#!/usr/bin/env bash
# The install is self-contained and relocatable (issue 37 §2): installs the
# build into a scratch prefix, moves the tree to another name, and runs it
# from a third folder with an empty environment (env -i: no PATH, no HOME, no
# CUDA_PATH) on copies of examples/. It must
#   - report exactly what the build tree's binary reports on those files;
#   - parse with the resource headers and the nvcc-compatibility header of
#     the moved tree (the exported clang command names them);
#   - read nothing under the source tree, the build tree or the LLVM it was
#     built against (strace of every file access, when strace is present);
#   - need only system libraries besides what the tree bundles (ldd);
#   - and its plugin must load into clang-tidy-22.
# Usage: relocated_install.sh <source dir> <build dir> <cuda-tidy in build>
#        <clang resource dir it was built against> <clang-tidy-22 or "">
set -euo pipefail
src=$1 build=$2 built_tidy=$3 llvm_resource=$4 clang_tidy=${5:-}
cuda=${CUDA_PATH:-/usr/local/cuda}
[ -f "$cuda/include/cuda.h" ] || { echo "SKIPPED: no CUDA toolkit at $cuda"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/staged" --strip > "$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install"; }
mv "$work/staged" "$work/moved"
tree=$work/moved
tidy=$tree/bin/cuda-tidy
for f in bin/cuda-tidy lib/libCudaTidyPlugin.so share/cuda-tidy/cuda_tidy_nvcc_compat.h \
         share/cuda-tidy/clang/*/include/__clang_cuda_runtime_wrapper.h; do
  compgen -G "$tree/$f" > /dev/null || fail "the install has no $f"
done

mkdir -p "$work/project" "$work/cwd"
cp "$src"/examples/*.cu "$work/project/"
files=("$work"/project/*.cu)
cd "$work/cwd"

# 1. The same findings as the build tree's binary, with an empty environment
# (the toolkit is found at /usr/local/cuda, or named when it is elsewhere).
cuda_arg=()
[ "$cuda" = /usr/local/cuda ] || cuda_arg=(--cuda-path="$cuda")
set +e
env -i "$tidy" "${cuda_arg[@]}" "${files[@]}" -- > "$work/moved.out" 2> "$work/moved.err"
rc=$?
env -i "$built_tidy" --no-cache "${cuda_arg[@]}" "${files[@]}" -- > "$work/built.out" 2> /dev/null
built_rc=$?
set -e
[ "$rc" -eq "$built_rc" ] || { cat "$work/moved.err"; fail "exit $rc, the build tree's binary $built_rc"; }
grep -q 'warning: .*\[cuda-' "$work/moved.out" || { cat "$work/moved.out" "$work/moved.err"; fail "no finding on examples/"; }
diff -u "$work/built.out" "$work/moved.out" || fail "the moved install reports differently"

# 2. What it parses with: the moved tree's resource folder and compat header.
env -i "$tidy" "${cuda_arg[@]}" --export-compile-commands="$work/exported" "${files[0]}" -- 2> /dev/null
python3 - "$work/exported/compile_commands.json" "$tree" <<'PY'
import json, sys
args = json.load(open(sys.argv[1]))[0]["arguments"]
tree = sys.argv[2]
want = ["-resource-dir=%s/share/cuda-tidy/clang/" % tree]
resource = [a for a in args if a.startswith("-resource-dir=")]
if len(resource) != 1 or not resource[0].startswith(want[0]):
    sys.exit("FAIL: resource folder %s, expected under %s" % (resource, want[0]))
i = args.index("-include")
if args[i - 1] != "%s/share/cuda-tidy" % tree or args[i + 1] != "cuda_tidy_nvcc_compat.h":
    sys.exit("FAIL: the compat header is not the moved tree's: %s" % args[i - 2:i + 2])
PY

# 3. Nothing read from the source tree, the build tree or the build's LLVM.
if command -v strace > /dev/null; then
  env -i strace -f -qq -e trace=%file -o "$work/trace" \
    "$tidy" --no-cache "${cuda_arg[@]}" "${files[@]}" -- > /dev/null 2>&1 || true
  grep -q "$tree/share/cuda-tidy/clang/" "$work/trace" || fail "strace saw no access to the bundled headers"
  llvm_root=$(cd "$llvm_resource/../../.." && pwd)   # /usr/lib/llvm-22
  for forbidden in "$src/" "$build/" "$llvm_root/" "$llvm_resource"; do
    if grep -F "\"$forbidden" "$work/trace" | head -5 | grep . ; then
      fail "the moved install read under $forbidden"
    fi
  done
else
  echo "note: no strace; file accesses not checked"
fi

# 4. Only system libraries besides the bundled ones.
for elf in "$tidy" "$tree"/lib/cuda-tidy/*.so*; do
  ldd "$elf" > "$work/ldd" || fail "ldd $elf"
  ! grep 'not found' "$work/ldd" || fail "$elf: a library is missing"
  while read -r name _ path _; do
    case "$name" in
      linux-vdso.so.*|/lib64/ld-linux-*|ld-linux-*) continue ;;
      libc.so.6|libm.so.6|libstdc++.so.6|libgcc_s.so.1|libz.so.1|libzstd.so.1|libpthread.so.0|libdl.so.2|librt.so.1) continue ;;
    esac
    case "$path" in
      "$tree"/*) continue ;;
    esac
    fail "$elf needs $name ($path), neither a system library nor bundled"
  done < "$work/ldd"
done
grep -q "libz3.so.4 => $tree/bin/../lib/cuda-tidy/" < <(ldd "$tidy") ||
  fail "libz3 does not come from the tree: $(ldd "$tidy" | grep z3)"

# 5. The installed plugin loads into the clang-tidy it was built for.
if [ -n "$clang_tidy" ] && [ -x "$clang_tidy" ]; then
  "$clang_tidy" --load="$tree/lib/libCudaTidyPlugin.so" --checks='-*,cuda-*' --list-checks |
    grep -q 'cuda-divergent-barrier' || fail "the installed plugin does not load into $clang_tidy"
fi
echo "relocated install: $(grep -c 'warning: ' "$work/moved.out") findings as the build's, bundled headers only, system libraries only"
