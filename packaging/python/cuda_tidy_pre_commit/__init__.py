"""The pre-commit hook `cuda-tidy-python` (.pre-commit-hooks.yaml): runs the
hook script, scripts/cuda-tidy-pre-commit (copied into this package when it
is built), with the cuda-tidy of the `cuda-tidy` wheel this package depends
on, so pre-commit works on a machine that never built cuda-tidy. One script
for both hooks: the compile-database search and the flags stay the same."""

import os
import sys

import cuda_tidy

_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda-tidy-pre-commit")


def main():
    env = dict(os.environ)
    # $CUDA_TIDY still names another cuda-tidy when set, as for the script hook.
    env.setdefault("CUDA_TIDY", cuda_tidy.binary())
    os.execvpe("bash", ["bash", _SCRIPT] + sys.argv[1:], env)
