#!/usr/bin/env python3
"""Issue 38 G4: a source changed in place while `cuda-tidy --fix` analyzes it.

  edit_during_fix.py <cuda-tidy> <folder> same-size|truncate

Writes <folder>/s.cu (a group-by-value finding with a fix at line 8, then
enough trivial kernels that the analysis takes a few seconds), starts
`cuda-tidy --no-cache --fix s.cu`, and a second later, while the file is
being analyzed, changes it in place:
  same-size  10 bytes out before the fix point, 10 in after it (the size and
             the fix's line unchanged, its offset moved);
  truncate   the file emptied.
Then prints the run's exit status, its stderr, and whether the file holds
exactly the bytes of the edit (no fix written at stale offsets).
"""
import os
import subprocess
import sys
import time

tool, folder, mode = sys.argv[1], sys.argv[2], sys.argv[3]
path = os.path.join(folder, "s.cu")
head = open(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..",
                         "examples", "tile_reduce.cu")).read()
with open(path, "w") as f:
    f.write(head + "".join("__global__ void t%d(){}\n" % i for i in range(30000)))
proc = subprocess.Popen([tool, "--no-cache", "--fix", "s.cu", "--"], cwd=folder,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        universal_newlines=True)
# The parse reads the file's first lines within a few hundred milliseconds
# of the start (the fix is at line 8) and goes on for seconds after.
time.sleep(1.0)
if proc.poll() is not None:
    sys.exit("the run ended before the edit: make s.cu bigger")
data = open(path, "rb").read()
if mode == "same-size":
    i = data.find(b"// A block reduction")
    edited = data[:i] + b"// A block" + data[i + 20:]
    j = edited.find(b"__global__ void t0(){}")
    edited = edited[:j] + b"//12345678" + edited[j:]
    assert len(edited) == len(data)
else:
    edited = b""
with open(path, "r+b") as f:
    f.write(edited)
    f.truncate(len(edited))
out, err = proc.communicate()
print("exit %d" % proc.returncode)
sys.stdout.write(err)
print("file is the edit: %s" % (open(path, "rb").read() == edited))
