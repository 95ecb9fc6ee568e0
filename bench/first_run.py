#!/usr/bin/env python3
"""The first run of a file against the compiler's syntax check (issue 39).

  bench/first_run.py [--build build] [--pairs 5] [--files F,...]
                     [--multi F,...] [--skip-plugin] [--json out.json]

Whole-process CPU time (user + system, wait4), the tools interleaved pair by
pair so that a change of machine load hits them alike; the ratios are
medians over the pairs of each run's CPU time over the floor's CPU time of
the same pair. Per file of --files (default: cuda-samples'
binaryPartitionCG.cu, from /work/corpora/cuda-samples-*, and two files of
bench/corpus):

  floor    clang++-22 -fsyntax-only, cuda-tidy's flags (bench/run.py FLAGS,
           plus -I of cuda-samples' Common folder)
  plugin   clang-tidy-22 --load=libCudaTidyPlugin.so --checks=-*,cuda-*
  cold     cuda-tidy --no-cache
  first    cuda-tidy, an empty cache folder (a CI runner, a one-off run)
  second   cuda-tidy, the folder the first run left, the file edited (a
           comment appended): the second sighting of its include lines
  edit     cuda-tidy, the file edited once more: the warm edit, from the
           preamble the runs before left

The multi-file figure (--multi, default six cuda-samples files): one
cuda-tidy -j 1 process over them with an empty folder, less the CPU time of
the first of them alone with an empty folder, over the sum of the floors of
the second and later files: what each further file of a first multi-file
run costs, with whatever the first file builds for the run (the shared
preamble, a preamble of lines it shares) charged to them; and the later
files' own wall times as --time-checks reports them, over their floors'
wall times. Nothing here is asserted by the test suite.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from run import FLAGS, measure  # noqa: E402

SAMPLES = sorted(glob.glob("/work/corpora/cuda-samples-*"))
SAMPLES = SAMPLES[0] if SAMPLES else None


def sample(rel):
    return os.path.join(SAMPLES, "Samples", rel) if SAMPLES else None


DEFAULT_FILES = [sample("3_CUDA_Features/binaryPartitionCG/binaryPartitionCG.cu"),
                 os.path.join(HERE, "corpus", "cg_tile_reduce.cu"),
                 os.path.join(HERE, "corpus", "stencil_1d.cu")]
DEFAULT_MULTI = [sample(p) for p in (
    "3_CUDA_Features/binaryPartitionCG/binaryPartitionCG.cu",
    "0_Introduction/asyncAPI/asyncAPI.cu",
    "0_Introduction/clock/clock.cu",
    "0_Introduction/matrixMul/matrixMul.cu",
    "0_Introduction/vectorAdd/vectorAdd.cu",
    "0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics.cu")]


def cpu(cmd, cwd=None):
    seconds, rss, code, err, cpu_seconds = measure(cmd)
    if code not in (0, 1):
        sys.stderr.write("note: exit %d: %s\n%s\n" % (code, " ".join(cmd), err[-1500:]))
    return cpu_seconds, seconds, rss


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--files", default="")
    parser.add_argument("--multi", default="")
    parser.add_argument("--skip-plugin", action="store_true")
    parser.add_argument("--skip-multi", action="store_true")
    parser.add_argument("--skip-files", action="store_true", help="the multi-file figure only")
    parser.add_argument("--compare-env", default="",
                        help="NAME=VALUE,... : the cold, first, second and edit runs again with this "
                        "environment, in the same pairs (e.g. CUDA_TIDY_PREAMBLE_AFTER=1,"
                        "CUDA_TIDY_SHARED_PCH_AFTER=1,CUDA_TIDY_NO_HEAP_TUNING=1: the "
                        "behaviour before issue 39)")
    parser.add_argument("--json")
    args = parser.parse_args()

    files = [f for f in (args.files.split(",") if args.files else DEFAULT_FILES) if f]
    if args.skip_files:
        files = []
    multi = [f for f in (args.multi.split(",") if args.multi else DEFAULT_MULTI) if f]
    scratch = tempfile.mkdtemp(prefix="cuda-tidy-first-")
    build = os.path.abspath(args.build)
    # Snapshots (the build folder is shared; a rebuild mid-run must not
    # change the tool), with the share/ folder beside it as in the build.
    os.makedirs(os.path.join(scratch, "bin"))
    tidy_bin = os.path.join(scratch, "bin", "cuda-tidy")
    shutil.copy2(os.path.join(build, "bin", "cuda-tidy"), tidy_bin)
    if os.path.isdir(os.path.join(build, "share")):
        os.symlink(os.path.join(build, "share"), os.path.join(scratch, "share"))
    plugin = os.path.join(scratch, "libCudaTidyPlugin.so")
    shutil.copy2(os.path.join(build, "lib", "libCudaTidyPlugin.so"), plugin)
    flags = list(FLAGS)
    if SAMPLES:
        flags += ["-I", os.path.join(SAMPLES, "Common")]
    compare = ["env"] + args.compare_env.split(",") if args.compare_env else []
    clang = shutil.which("clang++-22") or "clang++-22"
    clang_tidy = shutil.which("clang-tidy-22") or "clang-tidy-22"

    def floor(f):
        return [clang, "-x", "cuda"] + flags + ["-fsyntax-only", f]

    def plugin_cmd(f):
        return [clang_tidy, "--load=" + plugin, "--checks=-*,cuda-*", "--quiet", f,
                "--", "-x", "cuda"] + flags

    def tidy(fs, *extra, env=()):
        return list(env) + [tidy_bin, "--quiet"] + list(extra) + list(fs) + ["--"] + flags

    results = {"files": {}, "flags": flags}
    try:
        for f in files:
            name = os.path.basename(f)
            work = os.path.join(scratch, "w-" + name)
            os.makedirs(work)
            copy = os.path.join(work, name)
            # Quoted includes are looked up beside the file: its folder's
            # headers come along.
            for other in os.listdir(os.path.dirname(f)):
                src = os.path.join(os.path.dirname(f), other)
                if os.path.isfile(src) and not other.endswith(".cu"):
                    shutil.copy2(src, os.path.join(work, other))
            shutil.copy2(f, copy)
            folder = os.path.join(scratch, "cache-" + name)
            keys = ["floor", "plugin", "cold", "first", "second", "edit"]
            variants = [("", [])] + ([("compared ", compare)] if compare else [])
            if compare:
                keys += ["compared cold", "compared first", "compared second", "compared edit"]
            samples = {k: [] for k in keys}
            for rep in range(args.pairs):
                samples["floor"].append(cpu(floor(copy)))
                if not args.skip_plugin:
                    samples["plugin"].append(cpu(plugin_cmd(copy)))
                for label, env in variants:
                    samples[label + "cold"].append(cpu(tidy([copy], "--no-cache", env=env)))
                    shutil.copy2(f, copy)
                    shutil.rmtree(folder, ignore_errors=True)
                    samples[label + "first"].append(
                        cpu(tidy([copy], "--cache-dir=" + folder, env=env)))
                    with open(copy, "a") as out:
                        out.write("// edited %d\n" % rep)
                    samples[label + "second"].append(
                        cpu(tidy([copy], "--cache-dir=" + folder, env=env)))
                    with open(copy, "a") as out:
                        out.write("// edited again %d\n" % rep)
                    samples[label + "edit"].append(
                        cpu(tidy([copy], "--cache-dir=" + folder, env=env)))
                sys.stderr.write("  %s: pair %d of %d\n" % (name, rep + 1, args.pairs))
            row = {}
            for k, values in samples.items():
                if not values:
                    continue
                row[k] = {
                    "cpu_seconds": statistics.median(v[0] for v in values),
                    "ratio": statistics.median(v[0] / fl[0] for v, fl in zip(values, samples["floor"])),
                    "rss_mib": statistics.median(v[2] for v in values),
                }
            results["files"][name] = row

        if not args.skip_multi and len(multi) > 1:
            folder = os.path.join(scratch, "cache-multi")
            ratios, runs = {"": [], "compared ": []}, []
            walls = {"": [], "compared ": []}
            for rep in range(args.pairs):
                floor_runs = [cpu(floor(f)) for f in multi]
                floors = [r[0] for r in floor_runs]
                run = {"floors": floors, "floor_walls": [r[1] for r in floor_runs]}
                for label, env in [("", [])] + ([("compared ", compare)] if compare else []):
                    shutil.rmtree(folder, ignore_errors=True)
                    alone = cpu(tidy(multi[:1], "--cache-dir=" + folder, env=env))[0]
                    shutil.rmtree(folder, ignore_errors=True)
                    whole = cpu(tidy(multi, "-j", "1", "--cache-dir=" + folder, env=env))[0]
                    ratios[label].append((whole - alone) / sum(floors[1:]))
                    run[label + "first_alone"] = alone
                    run[label + "multi"] = whole
                    # Per file, as the run itself times it (--time-checks:
                    # wall time of each file's compile, preamble builds
                    # included, in the file that builds them).
                    shutil.rmtree(folder, ignore_errors=True)
                    _, _, _, err, _ = measure(tidy(multi, "-j", "1", "--time-checks",
                                                   "--cache-dir=" + folder, env=env))
                    totals = {}
                    for line in err.splitlines():
                        m = re.match(r"cuda-tidy: time: (.*): total ([0-9.]+) s", line)
                        if m:
                            totals[os.path.basename(m.group(1))] = float(m.group(2))
                    later = [totals.get(os.path.basename(f), float("nan")) for f in multi[1:]]
                    walls[label].append(sum(later) / sum(run["floor_walls"][1:]))
                    run[label + "per_file_walls"] = totals
                runs.append(run)
                sys.stderr.write("  multi: pair %d of %d\n" % (rep + 1, args.pairs))
            results["multi"] = {"files": [os.path.basename(f) for f in multi],
                                "ratio_later_files": statistics.median(ratios[""]),
                                "compared_ratio_later_files": statistics.median(ratios["compared "])
                                if ratios["compared "] else None,
                                "wall_ratio_later_files": statistics.median(walls[""]),
                                "compared_wall_ratio_later_files": statistics.median(walls["compared "])
                                if walls["compared "] else None,
                                "runs": runs}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    cols = ["plugin", "cold", "first", "second", "edit"]
    if compare:
        cols += ["compared cold", "compared first", "compared second", "compared edit"]
    print("Median of %d pairs, CPU time / the floor's (CPU seconds)%s" % (
        args.pairs, "; compared: with " + args.compare_env if compare else ""))
    print()
    print("| file | floor CPU s | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for name, row in results["files"].items():
        def cell(k):
            return "%.2f (%.2f s)" % (row[k]["ratio"], row[k]["cpu_seconds"]) if k in row else "-"
        print("| %s | %.2f | %s |" % (name, row["floor"]["cpu_seconds"],
                                     " | ".join(cell(k) for k in cols)))
    if "multi" in results:
        m = results["multi"]
        print()
        print("multi-file first run, -j 1, empty folder (%s), median of %d:" % (
            ", ".join(m["files"]), args.pairs))
        print("- CPU of the run less the first file's run alone, over the later files' floors: "
              "%.2f%s" % (m["ratio_later_files"], "; compared: %.2f" % m["compared_ratio_later_files"]
                          if m["compared_ratio_later_files"] is not None else ""))
        print("- the later files' own times (--time-checks, wall) over their floors' wall: "
              "%.2f%s" % (m["wall_ratio_later_files"], "; compared: %.2f" % m["compared_wall_ratio_later_files"]
                          if m["compared_wall_ratio_later_files"] is not None else ""))
    print("load average at the end: %.2f %.2f %.2f" % os.getloadavg())
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
