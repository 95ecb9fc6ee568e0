#!/usr/bin/env python3
"""Count the translation units of each corpus that are also built for HIP.

A translation unit counts when the file, or a project header it includes
(quoted or angled includes resolved against the file's folder and the
corpus's -I folders, transitively; the toolkit's and the system's headers are
not read), tests a HIP platform macro in a directive or includes a hip/
header: the evidence cuda-divergent-barrier's Platforms=auto looks for
(checks/analysis/api/HipPortability.cpp, docs/checks/cuda-divergent-barrier.md).
A textual scan: a directive inside an #if 0 block still counts.

  bench/real-code/portable.py [--corpora DIR] [--corpus NAME ...]

Reads the corpora realcode.py extracted (default /work/corpora); prints one
line per corpus. Python 3 standard library only.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpora as corpus_modules  # noqa: E402

MACROS = ("USE_ROCM", "__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__",
          "__HIPCC__", "__HIP__", "__HIP_DEVICE_COMPILE__", "GGML_USE_HIP")
DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef)\b(.*)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def evidence(text):
    for line in text.splitlines():
        m = DIRECTIVE.match(line)
        if m and any(w in MACROS for w in WORD.findall(m.group(2))):
            return True
        m = INCLUDE.match(line)
        if m and m.group(1).startswith("hip/"):
            return True
    return False


def includes(text):
    return [m.group(1) for m in map(INCLUDE.match, text.splitlines()) if m]


def include_dirs(flags, root):
    dirs, it = [], iter(flags)
    for f in it:
        if f in ("-I", "-isystem"):
            d = next(it, "")
        elif f.startswith("-I"):
            d = f[2:]
        else:
            continue
        dirs.append(os.path.normpath(os.path.join(root, d)))
    return dirs


def portable(path, root, dirs, memo):
    seen, stack = set(), [os.path.join(root, path)]
    while stack:
        p = os.path.normpath(stack.pop())
        if p in seen or not p.startswith(root + os.sep) or not os.path.isfile(p):
            continue
        seen.add(p)
        if p not in memo:
            with open(p, errors="replace") as f:
                text = f.read()
            memo[p] = (evidence(text), includes(text))
        found, incs = memo[p]
        if found:
            return True
        for inc in incs:
            for d in [os.path.dirname(p)] + dirs:
                stack.append(os.path.join(d, inc))
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", default="/work/corpora")
    ap.add_argument("--corpus", action="append", default=[])
    args = ap.parse_args()
    for c in corpus_modules.load():
        if args.corpus and c["name"] not in args.corpus:
            continue
        root = os.path.realpath(os.path.join(
            args.corpora, "%s-%s" % (c["name"], c["commit"][:12])))
        if not os.path.isdir(root):
            print("%-14s not extracted" % c["name"])
            continue
        paths = []
        for dirpath, _, names in os.walk(root):
            for n in names:
                paths.append(os.path.relpath(os.path.join(dirpath, n), root))
        files = c["files"](sorted(paths), {
            "root": root, "ggml_instances": False,
            "mirrors": os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror")})
        memo, count = {}, 0
        for f in files:
            if portable(f, root, include_dirs(c["flags"](f, root), root), memo):
                count += 1
        print("%-14s %4d of %4d translation units test a HIP macro or include a hip/ header"
              % (c["name"], count, len(files)))


if __name__ == "__main__":
    main()
