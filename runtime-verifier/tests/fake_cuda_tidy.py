#!/usr/bin/env python3
"""A stand-in for cuda-tidy, used only to test check_static.py itself.

It does no analysis: it reports a warning on every line that carries a
FLAGGED(<check>) marker, in the format cuda-tidy prints. Environment knobs
make it misbehave the ways check_static.py must catch:
  FAKE_TIDY_DROP=<file-basename>:<line>        omit that finding
  FAKE_TIDY_EXTRA=<file-basename>:<line>:<check> add a finding there
  FAKE_TIDY_CHECKS=a,b                          what --list-checks prints
  FAKE_TIDY_HEADER=<line>:<check>               add a finding in the rv.cuh
                                                beside the analyzed file
  FAKE_TIDY_GROUP=<file-basename>               one finding per check in that
                                                file: its other marked lines
                                                are notes of the first (one
                                                finding per cause)
Nothing here says what cuda-tidy really reports: check_static.py run against
the real tool does.
"""

import os
import re
import sys

CHECKS = ["cuda-divergent-barrier", "cuda-full-warp-mask", "cuda-group-by-value",
          "cuda-divergent-group-creation", "cuda-grid-sync-launch",
          "cuda-memcpy-async-wait", "cuda-cluster-exit-sync",
          "cuda-warp-mask-mismatch"]
# Off in the default set, listed when --checks=cuda-* turns every check on.
OPT_IN_CHECKS = ["cuda-prefer-tile-collectives", "cuda-shared-memory-race",
                 "cuda-implicit-warp-sync", "cuda-missing-fence"]


def main(argv):
    if "--list-checks" in argv:
        names = os.environ.get("FAKE_TIDY_CHECKS")
        print("Enabled checks:")
        listed = CHECKS + (OPT_IN_CHECKS if "--checks=cuda-*" in argv else [])
        for c in (names.split(",") if names is not None else listed):
            if c:
                print("    " + c)
        return 0
    files = [a for a in argv[: argv.index("--")] if not a.startswith("-")] \
        if "--" in argv else [a for a in argv if not a.startswith("-")]
    drop = os.environ.get("FAKE_TIDY_DROP", "")
    extra = os.environ.get("FAKE_TIDY_EXTRA", "")
    header = os.environ.get("FAKE_TIDY_HEADER", "")
    group = os.environ.get("FAKE_TIDY_GROUP", "")
    found = False
    for path in files:
        base = os.path.basename(path)
        grouped = set()
        with open(path, encoding="utf-8") as f:
            for n, text in enumerate(f.read().split("\n"), 1):
                for m in re.finditer(r"FLAGGED\((cuda-[a-z-]+)\)", text):
                    if drop == "%s:%d" % (base, n):
                        continue
                    col = len(text) - len(text.lstrip()) + 1
                    if group == base and m.group(1) in grouped:
                        print("%s:%d:%d: note: 'fake call' is also reached under it"
                              % (path, n, col))
                        continue
                    grouped.add(m.group(1))
                    print("%s:%d:%d: warning: fake finding [%s]" % (path, n, col, m.group(1)))
                    found = True
        if extra.startswith(base + ":"):
            _, line, check = extra.split(":")
            print("%s:%s:1: warning: fake extra finding [%s]" % (path, line, check))
            found = True
        beside = os.path.join(os.path.dirname(path), "rv.cuh")
        if header and os.path.isfile(beside):
            line, check = header.split(":")
            print("%s:%s:1: warning: fake header finding [%s]" % (beside, line, check))
            found = True
    if found:
        print("%d warnings generated." % 1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
