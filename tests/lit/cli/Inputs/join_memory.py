"""Issue 38 G10: the memory --join-index takes for a record, against the
record's size, both measured here.

join_memory.py CUDA_TIDY DIR: DIR holds A (a record of ka.cu, whose kernel
needs a cooperative launch) and B (kb.cu, which launches it). The record of
A is copied with its one kernel repeated until it is about 24 MB, and each
join (the small record, then the large one) runs in a process of its own,
whose peak resident memory is its children's. Prints the finding count of
each and the ratio of the extra memory to the extra bytes of the record.
llvm::json's tree held about 95 times the record (2.3 GB here); read in
place it is under 3.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

MEASURE = r"""
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(r.returncode, r.stdout.count('warning:'),
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.stderr.write(r.stderr)
"""


def join(tool, folder, record_dir):
    run = subprocess.run([sys.executable, "-c", MEASURE, tool, "--join-index",
                          record_dir, "B"], cwd=folder, capture_output=True,
                         text=True, check=True)
    sys.stderr.write(run.stderr)
    out = run.stdout.split()
    return int(out[0]), int(out[1]), int(out[2]) * 1024


def main():
    tool, folder = sys.argv[1], os.path.abspath(sys.argv[2])
    if os.sep in tool:
        tool = os.path.abspath(tool)
    small = glob.glob(os.path.join(folder, "A", "*.json"))[0]
    big_dir = os.path.join(folder, "BIG")
    shutil.rmtree(big_dir, ignore_errors=True)
    os.mkdir(big_dir, 0o700)
    big = os.path.join(big_dir, os.path.basename(small))
    with open(small) as f:
        record = json.load(f)
    kernel = record["records"][0]["kernels"][0]
    one = len(json.dumps(kernel, separators=(",", ":"))) + 1
    record["records"][0]["kernels"] = [kernel] * (24_000_000 // one)
    with open(big, "w") as f:
        json.dump(record, f, separators=(",", ":"))
    extra_bytes = os.path.getsize(big) - os.path.getsize(small)

    status_small, found_small, peak_small = join(tool, folder, "A")
    status_big, found_big, peak_big = join(tool, folder, big_dir)
    print("small: exit", status_small, "findings", found_small)
    print("large: exit", status_big, "findings", found_big)
    print("record MB %.1f, peak MB %.0f and %.0f" %
          (extra_bytes / 1e6, peak_small / 1e6, peak_big / 1e6))
    ratio = (peak_big - peak_small) / extra_bytes
    print("ratio %.2f" % ratio)
    print("ratio under 4:", ratio < 4)


if __name__ == "__main__":
    main()
