#!/usr/bin/env python3
"""Re-runs, with the current build, the files of a corpus that had findings in
an earlier run (realcode.py --results), and prints each finding with its
verdict from triage/<corpus>.tsv, then the counts.

usage: subset.py CORPUS EARLIER_RESULTS.json
       subset.py CORPUS --triaged

--triaged needs no earlier run (a fresh machine has none): it extracts the
corpus if needed and re-runs each file its triage names, and for a finding in
a header the first of the corpus's files that includes it by name.

A quick check of a change that can only remove findings (a new fact): the
files that had none before are not re-run, so a finding the change adds
there is not seen; run realcode.py on the whole corpus for that.
Guideline findings (cuda-group-by-value) have no verdict and count as
UNTRIAGED.
"""
import csv
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
corpus, earlier = sys.argv[1], sys.argv[2]
verdicts = {}
with open(os.path.join(HERE, "triage", corpus + ".tsv")) as triage:
    for row in csv.reader(triage, delimiter="\t"):
        if (len(row) >= 5 and not row[0].startswith("#")
                and row[4] != "verdict"):
            verdicts[(row[2], row[3])] = row[4]


def triaged_files(name):
    """The corpus's files that hold a triaged finding or include, by name,
    a header that does (the first such file per header)."""
    sys.path.insert(0, HERE)
    import realcode  # noqa: E402
    c = [x for x in realcode.CORPORA if x["name"] == name][0]
    mirrors = os.environ.get("CUDA_TIDY_MIRRORS", "/work/.mirror")
    root = realcode.corpus_root(
        os.environ.get("CUDA_TIDY_CORPORA", "/work/corpora"), c)
    if not os.path.exists(os.path.join(root, ".cuda-tidy-extracted")):
        realcode.extract(realcode.git_dir(mirrors, c), c["commit"], root,
                         c.get("extensions", ()))
        if c.get("prepare"):
            c["prepare"](root)
    runnable = c["files"](realcode.tree_paths(root),
                          {"ggml_instances": False, "root": root,
                           "mirrors": mirrors})
    wanted = sorted({k[0].rsplit(":", 1)[0] for k in verdicts})
    chosen = [p for p in wanted if p in runnable]
    # Which files include each base name, over every source-like file (a
    # header is often reached only through another header).
    include = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
    includers = {}
    for path in sorted(realcode.tree_paths(root)):
        if not path.endswith(realcode.SOURCE_EXTS):
            continue
        with open(os.path.join(root, path), errors="replace") as f:
            for m in include.finditer(f.read()):
                base = os.path.basename(m.group(1))
                includers.setdefault(base, []).append(path)
    runnable_set = set(runnable)
    for header in (p for p in wanted if p not in runnable_set):
        frontier, seen_headers, found = [header], {header}, None
        while frontier and found is None:
            nxt = []
            for h in frontier:
                # Closest includers first: a base name such as kernels.cu
                # is included by many folders' main files.
                users = sorted(includers.get(os.path.basename(h), []),
                               key=lambda u: -len(os.path.commonpath([u, h])))
                for user in users:
                    if user in runnable_set:
                        found = user
                        break
                    if user not in seen_headers:
                        seen_headers.add(user)
                        nxt.append(user)
                if found:
                    break
            frontier = nxt
        if found is None:
            print("no file of %s includes %s; not measured" % (name, header),
                  file=sys.stderr)
        elif found not in chosen:
            chosen.append(found)
    return chosen


if earlier == "--triaged":
    files = triaged_files(corpus)
else:
    results = json.load(open(earlier))[corpus]
    files = [f["path"] for f in results
             if any(not x.get("check", "").startswith("clang-diagnostic")
                    for x in f["findings"])]
counts, seen = {}, set()
for path in files:
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "one_file.py"), corpus, path,
         "--no-explain"], capture_output=True, text=True).stdout
    for m in re.finditer(r"^(\S+?):(\d+):\d+: warning: .*\[(cuda-[a-z-]+)\]$",
                         out, re.M):
        name, line, check = m.groups()
        rel = re.sub(r"^.*/%s-[0-9a-f]{12}/" % re.escape(corpus), "", name)
        key = ("%s:%s" % (rel, line), check)
        if key in seen:
            continue
        seen.add(key)
        verdict = verdicts.get(key, "UNTRIAGED")
        counts[verdict] = counts.get(verdict, 0) + 1
        print(verdict, key[0], key[1])
print("files", len(files), counts)
