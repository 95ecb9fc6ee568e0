#!/usr/bin/env python3
"""Cache-correctness fuzz test (issue 16 F2): random edits to headers and
search paths, and after each, cuda-tidy with its cache folder must print
exactly what cuda-tidy --no-cache prints.

  fuzz_cache_correctness.py <cuda-tidy> <scratch folder>
      [--iterations N] [--seed S]

N defaults to $CUDA_TIDY_CACHE_FUZZ_ITERATIONS, else 3 (the default suite:
about 15 seconds); ctest -L slow runs cache-fuzz-long with 150. S defaults to
$CUDA_TIDY_CACHE_FUZZ_SEED, else a fixed seed; a failure prints the seed,
the iteration and the steps that led to it.

The project: three .cu files and three header names (h.cuh, util.cuh,
feat.cuh), each of which may exist, in several versions, in any of four
folders (the main files' folder, inc1, inc2, inc3). What each file reports
depends on which header its includes resolve to:
  a.cu  #include "h.cuh" (quoted: its own folder first, then -I), and
        #include <util.cuh>, where a util.cuh may #include_next another;
  b.cu  #if __has_include("feat.cuh") around a divergent barrier;
  c.cu  includes feat.cuh when there is one, which may define a macro.
  d.cu  #include "p.cuh" then "q.cuh" (beside it), where q.cuh is a copy
        of p.cuh, a symlink to it or a hard link to it (issue 38 G1): a
        `#pragma once` header entered twice or once, which decides whether
        a macro hides a finding or whether a definition is redefined.
The steps (one to three per iteration): a header that shadows the one an
include finds now (beside the main files or earlier in -I), a feat.cuh that
appears or goes (__has_include flips), a header written anywhere in any
version, deleted, or rewritten unchanged (a new modification time), a
folder removed or created, a new -I list (order and members), and q.cuh
made a copy, a symlink or a hard link of p.cuh (same bytes, another
identity), or p.cuh given another version.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys

FOLDERS = [".", "inc1", "inc2", "inc3"]

VERSIONS = {
    "h.cuh": [
        "__device__ inline void helper(float *d, int i, int n) { if (i < n) d[i] = 1.0f; }\n",
        "__device__ inline void helper(float *d, int i, int n) {\n"
        "  if (i >= n) return;\n  __syncthreads();\n  d[i] = 1.0f;\n}\n",
        "#define HELPER_DIVERGES 1\n"
        "__device__ inline void helper(float *d, int i, int n) { d[i % n] = 2.0f; }\n",
    ],
    "util.cuh": [
        "#pragma once\n__device__ inline int util() { return 1; }\n",
        "#pragma once\n#define UTIL_DIVERGES 1\n__device__ inline int util() { return 2; }\n",
        # Found first, then the next util.cuh along the search path (an error
        # when there is none: errors are never cached, and must match too).
        "#define UTIL_DIVERGES 1\n#include_next <util.cuh>\n",
    ],
    "feat.cuh": [
        "// feature present\n",
        "#define FEAT_DIVERGES 1\n",
    ],
}

# p.cuh's versions; q.cuh is always p.cuh's bytes (a copy or a link), so
# only the identity of the two decides what d.cu reports.
ONCE_VERSIONS = [
    "#pragma once\n#ifdef ONCE_SEEN\n#define TWICE 1\n#endif\n#define ONCE_SEEN 1\n",
    # Entered twice: a compile error (errors are never cached, and must
    # match too).
    "#pragma once\n__device__ int once_counter;\n",
]

MAIN_FILES = {
    "a.cu": '#include "h.cuh"\n#include <util.cuh>\n'
            "__global__ void ka(float *d, int n) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  helper(d, i, n);\n"
            "  d[0] = util();\n"
            "#if defined(UTIL_DIVERGES)\n  if (threadIdx.x < 16)\n    __syncthreads();\n#endif\n"
            "#if defined(HELPER_DIVERGES)\n  if (threadIdx.x < 4)\n    __syncthreads();\n#endif\n"
            "}\n",
    "b.cu": "__global__ void kb(float *d) {\n"
            '#if __has_include("feat.cuh")\n  if (threadIdx.x < 8)\n    __syncthreads();\n#endif\n'
            "  d[threadIdx.x] = 0;\n}\n",
    "c.cu": '#if __has_include("feat.cuh")\n#include "feat.cuh"\n#endif\n'
            "__global__ void kc(float *d) {\n"
            "#ifdef FEAT_DIVERGES\n  if (threadIdx.x < 2)\n    __syncthreads();\n#endif\n"
            "  d[threadIdx.x] = 1;\n}\n",
    "d.cu": '#include "p.cuh"\n#include "q.cuh"\n'
            "__global__ void kd(float *d, int n) {\n"
            "  __shared__ float t[256];\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "#ifndef TWICE\n  if (i >= n)\n    return;\n#endif\n"
            "  t[threadIdx.x] = d[i];\n  __syncthreads();\n"
            "  d[i] = t[blockDim.x - 1 - threadIdx.x];\n}\n",
}


def normalized(stderr):
    lines = stderr.splitlines(True)
    errors = sorted(l for l in lines if l.startswith("Error while processing "))
    return "".join(l for l in lines if not l.startswith("Error while processing ")) + "".join(errors)


class Project:
    def __init__(self, root, rng):
        self.root = root
        self.rng = rng
        self.includes = ["inc1", "inc2", "inc3"]
        self.replayed = 0
        os.makedirs(root)
        for name, text in MAIN_FILES.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        for folder in FOLDERS[1:]:
            os.makedirs(os.path.join(root, folder))
        # A start where everything resolves.
        self.write("inc3", "h.cuh", 0)
        self.write("inc3", "util.cuh", 0)
        self.write_once(0)
        self.link_twin("copy")

    def write_once(self, version):
        """p.cuh in place (a hard-linked q.cuh sees the new bytes too)."""
        with open(self.path(".", "p.cuh"), "w") as f:
            f.write(ONCE_VERSIONS[version])

    def link_twin(self, how):
        """q.cuh: a copy of p.cuh, a symlink to it, or a hard link."""
        twin = self.path(".", "q.cuh")
        if os.path.lexists(twin):
            os.remove(twin)
        if how == "copy":
            shutil.copyfile(self.path(".", "p.cuh"), twin)
        elif how == "symlink":
            os.symlink("p.cuh", twin)
        else:
            os.link(self.path(".", "p.cuh"), twin)

    def path(self, folder, name):
        return os.path.join(self.root, folder, name)

    def write(self, folder, name, version):
        os.makedirs(os.path.join(self.root, folder), exist_ok=True)
        with open(self.path(folder, name), "w") as f:
            f.write(VERSIONS[name][version])

    def existing(self):
        return [(d, n) for d in FOLDERS for n in VERSIONS
                if os.path.isfile(self.path(d, n))]

    def resolves(self, name, quoted):
        """Where the preprocessor finds \p name now (an index into the
        search order), and that order."""
        order = (["."] if quoted else []) + self.includes
        for i, folder in enumerate(order):
            if os.path.isfile(self.path(folder, name)):
                return i, order
        return len(order), order

    def step(self):
        """One random change; returns its description. The changes that can
        leave a stale entry behind (a header that shadows the one found, a
        __has_include that flips) are the likeliest."""
        rng = self.rng
        kind = rng.choice(["shadow"] * 3 + ["flip"] * 2 + ["link"] * 2 +
                          ["write", "write", "delete", "touch", "includes", "folder"])
        if kind == "link":
            if rng.random() < 0.25:
                version = rng.randrange(len(ONCE_VERSIONS))
                self.write_once(version)
                if not os.path.samefile(self.path(".", "p.cuh"), self.path(".", "q.cuh")):
                    self.link_twin("copy")
                return "link: p.cuh version %d (q.cuh the same bytes)" % version
            how = rng.choice(["copy", "symlink", "hardlink"])
            self.link_twin(how)
            return "link: q.cuh made a %s of p.cuh" % how
        if kind == "shadow":
            name = rng.choice(["h.cuh", "util.cuh"])
            found, order = self.resolves(name, quoted=name == "h.cuh")
            folder = order[rng.randrange(found)] if found else rng.choice(FOLDERS)
            version = rng.randrange(len(VERSIONS[name]))
            self.write(folder, name, version)
            return "shadow: write %s/%s version %d" % (folder, name, version)
        if kind == "flip":
            found, order = self.resolves("feat.cuh", quoted=True)
            if found < len(order):
                for folder in order:
                    if os.path.isfile(self.path(folder, "feat.cuh")):
                        os.remove(self.path(folder, "feat.cuh"))
                return "flip: delete every feat.cuh on the search path"
            folder = rng.choice(order)
            version = rng.randrange(len(VERSIONS["feat.cuh"]))
            self.write(folder, "feat.cuh", version)
            return "flip: write %s/feat.cuh version %d" % (folder, version)
        if kind == "write":
            folder, name = rng.choice(FOLDERS), rng.choice(sorted(VERSIONS))
            version = rng.randrange(len(VERSIONS[name]))
            self.write(folder, name, version)
            return "write %s/%s version %d" % (folder, name, version)
        if kind == "delete" and self.existing():
            folder, name = rng.choice(self.existing())
            os.remove(self.path(folder, name))
            return "delete %s/%s" % (folder, name)
        if kind == "touch" and self.existing():
            folder, name = rng.choice(self.existing())
            with open(self.path(folder, name)) as f:
                text = f.read()
            with open(self.path(folder, name), "w") as f:
                f.write(text)
            return "rewrite %s/%s unchanged" % (folder, name)
        if kind == "folder":
            folder = rng.choice(FOLDERS[1:])
            target = os.path.join(self.root, folder)
            if os.path.isdir(target):
                shutil.rmtree(target)
                return "remove folder %s" % folder
            os.makedirs(target)
            return "create empty folder %s" % folder
        members = [d for d in FOLDERS[1:] if rng.random() < 0.8] or ["inc3"]
        rng.shuffle(members)
        self.includes = members
        return "-I list %s" % " ".join(members)

    def run(self, tool, cache):
        args = [tool, "-j", "2", "--checks=-*,cuda-*"]
        args += ["--cache-dir=" + cache, "--cache-stats"] if cache else ["--no-cache"]
        args += sorted(MAIN_FILES) + ["--"] + ["-I" + d for d in self.includes]
        p = subprocess.run(args, cwd=self.root, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        stderr = ""
        for line in p.stderr.splitlines(True):
            # The --cache-stats report (counters, then the folder's
            # listing): every line of it starts so; a --no-cache run has none.
            m = re.match(r"cuda-tidy: cache: .*results: (\d+) replayed", line)
            if m:
                self.replayed += int(m.group(1))
            elif not line.startswith("cuda-tidy: cache: "):
                stderr += line
        return p.returncode, p.stdout, normalized(stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("scratch")
    parser.add_argument("--iterations", type=int,
                        default=int(os.environ.get("CUDA_TIDY_CACHE_FUZZ_ITERATIONS", "3")))
    parser.add_argument("--seed", type=int,
                        default=int(os.environ.get("CUDA_TIDY_CACHE_FUZZ_SEED", "16002")))
    args = parser.parse_args()
    args.tool = os.path.abspath(args.tool)
    rng = random.Random(args.seed)
    root = os.path.join(os.path.abspath(args.scratch), "fuzz-%d" % args.seed)
    shutil.rmtree(root, ignore_errors=True)
    project = Project(os.path.join(root, "project"), rng)
    cache = os.path.join(root, "cache")
    history = []
    # The first run fills the folder; every later one may replay.
    got = project.run(args.tool, cache)
    want = project.run(args.tool, None)
    for iteration in range(args.iterations + 1):
        if got != want:
            sys.stderr.write(
                "MISMATCH (seed %d, iteration %d) after:\n  %s\n"
                "--- --no-cache (exit %d)\n%s%s--- cached (exit %d)\n%s%s"
                % (args.seed, iteration, "\n  ".join(history) or "(start)",
                   want[0], want[1], want[2], got[0], got[1], got[2]))
            return 1
        if iteration == args.iterations:
            break
        steps = [project.step() for _ in range(rng.randint(1, 3))]
        history.append("%d: %s" % (iteration + 1, "; ".join(steps)))
        got = project.run(args.tool, cache)
        want = project.run(args.tool, None)
    shutil.rmtree(root, ignore_errors=True)
    print("cache fuzz: seed %d, %d iterations of random header and -I changes "
          "(%d of %d file results replayed): cached output identical to --no-cache"
          % (args.seed, args.iterations, project.replayed,
             len(MAIN_FILES) * (args.iterations + 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
