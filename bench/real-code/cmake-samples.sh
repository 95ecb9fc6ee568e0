#!/usr/bin/env bash
# NVIDIA/cuda-samples configured whole with CMake (nvcc, Ninja, exported
# compile database), then cuda-tidy run from the source root over the
# database's .cu files with relative paths and -j N (issue 15, "Done when").
# Prints: the .cu files of the tree, those in the database, those analyzed,
# each file that failed with its first error; then why each other .cu file
# of the tree has no compile command (configure skipped its sample, its
# folder is not in the project, a custom -fatbin/-ptx command, NVRTC, ...)
# and how those fare named on their own; and two checks: no crash (exit
# code 0, 1 or 3, no stack dump), no file opened under the wrong folder
# ("Error while processing" naming a path that is not the source tree's).
# Numbers of a run: docs/integrations.md, "Measured: cuda-samples
# configured whole".
#
# Usage: bench/real-code/cmake-samples.sh [--mirrors DIR] [--work DIR]
#          [--cuda-tidy PATH] [--nvcc PATH] [-j N] [--commit SHA]
#          [-- <more cuda-tidy flags>]
# Defaults: --mirrors /work/.mirror (the bare git folder is
# NVIDIA+cuda-samples/repo there), --work /work/corpora/cs-cmake (outside the
# repository: the tree is extracted there, built in build/, logs in logs/),
# --cuda-tidy build/bin/cuda-tidy, --nvcc /usr/local/cuda/bin/nvcc, -j 2,
# the commit docs/accuracy.md pins. Exit 77 (skipped) without the mirror or
# nvcc; 1 when a check fails; else 0, also when files failed (they are
# listed: the ones that need absent SDKs or headers are expected).
# No third-party file is copied into this repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mirrors=/work/.mirror
work=/work/corpora/cs-cmake
cuda_tidy=$repo/build/bin/cuda-tidy
nvcc=/usr/local/cuda/bin/nvcc
jobs=2
commit=c94ff366aed18c797b8a85dfaac7817b0228b420
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --mirrors) mirrors=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --cuda-tidy) cuda_tidy=$2; shift 2 ;;
    --nvcc) nvcc=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --commit) commit=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "cmake-samples: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
gitdir=$mirrors/NVIDIA+cuda-samples/repo
if [ ! -d "$gitdir" ]; then
  echo "cmake-samples: skipped: no mirror of NVIDIA/cuda-samples at $gitdir"
  exit 77
fi
if [ ! -x "$nvcc" ]; then
  echo "cmake-samples: skipped: no nvcc at $nvcc"
  exit 77
fi
[ -x "$cuda_tidy" ] || { echo "cmake-samples: no cuda-tidy at $cuda_tidy" >&2; exit 2; }
cuda_tidy=$(cd "$(dirname "$cuda_tidy")" && pwd)/$(basename "$cuda_tidy")
case $work in "$repo"|"$repo"/*)
  echo "cmake-samples: --work must be outside the repository" >&2; exit 2 ;;
esac
src=$work/src build=$work/build logs=$work/logs
mkdir -p "$work" "$logs"

# 1. The tree at the commit. The mirror lacks its largest blobs (a few .doc
#    and data files): those are left out.
if [ "$(cat "$src/.extracted" 2>/dev/null || true)" != "$commit" ]; then
  rm -rf "$src.part" && mkdir -p "$src.part"
  missing=0
  while IFS=$'\t' read -r meta path; do
    read -r mode kind sha size <<<"$meta"
    [ "$kind" = blob ] || continue
    case $size in ''|*[!0-9]*) missing=$((missing + 1)); continue ;; esac
    mkdir -p "$src.part/$(dirname "$path")"
    git --git-dir="$gitdir" cat-file blob "$sha" > "$src.part/$path"
    if [ "$mode" = 100755 ]; then chmod +x "$src.part/$path"; fi
  done < <(git --git-dir="$gitdir" ls-tree -r -l "$commit")
  echo "$commit" > "$src.part/.extracted"
  rm -rf "$src" && mv "$src.part" "$src"
  echo "cmake-samples: extracted $commit ($missing blobs absent from the mirror)"
fi

# 2. Configure whole. The generate step may fail on absent SDKs; the
#    database may still be written.
start=$(date +%s)
set +e
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  > "$logs/configure.log" 2>&1
configure_rc=$?
set -e
echo "cmake-samples: configure exit $configure_rc in $(( $(date +%s) - start )) s (log: $logs/configure.log)"
db=$build/compile_commands.json
[ -f "$db" ] || { echo "cmake-samples: no compile database was written"; exit 1; }

# 3. The database's .cu files, relative to the source root.
python3 - "$db" "$src" > "$logs/files.txt" <<'PY'
import json, os, sys
db, src = sys.argv[1], os.path.realpath(sys.argv[2])
seen = set()
for entry in json.load(open(db)):
    f = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    f = os.path.relpath(os.path.realpath(f), src)
    if f.endswith(".cu") and f not in seen:
        seen.add(f)
        print(f)
PY
mapfile -t files < "$logs/files.txt"
tree_cu=$(cd "$src" && find . -name '*.cu' | wc -l)
echo "cmake-samples: $tree_cu .cu files in the tree, ${#files[@]} in the database"

# 4. cuda-tidy from the source root, relative paths, -j N: the database's
#    files, then the tree's other .cu files named on their own (commands
#    inferred from the nearest file of the database, or the defaults).
run_tidy() { # output, files...
  local out=$1; shift
  local t0=$(date +%s) rc=0
  (cd "$src" && "$cuda_tidy" -p ../build -j "$jobs" --no-cache "${extra[@]}" "$@") \
    > "$out" 2>&1 || rc=$?
  echo "$rc $(( $(date +%s) - t0 ))"
}
read -r tidy_rc seconds < <(run_tidy "$logs/cuda-tidy.txt" "${files[@]}")
(cd "$src" && find Samples -name '*.cu' | LC_ALL=C sort) > "$logs/tree.txt"
LC_ALL=C sort "$logs/files.txt" | LC_ALL=C comm -13 - "$logs/tree.txt" > "$logs/others.txt"
mapfile -t others < "$logs/others.txt"
others_rc=0 others_seconds=0
if [ ${#others[@]} -gt 0 ]; then
  read -r others_rc others_seconds < <(run_tidy "$logs/others-cuda-tidy.txt" "${others[@]}")
else
  : > "$logs/others-cuda-tidy.txt"
fi

# 5. The summary.
python3 - "$src" "$logs" "$tidy_rc" "$seconds" "$others_rc" "$others_seconds" <<'PY'
import os, re, sys
src, logs, rc, seconds, others_rc, others_seconds = sys.argv[1:]
src = os.path.realpath(src)
wrong_folder = []

def lines_of(name):
    return [l.strip() for l in open(os.path.join(logs, name), errors="replace") if l.strip()]

def parse(name):
    """{file: first error}, crash seen, cuda-* findings of one output."""
    text = open(os.path.join(logs, name), errors="replace").read().splitlines()
    failed, pending = {}, []
    for line in text:
        m = re.match(r"Error while processing (.*)\.$", line)
        if m:
            real = os.path.realpath(os.path.join(src, m.group(1)))
            rel = os.path.relpath(real, src)
            if rel.startswith("..") or not os.path.exists(real):
                wrong_folder.append(m.group(1))
            failed[rel] = pending[0] if pending else "(no error line)"
            pending = []
            continue
        m = re.match(r"cuda-tidy: error: cannot analyze '(.*)': (.*)$", line)
        if m:
            failed[m.group(1)] = m.group(2)
            continue
        if re.search(r"(^|: )(fatal )?error: ", line) and not line.startswith("cuda-tidy: error"):
            pending.append(re.sub("^" + re.escape(src) + "/", "", line))
    crash = any("Stack dump" in l or "PLEASE submit a bug report" in l for l in text)
    findings = sum(1 for l in text if re.search(r": warning: .*\[cuda-[a-z-]+\]$", l))
    return failed, crash, findings

def report(what, files, name, rc, seconds, why=None):
    failed, crash, findings = parse(name)
    crash = crash or int(rc) not in (0, 1, 3)
    ok = len(files) - len(failed)
    print("cmake-samples: %s: cuda-tidy -p ../build -j N, exit %s in %s s" % (what, rc, seconds))
    print("  analyzed: %d of %d (%.1f %%); failed: %d; %d cuda-* findings"
          % (ok, len(files), 100.0 * ok / max(1, len(files)), len(failed), findings))
    for f in sorted(failed):
        print("  FAILED %s: %s%s" % (f, failed[f][:160],
                                     " [%s]" % why[f] if why and f in why else ""))
    return crash, failed

files = lines_of("files.txt")
crash1, _ = report("the database's %d .cu files" % len(files), files, "cuda-tidy.txt",
                   rc, seconds)

# Why the tree's other .cu files have no compile command.
log = open(os.path.join(logs, "configure.log"), errors="replace").read()
skip_lines = [l for l in log.splitlines()
              if re.search(r"will not build sample|Windows-only|[Ss]kipping the build", l)]
errors = re.findall(r"CMake Error at (Samples/[^:]+)/CMakeLists.txt", log)
included = set()
for d, _, names in os.walk(src):
    for n in names:
        if n.endswith((".cu", ".cuh", ".cpp", ".h")):
            t = open(os.path.join(d, n), errors="replace").read()
            included.update(os.path.basename(i) for i in
                            re.findall(r'#\s*include\s*[<"]([^">]+\.cu)[">]', t))

def read(path):
    try:
        return open(path, errors="replace").read()
    except OSError:
        return ""

def in_project(rel_dir):
    """Every folder from Samples/ down is add_subdirectory'd by its parent."""
    parts = rel_dir.split("/")
    for i in range(1, len(parts)):
        cml = read(os.path.join(src, *parts[:i], "CMakeLists.txt"))
        if not re.search(r"add_subdirectory\(\s*%s\s*\)" % re.escape(parts[i]), cml):
            return False
    return True

others = lines_of("others.txt")
why = {}
for f in others:
    d, base = os.path.dirname(f), os.path.basename(f)
    sample = d.split("/")[-1]
    cml = read(os.path.join(src, d, "CMakeLists.txt"))
    siblings = "".join(read(os.path.join(src, d, n)) for n in os.listdir(os.path.join(src, d))
                       if n.endswith((".cpp", ".cu", ".h", ".cuh")) and n != base)
    line = next((l for l in skip_lines if "'%s'" % sample in l or sample in l), None)
    if line:
        why[f] = "configure skipped the sample: " + line.strip("- ").strip()
    elif not in_project(d):
        why[f] = "folder not in the CMake project here (%s)" % d.split("/")[1]
    elif base in cml and re.search(r"-fatbin|-ptx|-cubin", cml):
        why[f] = "built by a custom nvcc -fatbin/-ptx command for the driver API"
    elif '"%s"' % base in siblings:
        why[f] = "compiled at run time (NVRTC or the driver API reads it by name)"
    elif base in included:
        why[f] = "included by another file, not compiled on its own"
    elif base not in cml:
        why[f] = "not listed in its sample's CMakeLists.txt"
    else:
        why[f] = "no compile command (see the configure log)"
print("  the tree's other .cu files (no compile command): %d" % len(others))
reasons = {}
for f in others:
    r = re.sub(r" - will not build sample '.*'| - skipping|Sample '.*' is ", "", why[f])
    reasons[r] = reasons.get(r, 0) + 1
for r in sorted(reasons):
    print("    %d: %s" % (reasons[r], r))
if errors:
    print("  configure errors (CMake Error at; their compile commands are written): %s"
          % ", ".join(sorted(set(errors))))
crash2, _ = report("the tree's other %d .cu files, named on their own" % len(others),
                   others, "others-cuda-tidy.txt", others_rc, others_seconds, why)
crash = crash1 or crash2
print("cmake-samples: crash: %s; wrong-folder paths: %s"
      % ("YES" if crash else "none", ", ".join(wrong_folder) if wrong_folder else "none"))
sys.exit(1 if crash or wrong_folder else 0)
PY
