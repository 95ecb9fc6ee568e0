"""ggml-org/ggml: src/ggml-cuda/*.cu with the defines of its CMake defaults."""

import os
import re

def _ggml_files(paths, options=None):
    instances = bool(options and options.get("ggml_instances"))
    out = []
    for p in paths:
        if not p.startswith("src/ggml-cuda/") or not p.endswith(".cu"):
            continue
        rest = p[len("src/ggml-cuda/"):]
        if "/" in rest:
            if not (instances and rest.startswith("template-instances/")):
                continue
        out.append(p)
    return sorted(out)


# ggml's CMake (CMakeLists.txt, src/CMakeLists.txt, src/ggml-cuda/
# CMakeLists.txt) with its defaults: GGML_CUDA=ON, GGML_CUDA_FA=ON,
# GGML_CUDA_PEER_MAX_BATCH_SIZE=128, GGML_SCHED_MAX_COPIES=4, a shared
# backend build; NCCL and graphs are left off (not installed / off by
# default).
GGML_DEFINES = [
    "-DGGML_USE_CUDA", "-DGGML_BUILD", "-DGGML_SHARED",
    "-DGGML_BACKEND_BUILD", "-DGGML_BACKEND_SHARED",
    "-DGGML_SCHED_MAX_COPIES=4", "-DGGML_CUDA_PEER_MAX_BATCH_SIZE=128",
    "-D_GNU_SOURCE", "-D_XOPEN_SOURCE=600",
]


def _ggml_flags(path, root):
    return (["-std=c++17"] + GGML_DEFINES
            + ["-I", "include", "-I", "src", "-I", "src/ggml-cuda"])


CORPUS = {
    "name": "ggml",
    "repo": "ggml-org/ggml",
    "mirror": "ggml-org+ggml",
    "commit": "d99724f2b141fed9e1a9f402213506c081433465",
    "files": _ggml_files,
    "flags": _ggml_flags,
}
