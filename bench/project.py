#!/usr/bin/env python3
"""cuda-tidy over a whole real project, every number measured in one run.

  bench/project.py --project cuda-samples|ggml-cuda [--files N]
                   [--build build] [--corpora /work/corpora] [--nvcc]
                   [--skip-plugin] [--json out.json] [--markdown]
                   [--cpus 0,1] [--parallel-only]

The project (issue 21):
  cuda-samples  NVIDIA/cuda-samples configured whole with CMake
                (bench/real-code/cmake-samples.sh writes the compile database
                of nvcc commands); cuda-tidy -p <that database>.
  ggml-cuda     ggml-org/ggml's src/ggml-cuda/*.cu (template-heavy), with the
                nvcc commands its CMake would give (the flags of
                bench/real-code/realcode.py, -arch=sm_90), written into a
                database here.
--files N takes the first N files of the database, sorted by path (0: all).

In the same run, one after the other (load average printed before and after:
the machine may be shared; only ratios of this run are compared):
  floor       each file's clang++-22 -fsyntax-only with the clang command
              cuda-tidy analyzes it with (--export-compile-commands), summed:
              what parsing the project costs the compiler
  cold -j1/-j2   cuda-tidy -p DB over all files, an empty cache folder each
  warm -j1/-j2   the same again on the folder the cold run filled
  edit        one file (the median floor) gets a comment appended; the
              project re-linted warm -j2, and that file alone, against its
              floor; then the file is restored
  plugin      clang-tidy-22 --load=libCudaTidyPlugin.so over the exported
              commands (one process, -j1): the plugin front-end's cost
  nvcc        (--nvcc) each database command run as the build runs it,
              summed (-j1): the project's own build time
with the peak RSS (wait4's ru_maxrss) of every cuda-tidy run and the cache
folder's size after the cold runs.
--cpus pins this process and every process it starts to those CPUs, so a
larger idle machine can stand in for a quiet two-core one (the -j2/-j1
target needs cores nothing else uses). --parallel-only runs the cold and
warm runs alone (no floors, edit, plugin, nvcc), for a machine that has
cuda-tidy but no clang++-22 or clang-tidy-22. The targets of issue 21 are printed next
to the values, PASS or MISS.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "real-code"))
import realcode  # noqa: E402

NVCC = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin",
                    "nvcc")


def say(text):
    print(text, file=sys.stderr, flush=True)


def measure(cmd, cwd=None, env=None):
    """(seconds, peak RSS in MiB, exit code, stdout, stderr) of one process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return (seconds, usage.ru_maxrss / 1024.0,
                os.waitstatus_to_exitcode(status),
                out.read().decode(errors="replace"),
                err.read().decode(errors="replace"))


def folder_bytes(path):
    total = 0
    for d, _, names in os.walk(path):
        for n in names:
            try:
                total += os.lstat(os.path.join(d, n)).st_size
            except OSError:
                pass
    return total


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# --------------------------------------------------------------------------
# The projects' compile databases

def samples_database(args):
    db = os.path.join(args.corpora, "cs-cmake", "build",
                      "compile_commands.json")
    if not os.path.exists(db):
        say("project: configuring cuda-samples (bench/real-code/"
            "cmake-samples.sh)")
        subprocess.run([os.path.join(HERE, "real-code", "cmake-samples.sh"),
                        "--cuda-tidy", args.cuda_tidy], check=False,
                       stdout=subprocess.DEVNULL)
    if not os.path.exists(db):
        sys.exit("project: no compile database at %s (needs the "
                 "NVIDIA+cuda-samples mirror and nvcc)" % db)
    with open(db) as f:
        entries = [e for e in json.load(f) if e["file"].endswith(".cu")]
    return entries, os.path.join(args.corpora, "cs-cmake", "src")


def ggml_database(args):
    corpus = next(c for c in realcode.CORPORA if c["name"] == "ggml")
    root = realcode.corpus_root(args.corpora, corpus)
    if not os.path.isdir(root):
        realcode.extract(realcode.git_dir(args.mirrors, corpus),
                         corpus["commit"], root)
    files = realcode._ggml_files(realcode.tree_paths(root))
    entries = []
    for path in files:
        flags = realcode._ggml_flags(path, root)
        obj = os.path.join("/tmp", "cuda-tidy-bench-obj",
                           path.replace("/", "_") + ".o")
        entries.append({
            "directory": root,
            "arguments": [NVCC, "-arch=sm_90", "-O3", "-Xcompiler=-fPIC"]
            + flags + ["-x", "cu", "-c", os.path.join(root, path),
                       "-o", obj],
            "file": os.path.join(root, path)})
    return entries, root


# --------------------------------------------------------------------------

class Bench:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="cuda-tidy-project-")
        # Private copies: the build folder may be rebuilt while this runs.
        self.tidy, digest = realcode.private_binary(
            os.path.abspath(args.cuda_tidy), args.corpora)
        self.plugin = os.path.join(self.work, "libCudaTidyPlugin.so")
        if not args.skip_plugin:
            shutil.copy2(os.path.join(os.path.abspath(args.build), "lib",
                                      "libCudaTidyPlugin.so"), self.plugin)
        self.results = {"project": args.project, "cuda_tidy": digest,
                        "load_before": load_average(),
                        "cpus": sorted(os.sched_getaffinity(0)),
                        "online_cpus": os.cpu_count()}
        self.rows = []

    def close(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def row(self, name, seconds, rss=None, note=""):
        self.rows.append((name, seconds, rss, note))
        self.results.setdefault("runs", {})[name] = {
            "seconds": round(seconds, 2),
            "peak_rss_mib": round(rss, 1) if rss is not None else None,
            "note": note}
        say("project: %-22s %8.1f s%s  %s" % (
            name, seconds, "  %6.0f MiB" % rss if rss is not None else "",
            note))

    def database(self):
        if self.args.project == "cuda-samples":
            entries, src = samples_database(self.args)
        else:
            entries, src = ggml_database(self.args)
        entries.sort(key=lambda e: e["file"])
        if self.args.files:
            entries = entries[:self.args.files]
        self.src = src
        self.files = [e["file"] for e in entries]
        self.db_dir = os.path.join(self.work, "db")
        os.makedirs(self.db_dir)
        with open(os.path.join(self.db_dir, "compile_commands.json"),
                  "w") as f:
            json.dump(entries, f, indent=1)
        self.entries = entries
        self.results["files"] = len(entries)

    def cuda_tidy(self, jobs, cache, files=None, extra=()):
        cmd = [self.tidy, "-p", self.db_dir, "-j", str(jobs), "--quiet",
               "--format=json", "--cache-dir=" + cache] + list(extra)
        cmd += files if files is not None else self.files
        return measure(cmd, cwd=self.src)

    @staticmethod
    def findings(stdout):
        try:
            data = json.loads(stdout)
        except ValueError:
            return None
        return sorted((f.get("file"), f.get("line"), f.get("check"),
                       f.get("message")) for f in data.get("findings", []))

    def floors(self):
        exported = os.path.join(self.work, "exported")
        seconds, _, rc, _, err = measure(
            [self.tidy, "-p", self.db_dir, "--export-compile-commands=" +
             exported] + self.files, cwd=self.src)
        if rc != 0:
            sys.exit("project: --export-compile-commands failed:\n" + err)
        self.exported = exported
        with open(os.path.join(exported, "compile_commands.json")) as f:
            commands = json.load(f)
        self.floor_of = {}
        self.floor_peak_rss = 0.0
        total = 0.0
        for e in commands:
            argv = list(e["arguments"])
            # The analysis's own clang command, as a syntax check: -c and
            # -o go, -fsyntax-only comes in.
            out = []
            skip = False
            for a in argv:
                if skip:
                    skip = False
                    continue
                if a == "-o":
                    skip = True
                    continue
                if a == "-c":
                    continue
                out.append(a)
            out[0] = "clang++-22"
            out.insert(1, "-fsyntax-only")
            s, rss, rc, _, err = measure(out, cwd=e["directory"])
            self.floor_of[e["file"]] = s
            self.floor_peak_rss = max(self.floor_peak_rss, rss)
            total += s
        self.row("floor (sum, -j1)", total, self.floor_peak_rss,
                 "peak RSS: the largest of the syntax checks")
        self.results["floor_sum"] = total
        self.results["floor_peak_rss_mib"] = self.floor_peak_rss
        return total

    def run(self):
        a = self.args
        self.database()
        say("project: %s, %d files, load %s" % (a.project, len(self.files),
                                                 self.results["load_before"]))
        floor = None if a.parallel_only else self.floors()
        caches = {}
        found = {}
        for jobs in (1, 2):
            cache = os.path.join(self.work, "cache-j%d" % jobs)
            caches[jobs] = cache
            s, rss, rc, out, err = self.cuda_tidy(jobs, cache)
            size = folder_bytes(cache)
            self.results["cache_bytes_after_cold_j%d" % jobs] = size
            found["cold-j%d" % jobs] = self.findings(out)
            self.row("cuda-tidy cold -j%d" % jobs, s, rss,
                     "exit %d, cache %.0f MB" % (rc, size / 1e6))
        for jobs in (1, 2):
            s, rss, rc, out, _ = self.cuda_tidy(jobs, caches[jobs])
            found["warm-j%d" % jobs] = self.findings(out)
            self.row("cuda-tidy warm -j%d" % jobs, s, rss, "exit %d" % rc)
        same = len({json.dumps(v) for v in found.values()}) == 1
        self.results["findings_identical"] = same
        self.results["findings"] = len(found["cold-j1"] or [])
        if a.parallel_only:
            self.results["load_after"] = load_average()
            self.targets(floor)
            return
        # One file edited: the median floor's file gets a comment at its end.
        by_floor = sorted(self.floor_of.items(), key=lambda kv: kv[1])
        edited, edited_floor = by_floor[len(by_floor) // 2]
        with open(edited, "rb") as f:
            original = f.read()
        try:
            with open(edited, "ab") as f:
                f.write(b"\n// edited by bench/project.py\n")
            s, rss, rc, _, _ = self.cuda_tidy(2, caches[2])
            self.row("re-lint, one file edited, -j2", s, rss,
                     os.path.relpath(edited, self.src))
            with open(edited, "ab") as f:
                f.write(b"// edited again\n")
            s1, rss1, rc1, _, _ = self.cuda_tidy(1, caches[2], [edited])
            self.row("that file alone, warm", s1, rss1,
                     "its floor %.2f s" % edited_floor)
        finally:
            with open(edited, "wb") as f:
                f.write(original)
        self.results["edited_file"] = os.path.relpath(edited, self.src)
        self.results["edited_floor"] = edited_floor
        self.results["edited_alone"] = s1
        self.results["edited_relint"] = s
        if not a.skip_plugin:
            with open(os.path.join(self.exported,
                                   "compile_commands.json")) as f:
                files = [e["file"] for e in json.load(f)]
            s, rss, rc, _, _ = measure(
                ["clang-tidy-22", "--load=" + self.plugin, "-p",
                 self.exported, "--quiet", "--checks=-*,cuda-*"] + files,
                cwd=self.src)
            self.row("clang-tidy-22 + plugin -j1", s, rss, "exit %d" % rc)
        if a.nvcc:
            total = 0.0
            os.makedirs("/tmp/cuda-tidy-bench-obj", exist_ok=True)
            for e in self.entries:
                argv = e.get("arguments") or e["command"].split()
                argv = [x for x in argv]
                if "-o" in argv:
                    argv[argv.index("-o") + 1] = os.path.join(
                        self.work, "obj.o")
                s, _, rc, _, _ = measure(argv, cwd=e["directory"])
                total += s
            self.row("nvcc build (sum, -j1)", total)
            self.results["nvcc_sum"] = total
        self.results["load_after"] = load_average()
        self.targets(floor)

    def targets(self, floor):
        r = self.results["runs"]
        cold1 = r["cuda-tidy cold -j1"]["seconds"]
        cold2 = r["cuda-tidy cold -j2"]["seconds"]
        cache = self.results["cache_bytes_after_cold_j1"]
        rows = []
        if floor is not None:
            alone = self.results["edited_alone"]
            # Issue 39: two workers hold no more than two syntax checks
            # would, give or take a fifth (the largest check's peak, twice).
            peak2 = r["cuda-tidy cold -j2"]["peak_rss_mib"]
            two_floors = 2 * self.results["floor_peak_rss_mib"]
            rows += [
                ("cold whole-project lint / floor sum (-j1)", "<= 0.8",
                 cold1 / floor, cold1 / floor <= 0.8),
                ("peak RSS of cold -j2 / two syntax checks' peak", "<= 1.2",
                 peak2 / two_floors, peak2 / two_floors <= 1.2),
                ("re-lint of the edited file / its floor", "<= 0.15",
                 alone / self.results["edited_floor"],
                 alone / self.results["edited_floor"] <= 0.15)]
        rows += [
            ("cache after the cold run", "<= 400 MB", cache / 1e6,
             cache <= 400e6),
            ("cold -j1 / cold -j2", ">= 1.7", cold1 / cold2,
             cold1 / cold2 >= 1.7),
            ("findings identical (cold, warm, -j1, -j2)", "yes",
             self.results["findings_identical"],
             self.results["findings_identical"]),
        ]
        self.results["targets"] = [
            {"target": t, "want": w, "value": v if isinstance(v, bool)
             else round(v, 3), "pass": p} for t, w, v, p in rows]
        say("")
        say("project: %s, %d files, %d findings; load %s -> %s; "
            "CPUs %s of %d" % (
                self.args.project, self.results["files"],
                self.results["findings"], self.results["load_before"],
                self.results["load_after"],
                ",".join(str(c) for c in self.results["cpus"]),
                self.results["online_cpus"]))
        for t, w, v, p in rows:
            say("  %-45s %-10s %10s  %s" % (
                t, w, v if isinstance(v, bool) else "%.3f" % v,
                "PASS" if p else "MISS"))

    def markdown(self):
        lines = ["| run | seconds | peak RSS (MiB) | note |",
                 "|---|---:|---:|---|"]
        for name, s, rss, note in self.rows:
            lines.append("| %s | %.1f | %s | %s |" % (
                name, s, "%.0f" % rss if rss is not None else "", note))
        lines += ["", "| target | want | measured | |", "|---|---|---:|---|"]
        for t in self.results["targets"]:
            v = t["value"]
            lines.append("| %s | %s | %s | %s |" % (
                t["target"], t["want"], v if isinstance(v, bool) else
                "%.3f" % v, "PASS" if t["pass"] else "MISS"))
        return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--project", choices=("cuda-samples", "ggml-cuda"),
                    required=True)
    ap.add_argument("--files", type=int, default=0)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cuda-tidy")
    ap.add_argument("--corpora", default="/work/corpora")
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--nvcc", action="store_true")
    ap.add_argument("--skip-plugin", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--cpus", help="comma-separated CPUs to pin every run "
                    "to (os.sched_setaffinity)")
    ap.add_argument("--parallel-only", action="store_true",
                    help="cold and warm -j1/-j2 only")
    args = ap.parse_args()
    if args.cpus:
        os.sched_setaffinity(0, {int(c) for c in args.cpus.split(",")})
    if args.parallel_only:
        args.skip_plugin = True
        args.nvcc = False
    if not args.cuda_tidy:
        args.cuda_tidy = os.path.join(args.build, "bin", "cuda-tidy")
    bench = Bench(args)
    try:
        bench.run()
        if args.json:
            with open(args.json, "w") as f:
                json.dump(bench.results, f, indent=1)
        if args.markdown:
            print(bench.markdown())
    finally:
        bench.close()


if __name__ == "__main__":
    main()
