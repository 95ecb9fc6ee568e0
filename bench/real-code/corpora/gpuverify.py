"""mc-imperial/gpuverify: testsuite/CUDA, with a shim of our own for bugle's cuda.h."""

import os
import re

def _gpuverify_files(paths, options=None):
    return sorted(p for p in paths
                  if p.startswith("testsuite/CUDA/") and p.endswith(".cu"))


# GPUVerify compiles with bugle's own cuda.h (not in the repository), which
# pulls in cooperative groups and declares its specification builtins.  With
# the toolkit's headers we force-include a small shim, written by this script
# into the extracted corpus: <assert.h> first (glibc declares a function
# named __assert), cooperative_groups.h, and the specification statements as
# no-ops; expression-only builtins (__implies, __enabled, __read, ...) appear
# only inside those.
GPUVERIFY_ANNOTATIONS = [
    "__requires", "__ensures", "__invariant", "__global_invariant",
    "__assert", "__assume", "__global_assert", "__requires_fresh_array",
    "__axiom", "__function_wide_invariant", "__global_requires",
    "__global_ensures", "__candidate_invariant",
]
GPUVERIFY_SHIM = ".cuda-tidy-shim/gpuverify.h"


def gpuverify_shim_text():
    lines = ["// Written by cuda-tidy's bench/real-code/realcode.py.",
             "#pragma once", "#include <assert.h>",
             "#include <cooperative_groups.h>", "#include <curand_kernel.h>",
             # bugle's cuda.h names cg::sync(g) synchronize(g).
             "namespace cooperative_groups {",
             "template <class Group>",
             "__device__ inline void synchronize(const Group &g) { g.sync(); }",
             "}"]
    for n in GPUVERIFY_ANNOTATIONS:
        # __axiom stands at file scope.
        body = 'static_assert(true, "")' if n == "__axiom" else "((void)0)"
        lines.append("#define %s(...) %s" % (n, body))
    return "\n".join(lines) + "\n"


def _gpuverify_flags(path, root):
    # One set of flags for the whole suite (one preamble), plus the -D
    # defines a kernel's second line (//--blockDim=... -DWIDTH=256) passes.
    flags = ["-include", GPUVERIFY_SHIM]
    with open(os.path.join(root, path), errors="replace") as f:
        head = [f.readline() for _ in range(2)]
    if head[1].startswith("//--"):
        flags += [w for w in head[1][2:].split() if w.startswith("-D")]
    return flags




def _gpuverify_prepare(root):
    shim = os.path.join(root, GPUVERIFY_SHIM)
    os.makedirs(os.path.dirname(shim), exist_ok=True)
    with open(shim, "w") as f:
        f.write(gpuverify_shim_text())


# GPUVerify's xfail cases whose expected failure is barrier divergence (read
# from each kernel: a barrier under a thread- or block-dependent branch).  The
# other xfail cases expect races, null pointers, failed asserts or tool
# errors, which no cuda-tidy check claims to find.
GPUVERIFY_BARRIER_DIVERGENCE = {
    "testsuite/CUDA/cooperative_groups/fail/block_divergence_grid_group/kernel.cu":
        "synchronize(grid) under bid % 2 == 0",
    "testsuite/CUDA/cooperative_groups/fail/divergence_grid_group/kernel.cu":
        "synchronize(grid) under idx % 2 == 0",
    "testsuite/CUDA/cooperative_groups/fail/divergence_thread_block/kernel.cu":
        "synchronize(block) under idx % 2 == 0",
}


CORPUS = {
    "name": "gpuverify",
    "repo": "mc-imperial/gpuverify",
    "mirror": "mc-imperial+gpuverify",
    "commit": "49219770aad01231edd0d8e0fa3ed036006cf32a",
    "files": _gpuverify_files,
    "flags": _gpuverify_flags,
    "prepare": _gpuverify_prepare,
    "barrier_divergence": GPUVERIFY_BARRIER_DIVERGENCE,
}
