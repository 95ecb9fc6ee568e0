#!/usr/bin/env python3
"""Re-runs, with the current build, the files of a corpus that had findings in
an earlier run (realcode.py --results), and prints each finding with its
verdict from triage/<corpus>.tsv, then the counts.

usage: subset.py CORPUS EARLIER_RESULTS.json

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
results = json.load(open(earlier))[corpus]
verdicts = {}
with open(os.path.join(HERE, "triage", corpus + ".tsv")) as triage:
    for row in csv.reader(triage, delimiter="\t"):
        if len(row) >= 5 and not row[0].startswith("#"):
            verdicts[(row[2], row[3])] = row[4]
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
