#!/usr/bin/env python3
"""--fix keeps code valid: each file is compiled by nvcc before and after
cuda-tidy --fix, and a second --fix changes nothing.

  fixed_files_compile.py <cuda-tidy> <nvcc> <scratch folder> <file>...

For every file: nvcc compiles the original (else the test is about the
file, not the fix, and it fails saying so); cuda-tidy --fix with every
cuda-* check rewrites a copy, which must differ from the original (each
file given here has at least one fix-it); nvcc compiles the fixed copy; a
second --fix run leaves the copy byte for byte as it was.
Exit 0 all good, 1 a failure, 77 no nvcc (skipped).
"""
import difflib
import os
import shutil
import subprocess
import sys


def nvcc_compiles(nvcc, path, log):
    # -c to an object in the scratch folder: front end, device code
    # generation for sm_90 and the host compiler, as a build would run them.
    obj = path + ".o"
    p = subprocess.run([nvcc, "-std=c++17", "-arch=sm_90", "-rdc=true", "-c", path, "-o", obj],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        log.append("nvcc %s:\n%s" % (path, p.stdout))
    return p.returncode == 0


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    tidy, nvcc, scratch = sys.argv[1:4]
    files = sys.argv[4:]
    if not (os.path.isfile(nvcc) and os.access(nvcc, os.X_OK)):
        print("skipped: no nvcc at %s" % nvcc)
        return 77
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    failures = []
    for n, source in enumerate(files):
        log = []
        work = os.path.join(scratch, str(n))
        os.makedirs(work)
        # The runtime-verifier cases include their harness header from
        # their own folder: copy what sits beside the file too.
        for name in os.listdir(os.path.dirname(source)):
            if name.endswith((".cuh", ".h")):
                shutil.copy(os.path.join(os.path.dirname(source), name), work)
        original = os.path.join(work, "original-" + os.path.basename(source))
        fixed = os.path.join(work, os.path.basename(source))
        shutil.copy(source, original)
        shutil.copy(source, fixed)
        if not nvcc_compiles(nvcc, original, log):
            failures.append("%s: nvcc rejects the original\n%s" % (source, "\n".join(log)))
            continue
        cmd = [tidy, "--no-cache", "--checks=-*,cuda-*", "--fix", fixed, "--"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode not in (0, 1):
            failures.append("%s: cuda-tidy --fix exited %d\n%s" % (source, p.returncode, p.stdout))
            continue
        with open(original, "rb") as f:
            before = f.read()
        with open(fixed, "rb") as f:
            after = f.read()
        if before == after:
            failures.append("%s: --fix changed nothing (each file here has fix-its)" % source)
            continue
        if not nvcc_compiles(nvcc, fixed, log):
            failures.append("%s: nvcc rejects the fixed file\n%s" % (source, "\n".join(log)))
            continue
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(fixed, "rb") as f:
            again = f.read()
        if again != after:
            failures.append("%s: a second --fix changed the file again" % source)
            continue
        changed = sum(1 for line in difflib.unified_diff(
            before.decode(errors="replace").splitlines(),
            after.decode(errors="replace").splitlines(), n=0)
            if line.startswith("+") and not line.startswith("+++"))
        print("ok: %s (%d lines changed by --fix; nvcc compiles both)" % (source, changed))
    for f in failures:
        print("FAIL: " + f)
    print("%d files, %d failures" % (len(files), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
