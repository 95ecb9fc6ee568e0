#!/usr/bin/env python3
"""The caches change nothing but the time: every .cu file of the lit suite,
run through cuda-tidy with and without its caches, gives the same output.

  check_cache_identity.py <cuda-tidy> <tests/lit folder> <scratch folder> [--every N]

--every N (the default suite's sample, N = 4): the one-file-per-process runs
take the first .cu file of each suite folder and every Nth after it (in
name order), so every suite and every kind of run is still compared; the
all-files-of-a-suite runs take every file. Without it (ctest
cache-identity-whole, label slow, scripts/test.sh --all) every file is run.

The reference is cuda-tidy --no-cache --no-preamble, which runs clang-tidy's
own runClangTidy on every file. Against it, byte for byte (stdout, stderr,
exit code):
  one file per process, for each file and each configuration its RUN lines
  name (plus all cuda-* checks with the defaults):
    cold    --cache-dir=D, D shared by all files: the first file builds the
            preamble, the others load it from the folder;
    warm    the same again: every result replayed from the folder;
    pch     --time-checks (results are not replayed): every file parsed from
            the preamble in the folder;
  all files of a suite folder in one process (-j 2), which also joins the
  cross-file launch records of cuda-grid-sync-launch:
    shared  --no-cache: the preamble built once in memory, shared by all;
    warm    --cache-dir=D twice, the second run compared: results and
            launch records replayed;
    racing  two processes at once on one new folder: neither reads the
            other's half-written entries, and both claim the folder (its
            CACHEDIR.TAG is linked into place whole, and a tag that appears
            while a process lists the folder is read again, not taken for a
            foreign file: once 1 run in 400 here; unit test
            CacheFolderTest.ConcurrentOpensOfANewFolderAllSucceed races
            four threads on 300 new folders).
    damaged a preamble truncated and a result with a byte flipped: both
            dropped and rebuilt, the output unchanged.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def normalized_stderr(text):
    """Drops --time-checks lines, and the notes naming functions that do not
    compile: cuda-tidy's own runner prints them (TidyRunner.cpp), the
    reference run, which is plain clang-tidy, does not; the findings, which
    both leave out in those functions, are still compared. ClangTool's
    "Error while processing" lines come from the -j workers in the order
    they finish (with or without caches), so they are compared as a sorted
    block."""
    lines = [l for l in text.splitlines(True)
             if not l.startswith("cuda-tidy: time: ") and
             not (l.startswith("cuda-tidy: note: ") and " was not analyzed: " in l)]
    errors = sorted(l for l in lines if l.startswith("Error while processing "))
    return "".join(l for l in lines if not l.startswith("Error while processing ")) + "".join(errors)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, **kw)
    return p.returncode, p.stdout, normalized_stderr(p.stderr)


def configurations(path):
    """(tidy args, compile flags) for each RUN line, and the defaults."""
    configs = [(["--checks=-*,cuda-*"], [])]
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "RUN:" not in line or "%check_cuda_tidy" not in line:
                continue
            words = shlex.split(line.split("RUN:", 1)[1])
            words = [w for w in words if not w.startswith("-check-suffix")]
            # %check_cuda_tidy %s <check> %t [-- tidy args [-- flags]]
            check = words[2]
            rest = words[4:]
            tidy, flags = [], []
            if rest and rest[0] == "--":
                rest = rest[1:]
                if "--" in rest:
                    i = rest.index("--")
                    tidy, flags = rest[:i], rest[i + 1:]
                else:
                    tidy = rest
            config = (["--checks=-*," + check] + tidy, flags)
            if config not in configs:
                configs.append(config)
    return configs


def main():
    tool, lit_root, scratch = sys.argv[1:4]
    every = 1
    if len(sys.argv) > 4:
        if len(sys.argv) != 6 or sys.argv[4] != "--every" or not sys.argv[5].isdigit() \
                or int(sys.argv[5]) < 1:
            sys.exit("usage: check_cache_identity.py <cuda-tidy> <tests/lit> <scratch> [--every N]")
        every = int(sys.argv[5])
    os.makedirs(scratch, exist_ok=True)
    work = tempfile.mkdtemp(prefix="cache-identity-", dir=scratch)
    failures = []

    def compare(what, reference, got):
        if reference != got:
            failures.append(what)
            sys.stderr.write("MISMATCH %s\n--- reference (rc %d)\n%s%s--- got (rc %d)\n%s%s\n"
                             % (what, reference[0], reference[1], reference[2],
                                got[0], got[1], got[2]))

    files = []
    suites = {}
    for dirpath, _, names in sorted(os.walk(lit_root)):
        # The reference run is plain clang-tidy, which parses a file once as
        # it is; the nvcc spellings these inputs hold are repaired only by
        # the cached runs (tool/driver/config/NvccSpellingRepair.h), so the two
        # differ there by design (tests/lit/cli/nvcc-spelling-repairs.test).
        if os.path.basename(dirpath) == "nvcc-spellings":
            continue
        for name in sorted(names):
            if name.endswith(".cu"):
                path = os.path.join(dirpath, name)
                files.append(path)
                suite = os.path.relpath(path, lit_root).split(os.sep)[0]
                suites.setdefault(suite, []).append(path)
    if not files:
        sys.exit("no .cu files under " + lit_root)

    # One file per process: every file, or each suite's sample.
    sampled = [p for paths in suites.values() for i, p in enumerate(paths)
               if i % every == 0]
    folder = os.path.join(work, "single")
    runs = 0
    for path in sorted(sampled):
        for tidy, flags in configurations(path):
            base = [tool] + tidy
            tail = [path, "--"] + flags
            reference = run(base + ["--no-cache", "--no-preamble"] + tail)
            cold = run(base + ["--cache-dir=" + folder] + tail)
            warm = run(base + ["--cache-dir=" + folder] + tail)
            pch = run(base + ["--cache-dir=" + folder, "--time-checks"] + tail)
            name = "%s %s" % (os.path.relpath(path, lit_root), " ".join(tidy))
            compare("cold " + name, reference, cold)
            compare("warm " + name, reference, warm)
            compare("pch " + name, reference, pch)
            runs += 4

    # All files of a suite in one process.
    for suite, paths in sorted(suites.items()):
        base = [tool, "--checks=-*,cuda-*", "-j", "2"]
        reference = run(base + ["--no-cache", "--no-preamble"] + paths + ["--"])
        shared = run(base + ["--no-cache"] + paths + ["--"])
        compare("shared " + suite, reference, shared)
        folder = os.path.join(work, "suite-" + suite)
        run(base + ["--cache-dir=" + folder] + paths + ["--"])
        warm = run(base + ["--cache-dir=" + folder] + paths + ["--"])
        compare("warm " + suite, reference, warm)
        # Damage: truncate a preamble, flip the last byte of a result. Both
        # are dropped (and rebuilt); the output does not change.
        entries = sorted(os.listdir(folder))
        preambles = [e for e in entries if e.startswith("preamble-")]
        results = [e for e in entries if e.startswith("result-")]
        if not preambles or not results:
            failures.append("no preamble or no result in the folder of " + suite)
        else:
            damaged = {}
            victim = os.path.join(folder, preambles[0])
            with open(victim, "r+b") as f:
                f.truncate(os.path.getsize(victim) // 2)
            damaged[victim] = open(victim, "rb").read()
            victim = os.path.join(folder, results[0])
            data = bytearray(open(victim, "rb").read())
            data[-1] ^= 0x5A
            open(victim, "wb").write(bytes(data))
            damaged[victim] = bytes(data)
            rc, out, err = run(base + ["--cache-dir=" + folder, "--cache-stats"]
                               + paths + ["--"])
            stats = [l for l in err.splitlines() if l.startswith("cuda-tidy: cache:")]
            err = "".join(l for l in err.splitlines(True)
                          if not l.startswith("cuda-tidy: cache:"))
            compare("damaged " + suite, reference, (rc, out, err))
            # Every result is looked up, so the damaged one is always seen;
            # the preamble only if a file of the suite uses it. Neither may
            # stay as it was damaged once seen.
            m = re.search(r" (\d+) damaged entries dropped", stats[0] if stats else "")
            if not m or int(m.group(1)) < 1:
                failures.append("damaged result of %s not dropped: %s" % (suite, stats))
            for path, bad in damaged.items():
                if os.path.exists(path) and open(path, "rb").read() == bad and path.endswith(results[0]):
                    failures.append("damaged entry left in place: " + path)
        racing_folder = os.path.join(work, "race-" + suite)
        procs = [subprocess.Popen([tool, "--checks=-*,cuda-*", "--cache-dir=" + racing_folder]
                                  + paths + ["--"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True)
                 for _ in range(2)]
        for i, p in enumerate(procs):
            out, err = p.communicate()
            compare("racing %d %s" % (i, suite), reference,
                    (p.returncode, out, normalized_stderr(err)))
        runs += 7

    shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.stderr.write("%d of %d runs differ: %s\n" % (len(failures), runs, ", ".join(failures)))
        return 1
    print("%d files (%d run alone), %d runs: output identical with and without "
          "the caches" % (len(files), len(sampled), runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
