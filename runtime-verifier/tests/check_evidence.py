#!/usr/bin/env python3
"""Checks the committed runtime evidence against the manifest (no GPU needed).

    check_evidence.py [--manifest M] [--results DIR]
                      [--checks a,b,... | --check-list FILE | --cuda-tidy PATH]

What it asserts:
  1. The manifest is well formed: unique ids, known roles and outcomes, twins
     that exist with the other role, every violating case with a compliant
     twin, every flagged line marked `FLAGGED(<check>)` in its source file (so
     the line numbers cannot drift silently when a file is edited), no marker
     left on a line the manifest does not list.
  2. Every check in the check list has at least one violating and one
     compliant case. The list comes from --checks, from a file naming the
     checks (--check-list, e.g. checks/CheckList.def: every quoted "cuda-..."
     name in it), from `cuda-tidy --list-checks` (--cuda-tidy), or else from the
     manifest's own `checks:`.
  3. There is evidence (results/*.json), written by the runner over the whole
     manifest, and in each file: every manifest case has an observed outcome;
     the evidence's copy of each case's expectations equals what this reader
     finds in the manifest (the runner's yaml-cpp and this test read the same
     file the same way); every case was observed as the manifest expects; each
     violating case and its compliant twin differ as the manifest says, or the
     violating case is not-observable and both twins carry their measurements;
     the seed table is filled in.

Exit status: 0 all good, 1 a check failed, 2 usage error.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rvyaml  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ROLES = ("violating", "compliant", "reference")
STATIC = ("flagged", "clean", "unspecified")
OUTCOME = re.compile(
    r"^(ok|wrong-result|hang|not-observable|launch-error:cudaError\w+|"
    r"sanitizer:(synccheck|racecheck):[a-z0-9-]+)$")
MARKER = re.compile(r"FLAGGED\((cuda-[a-z-]+)\)")


class Report:
    def __init__(self):
        self.failures = []
        self.passes = 0
        self.pending = []

    def check(self, ok, msg):
        if ok:
            self.passes += 1
        else:
            self.failures.append(msg)
        return ok


def as_list(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def load_checks(args, manifest):
    if args.checks:
        return [c for c in args.checks.split(",") if c]
    if args.check_list:
        # The quoted names: CUDA_TIDY_CHECK(Class, "cuda-name", "summary").
        with open(args.check_list, encoding="utf-8") as f:
            return sorted(set(re.findall(r'"(cuda-[a-z]+(?:-[a-z]+)*)"', f.read())))
    if args.cuda_tidy:
        out = subprocess.run([args.cuda_tidy, "--list-checks"], capture_output=True,
                             text=True, check=False).stdout
        return [l.strip() for l in out.splitlines()
                if re.fullmatch(r"\s+cuda-[a-z-]+\s*", l)]
    return as_list(manifest.get("checks"))


def check_manifest(m, rep):
    cases = as_list(m.get("cases"))
    rep.check(cases, "the manifest lists no cases")
    ids = [c.get("id") for c in cases]
    rep.check(len(ids) == len(set(ids)), "duplicate case ids in the manifest")
    by_id = {c.get("id"): c for c in cases}
    markers_expected = {}
    for c in cases:
        cid = c.get("id")
        role = c.get("role")
        rep.check(role in ROLES, "%s: role %r" % (cid, role))
        rep.check(OUTCOME.match(c.get("outcome", "")) is not None,
                  "%s: outcome %r is not one of the known forms" % (cid, c.get("outcome")))
        if c.get("outcome") == "not-observable":
            rep.check(c.get("note") and as_list(c.get("measure")),
                      "%s: not-observable without a note and a measurement" % cid)
        for t in as_list(c.get("twin")):
            other = by_id.get(t)
            rep.check(other is not None, "%s: unknown twin %r" % (cid, t))
            if other is not None:
                rep.check(other.get("role") != role,
                          "%s: twin %s has the same role" % (cid, t))
        if role == "violating":
            rep.check(any(by_id.get(t, {}).get("role") == "compliant"
                          for t in as_list(c.get("twin"))),
                      "%s: violating case without a compliant twin" % cid)
        static = c.get("static")
        rep.check(static in STATIC, "%s: static %r" % (cid, static))
        path = os.path.join(ROOT, c.get("file", ""))
        if not rep.check(os.path.isfile(path), "%s: no file %s" % (cid, c.get("file"))):
            continue
        with open(path, encoding="utf-8") as f:
            src = f.read().split("\n")
        lines = [int(l) for l in as_list(c.get("lines"))]
        check = c.get("static_check") or c.get("check")
        if static == "flagged":
            rep.check(lines, "%s: flagged without lines" % cid)
        for line in lines:
            text = src[line - 1] if 0 < line <= len(src) else ""
            rep.check("FLAGGED(%s)" % check in text,
                      "%s: %s:%d does not carry FLAGGED(%s): %r"
                      % (cid, c["file"], line, check, text.strip()))
            markers_expected.setdefault(c["file"], set()).add(line)
    # No stale marker: every FLAGGED(...) line is listed by some case.
    for f in sorted({c.get("file") for c in cases if c.get("file")}):
        path = os.path.join(ROOT, f)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as fh:
            for n, text in enumerate(fh.read().split("\n"), 1):
                if MARKER.search(text):
                    rep.check(n in markers_expected.get(f, set()),
                              "%s:%d carries a FLAGGED marker no case lists" % (f, n))
    return by_id


def check_coverage(checks, by_id, rep, advisory=()):
    for chk in checks:
        roles = {c.get("role") for c in by_id.values() if c.get("check") == chk}
        if chk in advisory:
            # An advisory reports code that is correct at run time: what the
            # GPU can show is a reference kernel it flags running correctly.
            rep.check("reference" in roles,
                      "advisory check %s has no reference case in the manifest" % chk)
            continue
        rep.check("violating" in roles and "compliant" in roles,
                  "check %s has no violating/compliant pair in the manifest" % chk)


def expected_view(c, defaults):
    """The manifest's case as the runner's evidence records it."""
    return {
        "check": c.get("check") or "",
        "role": c.get("role"),
        "twin": as_list(c.get("twin")),
        "file": c.get("file"),
        "kernel": c.get("kernel"),
        "args": as_list(c.get("args")),
        "flags": c.get("flags", defaults.get("flags", "")),
        "outcome": c.get("outcome"),
        "static": c.get("static"),
        "lines": [int(l) for l in as_list(c.get("lines"))],
        "static_check": c.get("static_check") or c.get("check") or "",
        "note": c.get("note") or "",
    }


def evidence_view(e):
    x = e.get("expected", {})
    return {
        "check": e.get("check"), "role": e.get("role"), "twin": e.get("twin"),
        "file": e.get("file"), "kernel": e.get("kernel"), "args": e.get("args"),
        "flags": e.get("flags"), "outcome": x.get("outcome"),
        "static": x.get("static"), "lines": x.get("lines"),
        "static_check": x.get("static_check"), "note": x.get("note"),
    }


def has_measurements(e):
    ms = e.get("measurements") or {}
    return bool(ms) and all(v for v in ms.values())


def check_evidence(path, m, by_id, rep):
    name = os.path.relpath(path, ROOT)
    with open(path, encoding="utf-8") as f:
        ev = json.load(f)
    gpu = ev.get("gpu", {})
    for key in ("name", "driver_version", "runtime_version"):
        rep.check(gpu.get(key), "%s: GPU %s missing" % (name, key))
    rep.check(ev.get("toolkit", {}).get("nvcc"), "%s: CUDA version missing" % name)
    rep.check(not ev.get("only"),
              "%s: written by a partial run (--only); commit a full run" % name)
    cases = {c["id"]: c for c in ev.get("cases", [])}
    defaults = m.get("defaults") or {}
    for cid, c in by_id.items():
        e = cases.get(cid)
        if e is None and c.get("evidence") == "pending":
            # A new case the evidence GPU has not run yet: said, not hidden.
            rep.pending.append("%s: %s has not run on this GPU yet "
                               "(evidence: pending in the manifest)" % (name, cid))
            continue
        if not rep.check(e is not None, "%s: no evidence for case %s" % (name, cid)):
            continue
        rep.check(e.get("observed"), "%s: %s has no observed outcome" % (name, cid))
        rep.check(evidence_view(e) == expected_view(c, defaults),
                  "%s: %s: the evidence's manifest copy differs from manifest.yaml "
                  "(re-run the verifier, or the two YAML readers disagree): %r vs %r"
                  % (name, cid, evidence_view(e), expected_view(c, defaults)))
        rep.check(e.get("matched") is True,
                  "%s: %s expected %s, observed %s"
                  % (name, cid, c.get("outcome"), e.get("observed")))
    for cid in cases:
        rep.check(cid in by_id, "%s: evidence for %s, which the manifest lacks" % (name, cid))

    # Violating and compliant twins differ as the manifest says.
    for cid, c in by_id.items():
        if c.get("role") != "violating":
            continue
        ev_v = cases.get(cid)
        for t in as_list(c.get("twin")):
            ev_c = cases.get(t)
            if ev_v is None or ev_c is None:
                continue
            exp_v, exp_c = c.get("outcome"), by_id[t].get("outcome")
            if exp_v == "not-observable":
                rep.check(ev_v.get("observed") == "not-observable"
                          and has_measurements(ev_v) and has_measurements(ev_c),
                          "%s: %s is not-observable but %s and %s do not both carry "
                          "their measurements" % (name, cid, cid, t))
                continue
            rep.check(exp_v != exp_c,
                      "%s: manifest expects the same outcome for %s and its twin %s"
                      % (name, cid, t))
            rep.check(ev_v.get("observed") == exp_v and ev_c.get("observed") == exp_c
                      and ev_v.get("observed") != ev_c.get("observed"),
                      "%s: %s / %s observed %s / %s, manifest expects %s / %s"
                      % (name, cid, t, ev_v.get("observed"), ev_c.get("observed"),
                         exp_v, exp_c))

    seed = m.get("seed_table")
    if seed:
        rows = ev.get("seed_table", {}).get("rows", [])
        rep.check(len(rows) == len(as_list(seed.get("rows"))),
                  "%s: the seed table has %d rows, the manifest %d"
                  % (name, len(rows), len(as_list(seed.get("rows")))))
        for r in rows:
            rep.check("(not measured)" not in r.get("h200", ""),
                      "%s: seed row %r not measured" % (name, r.get("row")))
    md = os.path.splitext(path)[0] + ".md"
    rep.check(os.path.isfile(md), "%s: no Markdown table beside it" % name)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", default=os.path.join(ROOT, "manifest.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "results"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--checks", help="comma-separated check names")
    g.add_argument("--check-list", help="a file naming the checks (e.g. checks/CheckList.def)")
    g.add_argument("--cuda-tidy", help="take the checks from `PATH --list-checks`")
    args = ap.parse_args()

    rep = Report()
    try:
        m = rvyaml.load(args.manifest)
    except (OSError, rvyaml.YamlError) as e:
        print("check_evidence: cannot read the manifest: %s" % e)
        return 1
    by_id = check_manifest(m, rep)
    checks = load_checks(args, m)
    rep.check(checks, "no check list (empty --checks / --check-list / --list-checks)")
    check_coverage(checks, by_id, rep, as_list(m.get("advisory_checks")))
    files = sorted(glob.glob(os.path.join(args.results, "*.json")))
    rep.check(files, "no evidence in %s (run runtime-verifier/run.sh on a GPU and "
                     "commit results/)" % args.results)
    for path in files:
        check_evidence(path, m, by_id, rep)

    for f in rep.pending:
        print("PENDING: " + f)
    for f in rep.failures:
        print("FAIL: " + f)
    print("check_evidence: %d cases, %d checks (%s), %d evidence file(s): %d assertions "
          "passed, %d failed, %d cases pending" % (len(by_id), len(checks), ", ".join(checks),
                                                   len(files), rep.passes, len(rep.failures),
                                                   len(rep.pending)))
    return 1 if rep.failures else 0


if __name__ == "__main__":
    sys.exit(main())
