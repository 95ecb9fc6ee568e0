#!/usr/bin/env python3
"""Builds the cuda-tidy wheel from the install: the binary with its bundled
files, and a ``cuda-tidy`` console script that runs it
(``pip install cuda_tidy-*.whl``, then ``cuda-tidy ...``). The way
clang-format, clang-tidy and cmake reach CI runners and pre-commit.

    build_wheel.py --build-dir build [--out build/dist]
    build_wheel.py --tree <an installed prefix> --version 0.1.0

With --build-dir it runs ``cmake --install --strip`` into a scratch folder
first (the target ``wheel`` of the build does this). The platform tag is
manylinux_<glibc>_<arch>, <glibc> the newest GLIBC_2.N symbol version the
binary and the bundled libraries need, so pip installs the wheel on a system
whose C library can run it. The clang-tidy plugin is left out: it loads only
into a clang-tidy-22 of the same LLVM build, which a pip user does not have.
"""

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wheelfile  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))


def project_version():
    text = open(os.path.join(SOURCE, "CMakeLists.txt")).read()
    return re.search(r"project\(cuda-tidy VERSION ([0-9.]+)", text).group(1)


def glibc_needed(paths):
    """The newest GLIBC_2.N the ELF files ask for (their version needs)."""
    newest = 0
    readelf = shutil.which("readelf") or shutil.which("llvm-readelf-22")
    for path in paths:
        if readelf:
            text = subprocess.run([readelf, "-V", "-W", path], check=True,
                                  capture_output=True, text=True).stdout
            needs = re.findall(r"Name: GLIBC_2\.(\d+)", text)
        else:  # the version names are strings of .dynstr
            needs = re.findall(rb"GLIBC_2\.(\d+)", open(path, "rb").read())
        newest = max([newest] + [int(n) for n in needs])
    return newest


def wheel_files(tree):
    files = []
    for name in ("__init__.py", "__main__.py"):
        with open(os.path.join(HERE, "cuda_tidy", name), "rb") as f:
            files.append(("cuda_tidy/" + name, f.read(), 0o644))
    elves = []
    for root, _dirs, names in os.walk(tree):
        for name in names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, tree)
            if rel.startswith("lib" + os.sep) and rel.count(os.sep) == 1:
                continue  # lib/libCudaTidyPlugin.so: see above
            if os.path.islink(path):
                sys.exit("build_wheel: %s is a link; a wheel holds files only" % rel)
            with open(path, "rb") as f:
                data = f.read()
            mode = 0o755 if os.access(path, os.X_OK) and rel.startswith("bin") else 0o644
            if data[:4] == b"\x7fELF":
                elves.append(path)
                mode = 0o755 if rel.startswith("bin") else 0o644
            files.append(("cuda_tidy/data/" + rel.replace(os.sep, "/"), data, mode))
    if not any(p == "cuda_tidy/data/bin/cuda-tidy" for p, _, _ in files):
        sys.exit("build_wheel: no bin/cuda-tidy under %s" % tree)
    return files, elves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--build-dir", help="a cuda-tidy build folder to install from")
    src.add_argument("--tree", help="an installed prefix (cmake --install --prefix)")
    ap.add_argument("--out", help="where the wheel goes (default: <build-dir>/dist)")
    ap.add_argument("--version", default=None)
    args = ap.parse_args()
    out = args.out or os.path.join(args.build_dir or ".", "dist")
    version = args.version or project_version()

    scratch = None
    tree = args.tree
    if args.build_dir:
        scratch = tempfile.mkdtemp(prefix="cuda-tidy-wheel-")
        tree = os.path.join(scratch, "prefix")
    try:
        if scratch:
            subprocess.run(["cmake", "--install", args.build_dir, "--prefix", tree,
                            "--strip"], check=True, stdout=subprocess.DEVNULL)
        files, elves = wheel_files(tree)
        glibc = glibc_needed(elves)
        machine = platform.machine()
        tag = "py3-none-manylinux_2_%d_%s" % (glibc, machine)
        readme = open(os.path.join(SOURCE, "README.md"), encoding="utf-8").read()
        path = wheelfile.write_wheel(
            out, "cuda-tidy", version, tag, files,
            ["Summary: Finds synchronization and cooperative-groups bugs in CUDA C++",
             "Home-page: https://github.com/cuda-tidy/cuda-tidy",
             "Requires-Python: >=3.7",
             "Description-Content-Type: text/markdown", "", readme],
            entry_points={"console_scripts": {"cuda-tidy": "cuda_tidy:main"}},
            purelib=False)
    finally:
        if scratch:
            shutil.rmtree(scratch)
    print(path)


if __name__ == "__main__":
    main()
