"""karpathy/llm.c: the three top-level programs and dev/cuda's kernels."""

import os
import re

LLMC_FILES = ["train_gpt2.cu", "test_gpt2.cu", "profile_gpt2.cu"]


def _llmc_files(paths, options=None):
    return sorted(p for p in paths
                  if p in LLMC_FILES
                  or (p.startswith("dev/cuda/") and p.endswith(".cu")
                      and p.count("/") == 2))


def _llmc_flags(path, root):
    # dev/cuda/Makefile compiles each file in place with -std=c++17 and no
    # precision define (a file that wants BF16 defines ENABLE_BF16 itself;
    # with it forced, the fp32 kernels of layernorm_forward.cu do not
    # compile). The top Makefile: -std=c++17, PRECISION=BF16 by default
    # (-DENABLE_BF16); its -I dev is for Windows only (dev/unistd.h shadows
    # the system one).
    if path.startswith("dev/cuda/"):
        return ["-std=c++17", "-I", "dev/cuda"]
    return ["-std=c++17", "-DENABLE_BF16", "-I", ".", "-I", "llmc"]


CORPUS = {
    "name": "llm.c",
    "repo": "karpathy/llm.c",
    "mirror": "karpathy+llm.c",
    "commit": "f1e2ace651495b74ae22d45d1723443fd00ecd3a",
    "files": _llmc_files,
    "flags": _llmc_flags,
}
