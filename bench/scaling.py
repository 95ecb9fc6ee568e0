#!/usr/bin/env python3
"""Net checks time of the generated scaling kernels, and its growth per doubling.

  scaling.py [--tidy build/bin/cuda-tidy] [--reps 3] <kernel-dir>

<kernel-dir> is what gen_kernels.py wrote. Each file runs --reps times with
`cuda-tidy --no-cache --time-checks <file> --`; the median "checks" time minus
the median for an empty kernel (the matchers' walk over the CUDA headers) is
the net time. Prints, per family, the net time per size and the ratio to the
previous size (a linear analysis stays near 2.0 per doubling).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

TIME = re.compile(r"cuda-tidy: time: .*: total ([0-9.]+) s, checks ([0-9.]+) s")


def checks_seconds(tidy, path):
    run = subprocess.run([tidy, "--no-cache", "--time-checks", path, "--"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    match = TIME.search(run.stderr)
    if not match:
        sys.exit("no timing line for %s:\n%s" % (path, run.stderr[-2000:]))
    return float(match.group(2))


def median_seconds(tidy, path, reps):
    return statistics.median(checks_seconds(tidy, path) for _ in range(reps))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tidy", default="build/bin/cuda-tidy")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("dir")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.cu")
        with open(empty, "w") as f:
            f.write("#include <cuda_runtime.h>\n__global__ void empty() {}\n")
        base = median_seconds(args.tidy, empty, args.reps)
    print("empty kernel: checks %.4f s (subtracted)" % base)

    families = {}
    for name in os.listdir(args.dir):
        match = re.fullmatch(r"([a-z]+)-([0-9]+)\.cu", name)
        if match:
            families.setdefault(match.group(1), []).append(int(match.group(2)))
    for family in sorted(families):
        previous = None
        for size in sorted(families[family]):
            path = os.path.join(args.dir, "%s-%d.cu" % (family, size))
            net = median_seconds(args.tidy, path, args.reps) - base
            ratio = "" if previous is None or previous <= 0 else "  x%.2f" % (net / previous)
            print("%-9s %6d  net checks %.4f s%s" % (family, size, net, ratio))
            previous = net
    return 0


if __name__ == "__main__":
    sys.exit(main())
