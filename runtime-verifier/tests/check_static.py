#!/usr/bin/env python3
"""Static cross-check: cuda-tidy must flag exactly the reference kernels that
misbehave on the GPU (no GPU needed).

    check_static.py --cuda-tidy PATH [--manifest M] [--allow-missing-checks]
                    [--tidy-arg ARG]... [--compile-arg ARG]... [-v]

For every source file of the manifest it runs `PATH [tidy args] FILE --
[compile args]` once (cuda-tidy's zero-config mode: CUDA toolkit, include/cccl
and a GPU arch found on its own; the cases include their harness with a
relative #include, so no -I is needed), reads the clang-style diagnostics
`file:line:col: warning: message [check-name]`, and asserts, per case:

  violating / reference, static: flagged
      the case's check (static_check, default check) reports a finding on each
      listed line of the file (each such line carries FLAGGED(<check>)); a
      line that a finding names as another site of its cause ("... is also
      reached under it", one finding per cause) is reported by that finding.
  compliant / reference, static: clean
      no finding from any check in the file, other than those that another
      case of the same file expects (seeds/reductions.cu holds four kernels).
  static: unspecified
      nothing asserted (grid-coop-one-over: a limit only the runtime sees).

Findings in the shared harness header (cases/rv.cuh) always fail: it must add
nothing. A finding in a violating-only file beyond the expected ones is
printed as a note, not a failure (a witness may trip a second rule).

--allow-missing-checks skips, instead of failing, the expectations whose check
is not in `PATH --list-checks` yet (while checks are still being written).

Exit status: 0 all expectations met, 1 some failed, 2 usage error, 77 PATH is
not an executable (ctest: SKIP_RETURN_CODE 77).
"""

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rvyaml  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HARNESS = os.path.realpath(os.path.join(ROOT, "cases", "rv.cuh"))
DIAG = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): "
                  r"(?P<sev>warning|error): (?P<msg>.*?) \[(?P<checks>[^\]]+)\]\s*$")


GROUPED_SITE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): note: "
                          r"(?P<msg>.* is also reached under it)\s*$")


def as_list(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def registered_checks(tidy, tidy_args):
    try:
        out = subprocess.run([tidy] + tidy_args + ["--list-checks"], capture_output=True,
                             text=True, timeout=120, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {l.strip() for l in out.splitlines() if re.fullmatch(r"\s*cuda-[a-z-]+\s*", l)}


def run_tidy(tidy, tidy_args, compile_args, path):
    cmd = [tidy] + tidy_args + [path, "--"] + compile_args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT,
                           check=False)
    except subprocess.TimeoutExpired:
        return cmd, None, "timed out after 600 s", []
    text = p.stdout + p.stderr
    findings = []
    last = None  # the last finding: a grouped site's note belongs to it
    for line in text.splitlines():
        # One finding per cause (checks/FindingsByCause.h): the other sites a
        # divergent condition puts under it are notes of the first finding,
        # `file:line:col: note: '<call>' is also reached under it`. Each is
        # reported, as part of that finding, at its own line.
        n = GROUPED_SITE.match(line)
        if n and last is not None:
            npath = n.group("path")
            if not os.path.isabs(npath):
                npath = os.path.join(ROOT, npath)
            findings.append(dict(last, path=os.path.realpath(npath),
                                 line=int(n.group("line")), col=int(n.group("col")),
                                 msg="(grouped under the finding at line %d) %s"
                                     % (last["line"], n.group("msg"))))
            continue
        m = DIAG.match(line)
        if not m:
            continue
        checks = [c for c in m.group("checks").split(",") if c.startswith("cuda-")]
        if not checks:
            continue  # a compiler diagnostic, e.g. [-Wunused-variable]
        fpath = m.group("path")
        if not os.path.isabs(fpath):
            fpath = os.path.join(ROOT, fpath)
        findings.append({"path": os.path.realpath(fpath), "line": int(m.group("line")),
                         "col": int(m.group("col")), "check": checks[0],
                         "msg": m.group("msg"), "sev": m.group("sev")})
        last = findings[-1]
    return cmd, p.returncode, text, findings


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuda-tidy", required=True, help="the cuda-tidy executable")
    ap.add_argument("--manifest", default=os.path.join(ROOT, "manifest.yaml"))
    ap.add_argument("--allow-missing-checks", action="store_true")
    ap.add_argument("--tidy-arg", action="append", default=[],
                    help="an argument before the file (repeatable)")
    ap.add_argument("--compile-arg", action="append", default=[],
                    help="a compiler argument after `--` (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    tidy = args.cuda_tidy
    if not (os.path.isfile(tidy) and os.access(tidy, os.X_OK)):
        print("check_static: skipped: %s is not an executable (build cuda-tidy first)" % tidy)
        return 77
    try:
        manifest = rvyaml.load(args.manifest)
    except (OSError, rvyaml.YamlError) as e:
        print("check_static: cannot read the manifest: %s" % e)
        return 2
    cases = as_list(manifest.get("cases"))
    known = registered_checks(tidy, args.tidy_arg)
    # Opt-in checks (off in the default set, e.g. cuda-prefer-tile-collectives)
    # run too, so that their expectations are tested; a "clean" case means no
    # finding of a default check.
    all_checks = registered_checks(tidy, args.tidy_arg + ["--checks=cuda-*"])
    opt_in = all_checks - known
    known = all_checks
    tidy_args = args.tidy_arg + (["--checks=cuda-*"] if opt_in else [])
    if args.verbose:
        print("registered checks: %s" % ", ".join(sorted(known)) or "(none)")

    by_file = {}
    for c in cases:
        by_file.setdefault(c["file"], []).append(c)

    failures, passes, skips = [], 0, 0
    for rel, fcases in sorted(by_file.items()):
        path = os.path.realpath(os.path.join(ROOT, rel))
        cmd, rc, text, findings = run_tidy(tidy, tidy_args, args.compile_arg, path)
        if rc is None or rc not in (0, 1):
            failures.append("%s: cuda-tidy could not analyze it (exit %s): %s\n    %s"
                            % (rel, rc, " ".join(cmd), text.strip()[-2000:]))
            continue
        if args.verbose:
            for f in findings:
                print("  %s:%d:%d [%s] %s" % (os.path.relpath(f["path"], ROOT), f["line"],
                                             f["col"], f["check"], f["msg"]))
        in_file = [f for f in findings if f["path"] == path]
        in_harness = [f for f in findings if f["path"] == HARNESS]
        for f in in_harness:
            failures.append("%s: finding in the harness header cases/rv.cuh:%d [%s] %s"
                            % (rel, f["line"], f["check"], f["msg"]))

        expected = set()  # (check, line) that some case of this file expects
        for c in fcases:
            if c.get("static") == "flagged":
                chk = c.get("static_check") or c.get("check")
                for line in as_list(c.get("lines")):
                    expected.add((chk, int(line)))
        strict = any(c.get("static") == "clean" for c in fcases)

        for c in fcases:
            cid, static = c["id"], c.get("static")
            if static == "flagged":
                chk = c.get("static_check") or c.get("check")
                if chk not in known:
                    if args.allow_missing_checks:
                        skips += 1
                        print("SKIP %s: %s is not registered in cuda-tidy yet" % (cid, chk))
                        continue
                    failures.append("%s: %s is not among cuda-tidy's checks (%s)"
                                    % (cid, chk, ", ".join(sorted(known)) or "none"))
                    continue
                missing = [int(l) for l in as_list(c.get("lines"))
                           if not any(f["check"] == chk and f["line"] == int(l)
                                      for f in in_file)]
                if missing:
                    got = ["%d [%s]" % (f["line"], f["check"]) for f in in_file]
                    failures.append("%s: %s expected [%s] at %s line(s) %s; cuda-tidy "
                                    "reported: %s" % (cid, rel, chk, rel,
                                                      ", ".join(map(str, missing)),
                                                      ", ".join(got) or "nothing"))
                else:
                    passes += 1
                    print("PASS %s: [%s] at %s:%s" % (cid, chk, rel, ",".join(
                        str(l) for l in as_list(c.get("lines")))))
            elif static == "clean":
                extra = [f for f in in_file if (f["check"], f["line"]) not in expected
                         and f["check"] not in opt_in]
                if extra:
                    failures.append("%s: expected no finding in %s, got: %s" % (
                        cid, rel, "; ".join("%d:%d [%s] %s" % (f["line"], f["col"],
                                                              f["check"], f["msg"])
                                            for f in extra)))
                else:
                    passes += 1
                    print("PASS %s: no finding%s" % (
                        cid, " other than the %d line(s) another case of %s expects"
                        % (len(expected), rel) if expected else ""))
            else:
                skips += 1
                print("SKIP %s: static verdict unspecified (%s)" % (
                    cid, (c.get("note") or "").split(".")[0]))
        if not strict:
            for f in in_file:
                if (f["check"], f["line"]) not in expected:
                    print("note: %s:%d: additional finding [%s] %s"
                          % (rel, f["line"], f["check"], f["msg"]))

    for f in failures:
        print("FAIL " + f)
    print("check_static: %d passed, %d failed, %d skipped (%d files, cuda-tidy %s)"
          % (passes, len(failures), skips, len(by_file), tidy))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
