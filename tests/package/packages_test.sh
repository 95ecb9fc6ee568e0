#!/usr/bin/env bash
# The CPack packages (packaging/cpack.cmake, issue 37 §2): builds the
# .tar.gz and the .deb from the build, then unpacks each into a scratch
# folder (the .deb with dpkg-deb -x, as dpkg would lay it out under /, so
# nothing is installed on this machine) and runs its cuda-tidy with an empty
# environment from another folder on copies of examples/: the findings must
# be the build tree's. The .deb's control fields name the system libraries
# the binary links (ldd), and nothing outside them is needed.
# Usage: packages_test.sh <source dir> <build dir> <cuda-tidy in build>
set -euo pipefail
src=$1 build=$2 built_tidy=$3
cuda=${CUDA_PATH:-/usr/local/cuda}
[ -f "$cuda/include/cuda.h" ] || { echo "SKIPPED: no CUDA toolkit at $cuda"; exit 77; }
command -v dpkg-deb > /dev/null || { echo "SKIPPED: no dpkg-deb"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work/packages" > cpack.log 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack"; }
tgz=$(compgen -G "$work/packages/cuda-tidy-*-linux-*.tar.gz") || fail "no .tar.gz: $(ls "$work/packages")"
deb=$(compgen -G "$work/packages/cuda-tidy_*_*.deb") || fail "no .deb: $(ls "$work/packages")"

mkdir -p "$work/project" "$work/cwd" "$work/tgz" "$work/deb"
cp "$src"/examples/*.cu "$work/project/"
tar -xzf "$tgz" -C "$work/tgz"
dpkg-deb -x "$deb" "$work/deb"
tgz_tidy=$(compgen -G "$work/tgz/cuda-tidy-*/bin/cuda-tidy") || fail "the tarball has no <top>/bin/cuda-tidy"
deb_tidy=$work/deb/usr/bin/cuda-tidy
[ -x "$deb_tidy" ] || fail "the .deb has no usr/bin/cuda-tidy"

cuda_arg=()
[ "$cuda" = /usr/local/cuda ] || cuda_arg=(--cuda-path="$cuda")
cd "$work/cwd"
"$built_tidy" --no-cache "${cuda_arg[@]}" "$work"/project/*.cu -- > "$work/built.out" 2> /dev/null || true
grep -q 'warning: .*\[cuda-' "$work/built.out" || fail "the build's binary found nothing on examples/"
for tidy in "$tgz_tidy" "$deb_tidy"; do
  env -i "$tidy" "${cuda_arg[@]}" "$work"/project/*.cu -- > "$work/pkg.out" 2> "$work/pkg.err" || true
  diff -u "$work/built.out" "$work/pkg.out" || { cat "$work/pkg.err"; fail "$tidy reports differently"; }
  env -i "$tidy" "${cuda_arg[@]}" --export-compile-commands="$work/exported" "$work/project/tile_reduce.cu" -- 2> /dev/null
  grep -q -- "-resource-dir=$(dirname "$(dirname "$tidy")")/share/cuda-tidy/clang/" "$work/exported/compile_commands.json" ||
    fail "$tidy does not parse with its own resource headers"
done

# The .deb: its name, and Depends naming every system library ldd lists.
info=$(dpkg-deb -f "$deb" Package Version Architecture Depends)
echo "$info" | grep -qx 'Package: cuda-tidy' || fail "package name: $info"
echo "$info" | grep -qx "Architecture: $(dpkg --print-architecture)" || fail "architecture: $info"
depends=$(dpkg-deb -f "$deb" Depends)
while read -r name _ path _; do
  case "$path" in "$work/deb/"*) continue ;; esac
  case "$name" in
    linux-vdso.so.*|/lib64/ld-linux-*|ld-linux-*) continue ;;
    libc.so.6|libm.so.6) pkg=libc6 ;;
    libstdc++.so.6) pkg=libstdc++6 ;;
    libgcc_s.so.1) pkg=libgcc-s1 ;;
    libz.so.1) pkg=zlib1g ;;
    libzstd.so.1) pkg=libzstd1 ;;
    *) fail "the .deb's cuda-tidy needs $name ($path), which neither it nor Depends provides" ;;
  esac
  case ", $depends," in *", $pkg"[\ ,]*) ;; *) fail "Depends ($depends) lacks $pkg for $name" ;; esac
done < <(ldd "$deb_tidy"; ldd "$work"/deb/usr/lib/cuda-tidy/*.so*)
# The Dockerfile installs the .deb: in a context laid out as the build
# leaves it (build/packages/), every COPY source matches a file that the
# .dockerignore lets through (Docker's rules: the last matching pattern wins,
# `!` lets a path back in, * stops at /, a pattern that matches a folder
# matches what is in it).
mkdir -p "$work/context/build/packages"
cp "$src/Dockerfile" "$src/.dockerignore" "$work/context/"
cp "$deb" "$tgz" "$work/context/build/packages/"
python3 - "$work/context" <<'PY' || fail "the Dockerfile's COPY sources"
import glob, os, re, sys
ctx = sys.argv[1]
rules = []
for line in open(os.path.join(ctx, ".dockerignore")):
    line = line.strip()
    if line and not line.startswith("#"):
        neg = line.startswith("!")
        pat = line.lstrip("!").strip("/")
        rx = "".join(".*" if t == "**" else "[^/]*" if t == "*" else "[^/]" if t == "?"
                     else re.escape(t) for t in re.split(r"(\*\*|\*|\?)", pat))
        rules.append((neg, re.compile(rx + "(/.*)?$")))
def sent(path):
    keep = True
    for neg, rx in rules:
        if rx.match(path):
            keep = neg
    return keep
text = re.sub(r"\\\n", " ", open(os.path.join(ctx, "Dockerfile")).read())
copies = 0
for line in text.splitlines():
    words = line.split()
    if not words or words[0].upper() not in ("COPY", "ADD"):
        continue
    args = [w for w in words[1:] if not w.startswith("--")]
    if any(w.startswith("--from") for w in words):
        continue
    for source in args[:-1]:
        copies += 1
        found = [os.path.relpath(p, ctx) for p in glob.glob(os.path.join(ctx, source))]
        found = [p for p in found if sent(p)]
        if not found:
            sys.exit("COPY %s: nothing in the context (after .dockerignore)" % source)
        dest = args[-1]
        if not re.search(re.escape(dest.rstrip("/")) + "/" + re.escape(os.path.basename(source)).replace("\\*", "\\S*"), text):
            sys.exit("nothing in the Dockerfile uses %s%s" % (dest, os.path.basename(source)))
if copies == 0:
    sys.exit("the Dockerfile copies nothing")
# Only the package goes into the context, not the tree.
for p in ("CMakeLists.txt", "build/packages/" + os.path.basename(glob.glob(os.path.join(ctx, "build/packages/*.tar.gz"))[0])):
    if sent(p):
        sys.exit(".dockerignore sends %s" % p)
PY
echo "packages: $(basename "$tgz") and $(basename "$deb") each report the build's $(grep -c 'warning: ' "$work/built.out") findings from a scratch folder"
