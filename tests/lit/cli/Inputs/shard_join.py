#!/usr/bin/env python3
"""--index-dir and --join-index on a generated multi-file project.

Three files define kernels that synchronize the grid (directly, through a
device function, a template); four others launch them, without a
cooperative launch, from another file. One whole run is compared with:
  - three shards (--shard K/3, each into its own --index-dir folder, as on
    three CI machines) plus `--join-index` of the three folders;
  - the whole run with --index-dir plus the join;
  - one compiler-launcher call per file plus the join;
  - a pre-commit style re-run of one edited file into the shards' folders.
The findings (JSON, every field) must be exactly the same. Then the join's
edges: a corrupt, a foreign and another version's record, a missing
source, an empty folder, a missing folder, and the gates.
Usage: shard_join.py --cuda-tidy BIN --work DIR
"""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys

KERNEL_FILES = 3
LAUNCH_FILES = 4


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def generate(root):
    src = os.path.join(root, "src")
    header = ["#pragma once"]
    for i in range(KERNEL_FILES):
        header += [
            "__global__ void solve_k%d(float *x, int n);" % i,
            "__global__ void plain_k%d(float *x, int n);" % i,
            "template <typename T> __global__ void relax_k%d(T *x);" % i,
            "extern template __global__ void relax_k%d<float>(float *);" % i,
        ]
    write(os.path.join(src, "kernels.cuh"), "\n".join(header) + "\n")
    for i in range(KERNEL_FILES):
        write(os.path.join(src, "kernels_%d.cu" % i), """\
// Kernels that need a cooperative launch, launched from other files.
#include <cooperative_groups.h>
#include "kernels.cuh"
namespace cg = cooperative_groups;

__device__ void exchange_{i}(float *halo) {{
  cg::grid_group grid = cg::this_grid();
  halo[grid.thread_rank()] = 0;
  grid.sync();
}}

__global__ void solve_k{i}(float *x, int n) {{ exchange_{i}(x); }}

__global__ void plain_k{i}(float *x, int n) {{ x[0] *= n; }}

template <typename T> __global__ void relax_k{i}(T *x) {{ cg::this_grid().sync(); }}
template __global__ void relax_k{i}<float>(float *);

// A launch in the kernel's own file: found by the file's own analysis.
void local_{i}(float *x, int n) {{ solve_k{i}<<<8, 32>>>(x, n); }}
""".format(i=i))
    for j in range(LAUNCH_FILES):
        a, b, c = j % KERNEL_FILES, (j + 1) % KERNEL_FILES, (j + 2) % KERNEL_FILES
        write(os.path.join(src, "launch_%d.cu" % j), """\
// Launches of kernels defined in other files.
#include "kernels.cuh"

void run_{j}(float *x, int n) {{
  solve_k{a}<<<528, 256>>>(x, n);
  void *args[] = {{&x, &n}};
  cudaLaunchKernel((void *)solve_k{b}, dim3(528), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)solve_k{c}, dim3(132), dim3(256), args, 0, 0);
  plain_k{a}<<<4, 32>>>(x, n);
  relax_k{b}<float><<<4, 32>>>(x);
  solve_k{a}<<<1, 1>>>(x, n); // NOLINT(cuda-grid-sync-launch)
}}
""".format(j=j, a=a, b=b, c=c))
    files = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".cu"))
    database = [{"directory": root, "file": f,
                 "command": "/usr/local/cuda/bin/nvcc -rdc=true -arch=sm_90 -c %s -o %s.o"
                            % (f, os.path.basename(f))} for f in files]
    write(os.path.join(root, "build", "compile_commands.json"), json.dumps(database, indent=1))
    return files


class Project:
    def __init__(self, cuda_tidy, root):
        self.cuda_tidy = cuda_tidy
        self.root = root
        self.cache = os.path.join(root, "cache")
        self.count = 0

    def run(self, *args, expect=None):
        """cuda-tidy in the project's folder; (exit code, findings, stderr)."""
        self.count += 1
        out = os.path.join(self.root, "out", "%02d.json" % self.count)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        command = [self.cuda_tidy, "--cache-dir=" + self.cache, "--format=json",
                   "--output=" + out] + list(args)
        done = subprocess.run(command, cwd=self.root, capture_output=True, text=True)
        if expect is not None and done.returncode != expect:
            sys.exit("%s: exit %d, expected %d\n%s" % (" ".join(command), done.returncode,
                                                      expect, done.stderr))
        findings = []
        if os.path.exists(out):
            with open(out) as f:
                findings = json.load(f)["findings"]
            os.remove(out)
        return done.returncode, findings, done.stderr

    def findings(self, *args, expect=0):
        return self.run(*args, expect=expect)[1]


def key(finding):
    return json.dumps(finding, sort_keys=True)


def ordered(findings):
    return sorted(findings, key=key)


def is_cross_file(finding):
    """A launch reported with its kernel's chain in another file."""
    return (finding["check"] == "cuda-grid-sync-launch"
            and any(n["file"] != finding["file"] for n in finding["notes"]))


failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what)


def same(got, want, what):
    if ordered(got) != ordered(want):
        missing = [key(f) for f in want if key(f) not in {key(g) for g in got}]
        extra = [key(f) for f in got if key(f) not in {key(w) for w in want}]
        failures.append(what)
        print("FAIL: %s: %d findings, expected %d\n  missing: %s\n  extra: %s"
              % (what, len(got), len(want), missing[:3], extra[:3]))


def records_in(folder):
    return sorted(f for f in os.listdir(folder) if not f.startswith("."))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda-tidy", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    root = os.path.realpath(args.work)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    files = generate(root)
    p = Project(os.path.realpath(args.cuda_tidy), root)

    # One whole run: the reference.
    whole = p.findings("-p", "build")
    cross = [f for f in whole if is_cross_file(f)]
    # 4 launch files x (<<<>>>, cudaLaunchKernel, relax<float>), NOLINT and
    # the cooperative launch not counted.
    expect(len(cross) == 3 * LAUNCH_FILES, "the whole run has %d cross-file findings, expected %d"
           % (len(cross), 3 * LAUNCH_FILES))
    expect(len(whole) > len(cross), "the whole run has findings within files too")

    # Three shards, each into its own folder, and the join of the three.
    shard_dirs = [os.path.join(root, "index", "shard-%d" % k) for k in (1, 2, 3)]
    shards = []
    for k, folder in zip((1, 2, 3), shard_dirs):
        found = p.findings("-p", "build", "--shard=%d/3" % k, "--index-dir=" + folder)
        expect(not any(is_cross_file(f) for f in found),
               "shard %d/3 with --index-dir reports no cross-file finding" % k)
        shards += found
        expect(stat.S_IMODE(os.stat(folder).st_mode) == 0o700, "%s is made 0700" % folder)
    written = sum(len(records_in(d)) for d in shard_dirs)
    expect(written == len(files), "one record file per source: %d for %d files"
           % (written, len(files)))
    joined = p.findings("--join-index", *shard_dirs)
    same(joined, cross, "--join-index of the three shards' folders = the whole run's cross-file findings")
    same(shards + joined, whole, "shards + join = one whole run")

    # The shards' folders merged into one (download-artifact's merge-multiple).
    merged = os.path.join(root, "index", "merged")
    os.makedirs(merged)
    for folder in shard_dirs:
        for name in records_in(folder):
            shutil.copy(os.path.join(folder, name), merged)
    same(p.findings("--join-index", merged), cross, "--join-index of the merged folder")

    # A shard run again replaces its records: no new file, the same join.
    p.findings("-p", "build", "--shard=1/3", "--index-dir=" + shard_dirs[0])
    expect(sum(len(records_in(d)) for d in shard_dirs) == len(files),
           "a shard run again replaces its records")
    same(p.findings("--join-index", *shard_dirs), cross, "the join after a shard ran again")

    # The whole run with --index-dir, then the join.
    whole_dir = os.path.join(root, "index", "whole")
    local = p.findings("-p", "build", "--index-dir=" + whole_dir)
    same(local + p.findings("--join-index", whole_dir), whole,
         "a whole run with --index-dir + the join = the whole run")

    # Launcher mode: one call per file, as a build runs them.
    bin_dir = os.path.join(root, "bin")
    write(os.path.join(bin_dir, "nvcc"), "#!/bin/sh\nexit 0\n")
    os.chmod(os.path.join(bin_dir, "nvcc"), 0o755)
    launcher_dir = os.path.join(root, "index", "launcher")
    for f in files:
        done = subprocess.run([p.cuda_tidy, "--launcher", "--index-dir=" + launcher_dir,
                               "--cache-dir=" + p.cache, os.path.join(bin_dir, "nvcc"),
                               "-rdc=true", "-arch=sm_90", "-c", f, "-o", "x.o"],
                              cwd=root, capture_output=True, text=True)
        expect(done.returncode == 0, "launcher call for %s: exit %d\n%s"
               % (f, done.returncode, done.stderr))
        expect("synchronizes the whole grid" not in done.stdout
               or os.path.basename(f).startswith("kernels_"),
               "a launcher call reports no cross-file finding (%s)" % f)
    expect(len(records_in(launcher_dir)) == len(files), "launcher calls: one record per file")
    same(p.findings("--join-index", launcher_dir), cross, "launcher calls + the join")

    # Pre-commit: one file edited (a launch removed) and run alone into the
    # shards' folders; the join then agrees with a new whole run.
    edited = os.path.join(root, "src", "launch_0.cu")
    with open(edited) as f:
        text = f.read()
    write(edited, text.replace("  solve_k0<<<528, 256>>>(x, n);\n", ""))
    p.findings("-p", "build", "src/launch_0.cu", "--index-dir=" + shard_dirs[0])
    whole_after = p.findings("-p", "build")
    cross_after = [f for f in whole_after if is_cross_file(f)]
    expect(len(cross_after) == len(cross) - 1, "the edit removes one cross-file finding")
    same(p.findings("--join-index", *shard_dirs), cross_after,
         "a pre-commit re-run of the edited file + the join = a new whole run")
    # A later folder's record of a file wins over an earlier one's.
    same(p.findings("--join-index", merged, shard_dirs[0]), cross_after,
         "--join-index OLD NEW: NEW's record of a file wins")
    write(edited, text)
    p.findings("-p", "build", "src/launch_0.cu", "--index-dir=" + shard_dirs[0])

    # The gates of a normal run: --warnings-as-errors, a baseline, text.
    code, _, err = p.run("--join-index", *shard_dirs, "--warnings-as-errors=cuda-*")
    expect(code == 1 and "%d warnings treated as errors" % len(cross) in err,
           "--warnings-as-errors on the join: exit %d\n%s" % (code, err))
    baseline = os.path.join(root, "baseline.json")
    p.findings("-p", "build", "--write-baseline=" + baseline)
    code, found, err = p.run("--join-index", *shard_dirs, "--baseline=" + baseline)
    expect(code == 0 and not found and "%d findings are in the baseline" % len(cross) in err,
           "--baseline hides the join's findings: exit %d, %d findings\n%s" % (code, len(found), err))
    text_run = subprocess.run([p.cuda_tidy, "--join-index"] + shard_dirs, cwd=root,
                              capture_output=True, text=True)
    expect(text_run.returncode == 0 and
           "src/launch_1.cu:5:3: warning: kernel 'solve_k1' synchronizes the whole grid"
           in text_run.stdout and "Suppressed %d findings (%d NOLINT)" % (LAUNCH_FILES, LAUNCH_FILES)
           in text_run.stderr,
           "the join's text output\n" + text_run.stdout[:2000] + text_run.stderr)

    # A corrupt, a foreign and another version's record are named and
    # skipped (exit 3); the other records are still joined.
    bad = os.path.join(root, "index", "bad")
    shutil.copytree(merged, bad)
    names = records_in(bad)
    corrupt = next(n for n in names if n.startswith("launch_1.cu."))
    other_version = next(n for n in names if n.startswith("launch_2.cu."))
    write(os.path.join(bad, corrupt), '{"format": "cuda-tidy-launch-index", "version": 1, ')
    with open(os.path.join(bad, other_version)) as f:
        record = json.load(f)
    record["tool"] = "0.0.0-other"
    write(os.path.join(bad, other_version), json.dumps(record))
    write(os.path.join(bad, "notes.txt"), "not a record\n")
    os.makedirs(os.path.join(bad, "nested"))
    code, found, err = p.run("--join-index", bad)
    expect(code == 3, "a corrupt record: exit %d, expected 3" % code)
    for name, why in [(corrupt, "not JSON"), (other_version, "written by cuda-tidy 0.0.0-other"),
                      ("notes.txt", "not JSON"), ("nested", "a folder, not a record")]:
        expect("skipped '%s': %s" % (os.path.join(bad, name), why) in err,
               "the skipped %s is named with why (%s)\n%s" % (name, why, err))
    same(found, [f for f in cross if f["file"] not in ("src/launch_1.cu", "src/launch_2.cu")],
         "the other records are still joined")

    # A source that is not there at join time: its record is skipped.
    moved = os.path.join(root, "launch_3.cu.away")
    os.rename(os.path.join(root, "src", "launch_3.cu"), moved)
    code, found, err = p.run("--join-index", merged)
    os.rename(moved, os.path.join(root, "src", "launch_3.cu"))
    expect(code == 3 and "its source '%s' is not here" % os.path.join(root, "src", "launch_3.cu") in err,
           "a missing source: exit %d\n%s" % (code, err))
    same(found, [f for f in cross if f["file"] != "src/launch_3.cu"],
         "the join without launch_3.cu")

    # An empty folder: nothing to join, said so, exit 0.
    empty = os.path.join(root, "index", "empty")
    os.makedirs(empty)
    code, found, err = p.run("--join-index", empty)
    expect(code == 0 and not found and "no launch records in" in err,
           "an empty folder: exit %d\n%s" % (code, err))
    # A missing folder: a usage error (exit 2), the folder named.
    missing = os.path.join(root, "index", "no-such")
    code, found, err = p.run("--join-index", merged, missing)
    expect(code == 2 and "no folder '%s'" % missing in err,
           "a missing folder: exit %d\n%s" % (code, err))
    # No folder named at all, and --index-dir on a folder others can write.
    code, _, err = p.run("--join-index")
    expect(code == 2 and "name the folders" in err, "--join-index alone: exit %d\n%s" % (code, err))
    shared = os.path.join(root, "index", "shared")
    os.makedirs(shared)
    os.chmod(shared, 0o777)
    code, _, err = p.run("-p", "build", "--index-dir=" + shared)
    expect(code == 2 and "writable by other users" in err,
           "--index-dir on a folder others can write: exit %d\n%s" % (code, err))

    if failures:
        sys.exit("%d of the checks failed" % len(failures))
    print("shard_join: %d runs, all findings agree (%d cross-file of %d)"
          % (p.count, len(cross), len(whole)))


if __name__ == "__main__":
    main()
