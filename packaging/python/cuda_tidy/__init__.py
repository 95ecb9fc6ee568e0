"""cuda-tidy, the CUDA synchronization and cooperative-groups checker, as a
Python package: the native binary and its files are in ``data/`` (the
layout of ``cmake --install``: bin/, lib/cuda-tidy/, share/cuda-tidy/), and
the ``cuda-tidy`` console script runs the binary with the arguments given."""

import os
import sys

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def binary():
    """The path of the bundled cuda-tidy executable."""
    return os.path.join(_DATA, "bin", "cuda-tidy")


def main():
    exe = binary()
    # exec, not a child process: the exit code (0-3), signals, standard
    # streams and the terminal are cuda-tidy's own, as with the binary.
    os.execv(exe, [exe] + sys.argv[1:])
