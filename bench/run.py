#!/usr/bin/env python3
"""cuda-tidy's benchmark: one command, every number measured in the same run.

  bench/run.py [--build build] [--reps 3] [--files N] [--sizes 1000,2000,...]
               [--skip-scaling] [--families F,G] [--skip-jobs] [--json out.json]
               [--write-doc]

Per file of bench/corpus (median of --reps runs each, tools interleaved so a
change of machine load hits them alike):
  floor     clang++-22 -fsyntax-only --cuda-device-only, cuda-tidy's flags
  plugin    clang-tidy-22 --load=build/lib/libCudaTidyPlugin.so, same flags
  cold      cuda-tidy --no-cache (no folder; nothing reused)
  first     cuda-tidy with an empty cache folder (a lone file's first run:
            parsed without a preamble, issue 39; bench/first_run.py has the
            second run, which builds it)
  warm-pch  cuda-tidy, preamble in the folder, result not replayed
            (--time-checks turns replay off)
  warm      cuda-tidy, folder filled: the result is replayed
with peak RSS of each (wait4's ru_maxrss). Then the generated kernels of
growing size (bench/gen_kernels.py): the checks' time with the parse left
out (--time-checks), and its ratio per doubling; -j 2 against -j 1 over
the corpus; and a re-lint of the unchanged corpus against a cold lint.
--scaling-meter instructions counts the checks' instructions instead of
timing them (valgrind's callgrind, collecting only inside clang's
MatchFinder::matchAST, where every check and its analyses run): exact and
the same on a loaded machine, so the ratio per doubling is not noise; about
50x slower, one run per kernel.

The targets of issue 7 are printed next to the values, PASS or MISS. Timings
are never asserted anywhere else (no timed tests). The machine is shared:
the load average at the start and the end is printed with the numbers.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_kernels  # noqa: E402

CUDA = os.environ.get("CUDA_PATH", "/usr/local/cuda")
FLAGS = ["--cuda-path=" + CUDA, "-Wno-unknown-cuda-version", "-isystem",
         os.path.join(CUDA, "include", "cccl"), "--cuda-gpu-arch=sm_90",
         "--cuda-device-only"]


def measure(cmd):
    """(seconds, peak RSS in MiB, exit code, stderr, CPU seconds) of one
    process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return (seconds, usage.ru_maxrss / 1024.0, proc.returncode,
                err.read().decode(errors="replace"), usage.ru_utime + usage.ru_stime)


def first_line(cmd):
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True).stdout
        lines = [l for l in out.splitlines() if l.strip()]
        return lines[0].strip() if lines else "?"
    except OSError:
        return "not found"


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = "%.1f GiB" % (int(line.split()[1]) / 1024.0 / 1024.0)
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem,
            "system": " ".join(platform.uname()[0:3:2])}


def median(values):
    return statistics.median(values) if values else float("nan")


def ratio(a, b):
    return a / b if b else float("nan")


class Bench:
    def __init__(self, args):
        build = os.path.abspath(args.build)
        self.cuda_tidy = os.path.join(build, "bin", "cuda-tidy")
        self.plugin = os.path.join(build, "lib", "libCudaTidyPlugin.so")
        self.clang = shutil.which("clang++-22") or "clang++-22"
        self.clang_tidy = shutil.which("clang-tidy-22") or "clang-tidy-22"
        self.args = args
        self.scratch = tempfile.mkdtemp(prefix="cuda-tidy-bench-")
        # Snapshots: a rebuild of build/ during the run (the build folder is
        # shared) must not change the tool, or its cache keys, halfway.
        self.build = build
        for attr in ("cuda_tidy", "plugin"):
            if attr == "plugin" and not os.path.exists(self.plugin):
                continue  # only the per-file table runs it
            copy = os.path.join(self.scratch, os.path.basename(getattr(self, attr)))
            shutil.copy2(getattr(self, attr), copy)
            setattr(self, attr, copy)
        self.results = {}
        self.lines = []

    def say(self, text=""):
        print(text, flush=True)
        self.lines.append(text)

    # The tools, one command each.
    def floor(self, f):
        return [self.clang, "-x", "cuda"] + FLAGS + ["-fsyntax-only", f]

    def plugin_cmd(self, f):
        return [self.clang_tidy, "--load=" + self.plugin, "--checks=-*,cuda-*",
                "--quiet", f, "--", "-x", "cuda"] + FLAGS

    def tidy(self, files, *extra):
        return [self.cuda_tidy, "--quiet"] + list(extra) + list(files) + ["--"]

    def per_file(self, files):
        reps = self.args.reps
        warm_dir = os.path.join(self.scratch, "warm")
        first_dir = os.path.join(self.scratch, "first")
        # Fill the folder the warm runs read: a file's first run alone
        # parses it without a preamble (issue 39: its preamble is built at
        # the second sighting), the second (--time-checks: the result is
        # not replayed) builds it.
        for f in files:
            measure(self.tidy([f], "--cache-dir=" + warm_dir))
            measure(self.tidy([f], "--cache-dir=" + warm_dir, "--time-checks"))
        tools = [
            ("floor", self.floor),
            ("plugin", self.plugin_cmd),
            ("cold", lambda f: self.tidy([f], "--no-cache")),
            ("first", lambda f: self.tidy([f], "--cache-dir=" + first_dir)),
            ("warm-pch", lambda f: self.tidy([f], "--cache-dir=" + warm_dir, "--time-checks")),
            ("warm", lambda f: self.tidy([f], "--cache-dir=" + warm_dir)),
        ]
        samples = {(name, f): [] for name, _ in tools for f in files}
        failed = set()
        for rep in range(reps):
            for f in files:
                for name, make in tools:
                    if name == "first":
                        shutil.rmtree(first_dir, ignore_errors=True)
                    seconds, rss, code, err, _ = measure(make(f))
                    if code != 0 and (name, f) not in failed:
                        failed.add((name, f))
                        sys.stderr.write("note: %s on %s exited %d\n" % (name, f, code))
                    samples[(name, f)].append((seconds, rss))
            sys.stderr.write("  per-file: rep %d of %d done\n" % (rep + 1, reps))
        table = {}
        for f in files:
            table[f] = {name: {"seconds": median([s for s, _ in samples[(name, f)]]),
                               "rss_mib": median([r for _, r in samples[(name, f)]])}
                        for name, _ in tools}
        self.results["per_file"] = table
        names = [n for n, _ in tools]
        self.say("## Per file (%d files, median of %d runs each)" % (len(files), reps))
        self.say("")
        self.say("| file | " + " | ".join(names) + " | cold/floor | warm-pch/floor | warm/floor |")
        self.say("|---" * (len(names) + 4) + "|")
        for f in files:
            row = table[f]
            fl = row["floor"]["seconds"]
            self.say("| %s | %s | %.2f | %.2f | %.3f |" % (
                os.path.basename(f),
                " | ".join("%.2f s" % row[n]["seconds"] for n in names),
                ratio(row["cold"]["seconds"], fl), ratio(row["warm-pch"]["seconds"], fl),
                ratio(row["warm"]["seconds"], fl)))
        self.say("")
        summary = {}
        for n in names:
            summary[n] = {
                "median_seconds": median([table[f][n]["seconds"] for f in files]),
                "median_rss_mib": median([table[f][n]["rss_mib"] for f in files]),
                "median_ratio_to_floor": median([ratio(table[f][n]["seconds"], table[f]["floor"]["seconds"]) for f in files]),
                "median_rss_ratio_to_floor": median([ratio(table[f][n]["rss_mib"], table[f]["floor"]["rss_mib"]) for f in files]),
            }
        self.results["per_file_summary"] = summary
        self.say("| tool | median time | median time / floor | median peak RSS | RSS / floor |")
        self.say("|---|---|---|---|---|")
        for n in names:
            s = summary[n]
            self.say("| %s | %.2f s | %.3f | %.0f MiB | %.2f |" % (
                n, s["median_seconds"], s["median_ratio_to_floor"], s["median_rss_mib"],
                s["median_rss_ratio_to_floor"]))
        self.say("")

    def scaling(self):
        sizes = [int(s) for s in self.args.sizes.split(",")]
        gen_dir = os.path.join(self.scratch, "generated")
        paths = gen_kernels.generate(gen_dir, sizes)
        empty = os.path.join(gen_dir, "empty.cu")
        with open(empty, "w") as f:
            f.write("#include <cuda_runtime.h>\n\n__global__ void empty(float *Out) {}\n")

        meter_instructions = self.args.scaling_meter == "instructions"
        if meter_instructions:
            counted = self.counted_binary()

        def checks_instructions(path, checks=None):
            """(billions of instructions inside matchAST, whole run's seconds)."""
            extra = ["--checks=" + checks] if checks else []
            out = os.path.join(self.scratch, "callgrind.out")
            seconds, _, rc, err, _ = measure(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                 "--collect-atstart=no",
                 "--toggle-collect=clang::ast_matchers::MatchFinder::matchAST*",
                 counted, "--quiet", "--no-cache"] + extra + [path, "--"])
            m = re.search(r"Collected : ([0-9]+)", err)
            if not m:
                sys.exit("bench: callgrind gave no count for %s (exit %d):\n%s"
                         % (path, rc, err[-2000:]))
            return int(m.group(1)) / 1e9, seconds

        def checks_time(path, checks=None):
            if meter_instructions:
                return checks_instructions(path, checks)
            values, totals = [], []
            extra = ["--checks=" + checks] if checks else []
            for _ in range(self.args.scaling_reps):
                seconds, _, _, err, _ = measure(self.tidy([path], "--no-cache", "--time-checks",
                                                          *extra))
                m = re.search(r"total ([0-9.]+) s, checks ([0-9.]+) s", err)
                if m:
                    totals.append(float(m.group(1)))
                    values.append(float(m.group(2)))
            # The fastest run: on a shared machine noise only ever adds
            # time, and a few milliseconds of it turn a step of the ratio
            # per doubling into noise.
            return min(values), min(totals)

        base, base_total = checks_time(empty)
        # A family that turns on an opt-in rule (gen_kernels.GENERATOR_CHECKS)
        # is measured against the empty kernel with the same checks.
        bases = {None: base}
        for checks in sorted(set(gen_kernels.GENERATOR_CHECKS.values())):
            bases[checks] = checks_time(empty, checks)[0]
        if meter_instructions:
            self.say("## Scaling: the checks' instructions, parse excluded (callgrind inside "
                     "MatchFinder::matchAST; 'checks' and 'net' in billions of instructions)")
            self.say("")
            self.say("An empty kernel costs %.3f G instructions of checks; 'net' is the count "
                     "above that." % base)
        else:
            self.say("## Scaling: the checks' time, parse excluded (--time-checks; fastest of %d)"
                     % self.args.scaling_reps)
            self.say("")
            self.say("An empty kernel costs %.3f s of checks (what a run costs with no code of "
                     "its own to walk); 'net' is the time above that." % base)
        self.say("")
        self.say("| kernel | statements | whole run | checks | net | net ratio to the half size |")
        self.say("|---|---|---|---|---|---|")
        scaling = {"meter": self.args.scaling_meter, "empty_checks_seconds": base}
        families = [f for f in self.args.families.split(",") if f] or list(gen_kernels.GENERATORS)
        for family in families:
            previous = None
            rows = []
            enabled = gen_kernels.GENERATOR_CHECKS.get(family)
            for n in sizes:
                checks, total = checks_time(paths[(family, n)], enabled)
                net = max(checks - bases[enabled], 1e-4)
                r = ratio(net, previous) if previous else None
                rows.append({"statements": n, "checks": checks, "net": net, "total": total,
                             "ratio": r})
                unit = " G" if meter_instructions else " s"
                self.say("| %s | %d | %.2f s | %.3f%s | %.3f%s | %s |" % (
                    family, n, total, checks, unit, net, unit, "%.2f" % r if r else "-"))
                previous = net
            scaling[family] = rows
        self.say("")
        self.results["scaling"] = scaling
        self.hostile_scaling()

    def counted_binary(self):
        """A copy of cuda-tidy valgrind can read: its DWARF (clang 22's) is
        more than valgrind's reader takes, so it goes; the symbols stay for
        --toggle-collect. The share/ folder beside it comes along."""
        root = os.path.join(self.scratch, "counted")
        os.makedirs(os.path.join(root, "bin"), exist_ok=True)
        dst = os.path.join(root, "bin", "cuda-tidy")
        subprocess.run(["objcopy", "--strip-debug", self.cuda_tidy, dst], check=True)
        share = os.path.join(self.build, "share")
        if os.path.isdir(share):
            shutil.copytree(share, os.path.join(root, "share"), dirs_exist_ok=True)
        return dst

    def hostile_scaling(self):
        """The hostile shapes of issue 16 F10 (an else-if chain, ifs nested
        without braces, a conditional-operator chain, a sum), at their own
        sizes: the whole run and the checks' share, once each (they take
        seconds to minutes). A run past --hostile-time-limit is reported as
        such (--file-time-limit), not waited for."""
        sizes = [int(s) for s in self.args.hostile_sizes.split(",") if s]
        if not sizes:
            return
        gen_dir = os.path.join(self.scratch, "hostile")
        paths = gen_kernels.generate(gen_dir, sizes, gen_kernels.HOSTILE_GENERATORS)
        self.say("## Scaling: hostile shapes (issue 16 F10; one run each)")
        self.say("")
        self.say("| shape | n | whole run | checks | whole-run ratio to the half size |")
        self.say("|---|---|---|---|---|")
        hostile = {}
        limit = "--file-time-limit=%g" % self.args.hostile_time_limit
        for family in gen_kernels.HOSTILE_GENERATORS:
            previous = None
            rows = []
            for n in sizes:
                seconds, _, _, err, _ = measure(self.tidy([paths[(family, n)]], "--no-cache",
                                                          "--time-checks", limit))
                m = re.search(r"total ([0-9.]+) s, checks ([0-9.]+) s", err)
                if not m:
                    rows.append({"n": n, "total": None, "checks": None, "wall": seconds})
                    self.say("| %s | %d | > %g s (time limit) | - | - |"
                             % (family, n, self.args.hostile_time_limit))
                    previous = None
                    continue
                total, checks = float(m.group(1)), float(m.group(2))
                r = ratio(total, previous) if previous else None
                rows.append({"n": n, "total": total, "checks": checks, "ratio": r})
                self.say("| %s | %d | %.2f s | %.2f s | %s |" % (
                    family, n, total, checks, "%.2f" % r if r else "-"))
                previous = total
            hostile[family] = rows
        self.say("")
        self.results["hostile_scaling"] = hostile

    def jobs_and_relint(self, files):
        one = [measure(self.tidy(files, "--no-cache", "-j", "1")) for _ in range(self.args.jobs_reps)]
        two = [measure(self.tidy(files, "--no-cache", "-j", "2")) for _ in range(self.args.jobs_reps)]
        relint_dir = os.path.join(self.scratch, "relint")
        first = measure(self.tidy(files, "--cache-dir=" + relint_dir, "-j", "1"))
        again = [measure(self.tidy(files, "--cache-dir=" + relint_dir, "-j", "1"))
                 for _ in range(self.args.jobs_reps)]
        t1, t2 = median([m[0] for m in one]), median([m[0] for m in two])
        r1, r2 = median([m[1] for m in one]), median([m[1] for m in two])
        c1, c2 = median([m[4] for m in one]), median([m[4] for m in two])
        warm = median([m[0] for m in again])
        self.results["jobs"] = {"j1_seconds": t1, "j2_seconds": t2, "speedup": ratio(t1, t2),
                                "j1_rss_mib": r1, "j2_rss_mib": r2,
                                "j1_cpu_seconds": c1, "j2_cpu_seconds": c2}
        self.results["relint"] = {"cold_seconds": t1, "first_with_folder_seconds": first[0],
                                  "warm_seconds": warm, "speedup": ratio(t1, warm)}
        self.say("## The corpus in one process (%d files, --no-cache, median of %d)"
                 % (len(files), self.args.jobs_reps))
        self.say("")
        self.say("| run | time | CPU time | cores it got (CPU / time) | peak RSS |")
        self.say("|---|---|---|---|---|")
        self.say("| -j 1 | %.1f s | %.1f s | %.2f | %.0f MiB |" % (t1, c1, ratio(c1, t1), r1))
        self.say("| -j 2 | %.1f s | %.1f s | %.2f | %.0f MiB (%.0f MiB per worker) |"
                 % (t2, c2, ratio(c2, t2), r2, r2 / 2))
        self.say("| first lint, empty folder, -j 1 | %.1f s | %.1f s | %.2f | %.0f MiB |"
                 % (first[0], first[4], ratio(first[4], first[0]), first[1]))
        wc = median([m[4] for m in again])
        self.say("| re-lint, unchanged corpus, -j 1 | %.2f s | %.2f s | %.2f | %.0f MiB |"
                 % (warm, wc, ratio(wc, warm), median([m[1] for m in again])))
        self.say("")
        self.say("(-j 2 can only be faster than -j 1 when the machine has a second core "
                 "to give: 'cores it got' says how much it had.)")
        self.say("")

    def targets(self):
        rows = []
        s = self.results.get("per_file_summary")
        if s:
            rows.append(("warm cuda-tidy (preamble) / floor, median per file", "<= 0.25",
                         s["warm-pch"]["median_ratio_to_floor"], s["warm-pch"]["median_ratio_to_floor"] <= 0.25))
            rows.append(("warm cuda-tidy (result replayed) / floor, median per file", "<= 0.25",
                         s["warm"]["median_ratio_to_floor"], s["warm"]["median_ratio_to_floor"] <= 0.25))
            rows.append(("cold cuda-tidy / floor, median per file", "<= 1.15",
                         s["cold"]["median_ratio_to_floor"], s["cold"]["median_ratio_to_floor"] <= 1.15))
            rows.append(("plugin / floor, median per file (no target)", "-",
                         s["plugin"]["median_ratio_to_floor"], None))
            rows.append(("peak RSS of cold cuda-tidy / floor's, median per file", "<= 1.2",
                         s["cold"]["median_rss_ratio_to_floor"], s["cold"]["median_rss_ratio_to_floor"] <= 1.2))
        sc = self.results.get("scaling")
        if sc:
            measured = [fam for fam in gen_kernels.GENERATORS if fam in sc]
            worst = max(r["ratio"] for fam in measured for r in sc[fam] if r["ratio"])
            counted = sc.get("meter") == "instructions"
            rows.append(("checks' %s ratio per doubling, worst step (net)"
                         % ("instructions" if counted else "time"), "<= 2.3", worst, worst <= 2.3))
            biggest = max(r["statements"] for r in sc[measured[0]])
            slowest = max(r["net"] for fam in measured for r in sc[fam] if r["statements"] == biggest)
            if not counted:
                rows.append(("checks' time of the %dk kernels, slowest family (net)"
                             % (biggest // 1000), "< 0.5 s", slowest, slowest < 0.5))
        j = self.results.get("jobs")
        if j:
            rows.append(("-j 2 / -j 1 speed-up over the corpus", ">= 1.7", j["speedup"], j["speedup"] >= 1.7))
            if s:
                # A -j run's peak is set by its largest files: compared with
                # the floor's peak over the same corpus.
                floor_peak = max(v["floor"]["rss_mib"] for v in self.results["per_file"].values())
                per_worker = j["j2_rss_mib"] / 2 / floor_peak
                rows.append(("peak RSS per -j 2 worker (process peak / 2) / the floor's peak over the corpus",
                             "<= 1.2", per_worker, per_worker <= 1.2))
            rl = self.results["relint"]
            rows.append(("re-lint of the unchanged corpus, cold / warm", ">= 20", rl["speedup"], rl["speedup"] >= 20))
        self.say("## Targets (issue 7)")
        self.say("")
        self.say("| target | wanted | measured | |")
        self.say("|---|---|---|---|")
        for name, wanted, value, ok in rows:
            self.say("| %s | %s | %.3f | %s |" % (name, wanted, value,
                                                 "-" if ok is None else ("PASS" if ok else "MISS")))
        self.say("")
        self.results["targets"] = [{"target": n, "wanted": w, "measured": v, "pass": ok}
                                   for n, w, v, ok in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    parser.add_argument("--reps", type=int, default=3, help="runs per file and tool")
    parser.add_argument("--files", type=int, default=0, help="only the first N corpus files")
    parser.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    parser.add_argument("--scaling-reps", type=int, default=7)
    parser.add_argument("--scaling-meter", choices=("time", "instructions"), default="time",
                        help="time the checks (--time-checks, fastest of --scaling-reps) or "
                             "count their instructions (callgrind; exact on a loaded machine)")
    parser.add_argument("--hostile-sizes", default="5000,10000,20000",
                        help="sizes of the hostile shapes (issue 16 F10); empty: skip them")
    parser.add_argument("--hostile-time-limit", type=float, default=120,
                        help="--file-time-limit for each hostile run")
    parser.add_argument("--jobs-reps", type=int, default=1)
    parser.add_argument("--skip-per-file", action="store_true")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--families", default="",
                        help="only these scaling families (comma-separated, e.g. shared-race); "
                        "default: all of bench/gen_kernels.py")
    parser.add_argument("--skip-jobs", action="store_true")
    parser.add_argument("--json", help="write every number here")
    parser.add_argument("--write-doc", action="store_true",
                        help="replace the results in docs/performance.md")
    args = parser.parse_args()

    bench = Bench(args)
    files = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus) if f.endswith(".cu"))
    if args.files:
        files = files[:args.files]
    start_load = os.getloadavg()
    started = datetime.datetime.now()
    info = machine()
    bench.results["machine"] = info
    bench.results["versions"] = {
        "clang++": first_line([bench.clang, "--version"]),
        "clang-tidy": [l for l in subprocess.run([bench.clang_tidy, "--version"], stdout=subprocess.PIPE,
                                                  universal_newlines=True).stdout.splitlines() if "version" in l][0].strip(),
        "cuda-tidy": first_line([bench.cuda_tidy, "--version"]),
        "nvcc": [l for l in subprocess.run(["nvcc", "--version"], stdout=subprocess.PIPE,
                                            universal_newlines=True).stdout.splitlines() if "release" in l][-1].strip()
        if shutil.which("nvcc") else "not found",
    }
    command = "bench/run.py " + " ".join(sys.argv[1:])
    bench.say("# cuda-tidy benchmark, %s" % started.strftime("%Y-%m-%d %H:%M"))
    bench.say("")
    bench.say("- command: `%s`" % command.strip())
    bench.say("- machine: %s, %s cores, %s, %s" % (info["cpu"], info["cores"], info["memory"], info["system"]))
    for k, v in bench.results["versions"].items():
        bench.say("- %s: %s" % (k, v))
    bench.say("- load average at the start: %.2f %.2f %.2f" % start_load)
    bench.say("")
    try:
        if not args.skip_per_file:
            bench.per_file(files)
        if not args.skip_scaling:
            bench.scaling()
        if not args.skip_jobs:
            bench.jobs_and_relint(files)
        end_load = os.getloadavg()
        bench.say("- load average at the end: %.2f %.2f %.2f; wall time of the benchmark: %.0f s"
                  % (end_load + ((datetime.datetime.now() - started).total_seconds(),)))
        bench.say("")
        bench.results["load_average"] = {"start": start_load, "end": end_load}
        bench.targets()
    finally:
        shutil.rmtree(bench.scratch, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(bench.results, f, indent=1)
    if args.write_doc:
        doc = os.path.join(ROOT, "docs", "performance.md")
        text = open(doc).read()
        begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
        if begin in text and end in text:
            head, rest = text.split(begin, 1)
            _, tail = rest.split(end, 1)
            body = "\n".join(bench.lines).replace("# cuda-tidy benchmark, ", "### Run of ")
            body = re.sub(r"^## ", "#### ", body, flags=re.M)
            with open(doc, "w") as f:
                f.write(head + begin + "\n" + body + "\n" + end + tail)
        else:
            sys.stderr.write("docs/performance.md has no bench markers; not written\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
