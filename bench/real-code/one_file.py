#!/usr/bin/env python3
"""Runs cuda-tidy on one file of an extracted corpus with that corpus's flags.

usage: one_file.py CORPUS PATH [cuda-tidy arguments...]

The corpus must have been extracted by realcode.py (into $CUDA_TIDY_CORPORA,
default /work/corpora). The binary is $CUDA_TIDY or the build's
build/bin/cuda-tidy. --no-cache: each run parses from scratch.
"""
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpora  # noqa: E402

name, path = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
corpus = [c for c in corpora.load() if c["name"] == name][0]
folder = os.environ.get("CUDA_TIDY_CORPORA", "/work/corpora")
root = glob.glob(os.path.join(folder, "%s-%s" % (name, corpus["commit"][:12])))[0]
binary = os.environ.get(
    "CUDA_TIDY", os.path.join(HERE, "..", "..", "build", "bin", "cuda-tidy"))
flags = corpus["flags"](path, root)
sys.exit(subprocess.call([binary, "--no-cache"] + extra + [path, "--"] + flags,
                         cwd=root))
