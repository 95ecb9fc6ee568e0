#!/usr/bin/env python3
"""Precision of cuda-tidy on pinned snapshots of public CUDA code.

Extracts each corpus from its git mirror (no work tree needed) into a cache
folder outside the repository, runs cuda-tidy over the corpus's files with the
default configuration (or with the opt-in potential tier, --potential), keys
every finding by (repo, path, line, check), and compares the findings with the
committed triage files (bench/real-code/triage/<corpus>.tsv).  See docs/accuracy.md.

Python 3 standard library only.  Without the mirrors it prints one line and
exits 0 (CI has no corpora).
"""

import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The check options that switch on the opt-in "potential" tier (--potential).
POTENTIAL_OPTIONS = [
    "cuda-divergent-barrier.ReportPotential",
    "cuda-divergent-group-creation.ReportPotential",
    "cuda-full-warp-mask.ReportPotential",
    "cuda-grid-sync-launch.ReportPotential",
    "cuda-group-by-value.ReportPotential",
]

# Findings that are advisories, not hazards: counted apart, never in precision.
# cuda-group-by-value states a guideline (pass handles by reference), not a
# hazard: its findings are counted with the advisories.
ADVISORY_CHECKS = {"cuda-prefer-tile-collectives", "cuda-group-by-value"}
ADVISORY_MESSAGES = [
    ("cuda-full-warp-mask", "assumes the whole warp is converged"),
]

VERDICTS = ("TRUE", "FALSE", "POTENTIAL")

# Extracted from the mirrors: source-like files below this size.
SOURCE_EXTS = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".c", ".cc",
               ".cpp", ".cxx", ".inl", ".inc", ".def", ".tcc", ".ipp")
MAX_BLOB = 2 * 1024 * 1024
PER_FILE_TIMEOUT = 900


# --------------------------------------------------------------------------
# The corpora: one module each in corpora/ (where the code comes from, which
# files, and how each file is parsed; corpora/__init__.py).

sys.path.insert(0, HERE)
import corpora as corpus_modules  # noqa: E402

CORPORA = corpus_modules.load()


def say(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Extraction

def git_dir(mirrors, corpus):
    return os.path.join(mirrors, corpus["mirror"], "repo")


def corpus_root(corpora, corpus):
    return os.path.join(corpora, "%s-%s" % (corpus["name"],
                                            corpus["commit"][:12]))


def list_tree(gitdir, commit):
    """[(path, size)] of the regular files of the commit."""
    out = subprocess.run(
        ["git", "--git-dir=" + gitdir, "ls-tree", "-r", "-l", "-z", commit],
        check=True, stdout=subprocess.PIPE).stdout
    files = []
    for rec in out.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha, size = meta.split()
        if kind != b"blob" or mode not in (b"100644", b"100755"):
            continue
        if not size.isdigit():
            continue  # the mirror lacks this blob (its largest files)
        files.append((path.decode("utf-8", "surrogateescape"), sha.decode(),
                      int(size)))
    return files


def extract(gitdir, commit, dest, extensions=()):
    """The pinned commit's source-like files (and those ending in one of
    \p extensions, a corpus's "extensions") under dest, once."""
    marker = os.path.join(dest, ".cuda-tidy-extracted")
    if os.path.exists(marker):
        return
    tmp = dest + ".part"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    endings = SOURCE_EXTS + tuple(extensions)
    wanted = [(p, sha) for p, sha, size in list_tree(gitdir, commit)
              if size <= MAX_BLOB and (p.lower().endswith(endings) or
                                       os.path.basename(p) in extensions)]
    proc = subprocess.Popen(["git", "--git-dir=" + gitdir, "cat-file",
                             "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)
    for path, sha in wanted:
        proc.stdin.write(sha.encode() + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)
        full = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    proc.stdin.close()
    proc.wait()
    with open(os.path.join(tmp, ".cuda-tidy-extracted"), "w") as f:
        f.write(commit + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)


def tree_paths(root):
    out = []
    for d, _, names in os.walk(root):
        for n in names:
            out.append(os.path.relpath(os.path.join(d, n), root))
    return out


# --------------------------------------------------------------------------
# Running cuda-tidy

def private_binary(src, corpora):
    """Copy the binary (it may be rebuilt while we run) to a private path,
    with the share/cuda-tidy folder it reads beside it (the
    nvcc-compatibility header, docs/nvcc-compat.md)."""
    h = hashlib.sha256()
    with open(src, "rb") as f:
        h.update(f.read())
    share = os.path.join(os.path.dirname(os.path.abspath(src)), "..", "share",
                         "cuda-tidy")
    shared = sorted(os.listdir(share)) if os.path.isdir(share) else []
    for name in shared:
        with open(os.path.join(share, name), "rb") as f:
            h.update(name.encode() + b"\0" + f.read())
    digest = h.hexdigest()[:16]
    root = os.path.join(corpora, ".bin", digest)
    dst = os.path.join(root, "bin", "cuda-tidy")
    if not os.path.exists(dst):
        tmp = root + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(os.path.join(tmp, "bin"))
        shutil.copy2(src, os.path.join(tmp, "bin", "cuda-tidy"))
        if shared:
            os.makedirs(os.path.join(tmp, "share", "cuda-tidy"))
            for name in shared:
                shutil.copy2(os.path.join(share, name),
                             os.path.join(tmp, "share", "cuda-tidy", name))
        shutil.rmtree(root, ignore_errors=True)
        os.rename(tmp, root)
    return dst, digest


def sanity_check(tidy, cache_dir):
    """The copied binary must still find its headers and report a finding."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "probe.cu")
        with open(path, "w") as f:
            # The threads that skip the branch meet the second barrier, so
            # they do not leave for good: a definite finding.
            f.write("__global__ void k(int *a) {\n"
                    "  if (threadIdx.x < 3) __syncthreads();\n"
                    "  __syncthreads();\n}\n")
        r = subprocess.run([tidy, "--format=json", "--cache-dir=" + cache_dir,
                            "probe.cu"], cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        try:
            found = json.loads(r.stdout)["findings"]
        except ValueError:
            found = []
        if r.returncode != 0 or not any(
                x["check"] == "cuda-divergent-barrier" for x in found):
            raise SystemExit("real-code: %s does not work from its private "
                             "copy (exit %d): %s" % (tidy, r.returncode,
                                                     r.stderr.strip()[:500]))


# The opt-in checks of cuda-tidy's default set (tool/standalone/
# CudaTidyMain.cpp): what a results file of a default run written before the
# enabled checks were recorded had off.
DEFAULT_OFF = {"cuda-prefer-tile-collectives", "cuda-shared-memory-race"}


def enabled_checks(tidy, extra):
    """The checks cuda-tidy runs with these arguments (--list-checks), from
    a folder without a configuration file."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([tidy, "--list-checks"] + list(extra), cwd=d,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
    names = [l.strip() for l in r.stdout.splitlines()
             if l.startswith("    ") and l.strip()]
    if r.returncode != 0 or not names:
        raise SystemExit("real-code: %s --list-checks %s lists no check "
                         "(exit %d): %s" % (tidy, " ".join(extra),
                                            r.returncode, r.stderr.strip()[:500]))
    return sorted(names)


def potential_config():
    opts = ", ".join("%s: true" % o for o in POTENTIAL_OPTIONS)
    return "{CheckOptions: {%s}}" % opts


def tidy_args(checks=None, extra=()):
    """The cuda-tidy arguments a run adds to its fixed ones: --checks (the
    default set when None) and any --extra-tidy-arg, in order."""
    out = []
    if checks:
        out.append("--checks=" + checks)
    out.extend(extra)
    return out


def run_one(tidy, root, path, flags, cache_dir, potential, extra=()):
    # The default header filter (every header but the toolkit's and the
    # system's) as a new user gets it; a finding outside the corpus root is
    # dropped when it is keyed (norm_path). A --header-filter of the root's
    # absolute path would drop every finding in a header found through a
    # relative -I, which clang spells relative.
    cmd = [tidy, "--format=json", "--cache-dir=" + cache_dir, "--quiet"]
    if potential:
        cmd.append("--config=" + potential_config())
    cmd += list(extra)
    cmd += [path, "--"] + flags
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True,
                           errors="replace", timeout=PER_FILE_TIMEOUT)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = -1, "", "timed out after %ds" % PER_FILE_TIMEOUT
    try:
        findings = json.loads(out)["findings"] if out.strip() else []
    except ValueError:
        findings = []
        err = "unreadable JSON output\n" + err
    return {"path": path, "rc": rc, "findings": findings,
            "stderr": err[-4000:], "seconds": round(time.time() - t0, 2)}


def run_corpus(tidy, corpus, root, files, cache_dir, potential, jobs,
               extra=()):
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futs = [pool.submit(run_one, tidy, root, p, corpus["flags"](p, root),
                            cache_dir, potential, extra) for p in files]
        results = []
        for i, fut in enumerate(futs):
            results.append(fut.result())
            if (i + 1) % 20 == 0:
                say("real-code: %s: %d/%d files, %.0f s" % (
                    corpus["name"], i + 1, len(files), time.time() - t0))
    return results


# --------------------------------------------------------------------------
# Comparison (pure functions; tests/real-code/test_realcode.py covers them)

def is_advisory(f):
    if f["check"] in ADVISORY_CHECKS:
        return True
    return any(f["check"] == c and s in f.get("message", "")
               for c, s in ADVISORY_MESSAGES)


def norm_path(fpath, root):
    """A finding's file relative to the corpus root (None: outside it)."""
    if os.path.isabs(fpath):
        rel = os.path.relpath(fpath, root)
        if rel.startswith(".."):
            return None
        return rel
    return os.path.normpath(fpath)


def collect(corpus_name, repo, root, results):
    """Turn per-file results into keyed findings and failures.

    Returns (hazards, advisories, failures): hazards maps
    (repo, path, line, check) to {"message", "units"}; advisories likewise;
    failures is [(path, first error line)].
    """
    hazards, advisories, failures = {}, {}, []
    for res in results:
        errors = [f for f in res["findings"] if f.get("compilerError")]
        if res["rc"] not in (0, 1) or errors:
            first = ""
            if errors:
                e = errors[0]
                first = "%s:%s: %s" % (norm_path(e["file"], root) or e["file"],
                                       e["line"], e["message"])
            else:
                lines = [l for l in res["stderr"].splitlines() if l.strip()]
                first = lines[0] if lines else "exit %d" % res["rc"]
            failures.append((res["path"], first))
            # Its findings still count: clang-tidy reports them on the
            # recovered AST, as a user sees them; the failure list says
            # which files had errors.
        for f in res["findings"]:
            if not f["check"].startswith("cuda-"):
                continue
            rel = norm_path(f["file"], root)
            if rel is None:
                continue
            key = (repo, rel, int(f["line"]), f["check"])
            table = advisories if is_advisory(f) else hazards
            entry = table.setdefault(key, {"message": f["message"],
                                           "units": []})
            if res["path"] not in entry["units"]:
                entry["units"].append(res["path"])
    return hazards, advisories, failures


def triage_files(path):
    """The triage files under \p path: the file itself, or every .tsv of a
    folder (triage/<corpus>.tsv, one per corpus), in name order."""
    if os.path.isdir(path):
        return [os.path.join(path, n) for n in sorted(os.listdir(path))
                if n.endswith(".tsv")]
    return [path] if os.path.exists(path) else []


def read_triage(path):
    """{(repo, path, line, check): (commit, verdict, reason)} of a triage
    file, or of every triage file of a folder."""
    triage = {}
    for tpath in triage_files(path):
        read_triage_file(tpath, triage)
    return triage


def read_triage_file(path, triage):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if cols[0] == "repo":
                continue
            if len(cols) < 6:
                raise SystemExit("%s:%d: expected 6 tab-separated columns"
                                 % (path, n))
            repo, commit, loc, check, verdict, reason = cols[:6]
            fpath, _, fline = loc.rpartition(":")
            if verdict not in VERDICTS:
                raise SystemExit("%s:%d: verdict %r is not one of %s"
                                 % (path, n, verdict, "/".join(VERDICTS)))
            key = (repo, fpath, int(fline), check)
            if key in triage:
                raise SystemExit("%s:%d: %s:%s %s triaged twice"
                                 % (path, n, fpath, fline, check))
            triage[key] = (commit, verdict, reason)
    return triage


def compare(repo, commit, hazards, triage, enabled=None):
    """Per-check rows and the untriaged / lost findings of one corpus.

    enabled: the checks the run had on (a set, or None: the default set, all
    but DEFAULT_OFF); a TRUE verdict of a check that was off is not lost."""
    rows = collections.OrderedDict()

    def row(check):
        return rows.setdefault(check, {"findings": 0, "TRUE": 0, "FALSE": 0,
                                       "POTENTIAL": 0, "untriaged": 0,
                                       "lost": 0})
    untriaged, lost = [], []
    for key in sorted(hazards):
        r = row(key[3])
        r["findings"] += 1
        t = triage.get(key)
        if t is None or t[0] != commit:
            r["untriaged"] += 1
            untriaged.append(key)
        else:
            r[t[1]] += 1
    for key, (tcommit, verdict, reason) in sorted(triage.items()):
        if key[0] != repo or tcommit != commit or verdict != "TRUE":
            continue
        if (key[3] not in enabled if enabled is not None
                else key[3] in DEFAULT_OFF):
            continue
        if key not in hazards:
            row(key[3])["lost"] += 1
            lost.append((key, reason))
    for r in rows.values():
        add_ratios(r)
    return rows, untriaged, lost


def add_ratios(r):
    """precision T/(T+F); strict T/(T+F+P), where P is 'correct only if a
    fact the tool cannot see holds' (issue 36: counted against us);
    recall T/(T+lost)."""
    r["precision"] = ratio(r["TRUE"], r["TRUE"] + r["FALSE"])
    r["strict"] = ratio(r["TRUE"], r["TRUE"] + r["FALSE"] + r["POTENTIAL"])
    r["recall"] = ratio(r["TRUE"], r["TRUE"] + r["lost"])


def total(rows):
    t = {"findings": 0, "TRUE": 0, "FALSE": 0, "POTENTIAL": 0,
         "untriaged": 0, "lost": 0}
    for r in rows:
        for k in t:
            t[k] += r[k]
    add_ratios(t)
    return t


def ratio(a, b):
    return None if b == 0 else a / b


def pct(x):
    return "n/a" if x is None else "%.0f %%" % (100 * x)


def gpuverify_label(text):
    first = text.split("\n", 1)[0].strip().lower()
    if first.startswith("//pass"):
        return "pass"
    if first.startswith("//xfail"):
        return "xfail" + first[len("//xfail"):]
    return "unlabelled"


def gpuverify_summary(root, files, results, hazards, repo,
                      barrier_divergence):
    """Expected-vs-found for the GPUVerify labels."""
    by_file = {r["path"]: r for r in results}
    failed = {p for p, _ in collect("", repo, root, results)[2]}
    found_in = collections.defaultdict(list)
    for key in hazards:
        found_in[key[1]].append(key)
    s = {"pass": 0, "pass_clean": 0, "pass_flagged": [], "bd": 0,
         "bd_found": 0, "bd_missed": [], "xfail_other": 0,
         "xfail_other_flagged": 0, "not_analyzed": []}
    for p in files:
        with open(os.path.join(root, p), encoding="utf-8",
                  errors="replace") as f:
            label = gpuverify_label(f.read(4096))
        if p not in by_file:
            continue
        keys = found_in.get(p, [])
        if p in failed:
            s["not_analyzed"].append((p, label))
        if p in barrier_divergence:
            s["bd"] += 1
            if any(k[3] == "cuda-divergent-barrier" for k in keys):
                s["bd_found"] += 1
            else:
                s["bd_missed"].append(p)
        elif p in failed:
            continue
        elif label == "pass":
            s["pass"] += 1
            if keys:
                s["pass_flagged"].append((p, sorted(keys)))
            else:
                s["pass_clean"] += 1
        else:
            s["xfail_other"] += 1
            if keys:
                s["xfail_other_flagged"] += 1
    return s


# --------------------------------------------------------------------------
# Reporting

COLS = ["findings", "TRUE", "FALSE", "POTENTIAL", "untriaged", "precision",
        "strict", "lost", "recall"]


def fmt_row(name, r):
    vals = []
    for c in COLS:
        v = r[c]
        vals.append(pct(v) if c in ("precision", "strict", "recall")
                    else str(v))
    return [name] + vals


def print_table(title, header, rows, markdown):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("| " + " | ".join("---" for _ in header) + " |")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(str(x)) for x in col)
                  for col in zip(header, *rows)] if rows else []
        print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        for r in rows:
            print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
    print()


def report(measured, triage, markdown, out=sys.stdout, enabled=None):
    h = "###" if markdown else "=="
    all_rows = []
    summary = []
    for m in measured:
        c = m["corpus"]
        rows, untriaged, lost = compare(c["repo"], c["commit"], m["hazards"],
                                        triage, enabled)
        m["rows"], m["untriaged"], m["lost"] = rows, untriaged, lost
        all_rows.extend(rows.values())
        t = total(rows.values())
        summary.append([c["name"], str(m["files"]), str(len(m["failures"])),
                        str(len(m["advisories"]))] + fmt_row("", t)[1:])
    print("%s Summary (hazard findings; advisories apart)\n" % h)
    header = ["corpus", "files", "not analyzed", "advisories"] + COLS
    if len(measured) > 1:
        t = total(all_rows)
        summary.append(["all", str(sum(m["files"] for m in measured)),
                        str(sum(len(m["failures"]) for m in measured)),
                        str(sum(len(m["advisories"]) for m in measured))]
                       + fmt_row("", t)[1:])
    print_table("", header, summary, markdown)

    by_check = collections.OrderedDict()
    for m in measured:
        for check, r in m["rows"].items():
            agg = by_check.setdefault(check, [])
            agg.append(r)
    print("%s Per check, all corpora\n" % h)
    print_table("", ["check"] + COLS,
                [fmt_row(k, total(v)) for k, v in sorted(by_check.items())],
                markdown)

    for m in measured:
        c = m["corpus"]
        print("%s %s (%s @ %s): per check\n" % (h, c["name"], c["repo"],
                                                c["commit"][:12]))
        rows = [fmt_row(k, r) for k, r in sorted(m["rows"].items())]
        rows.append(fmt_row("all", total(m["rows"].values())))
        print_table("", ["check"] + COLS, rows, markdown)
        if m.get("gpuverify"):
            g = m["gpuverify"]
            print("GPUVerify labels: //pass kernels with 0 findings: %d of %d"
                  "; barrier-divergence //xfail found: %d of %d; other //xfail"
                  " (races, asserts, ...) with a finding: %d of %d; not "
                  "analyzed: %d\n" % (g["pass_clean"], g["pass"],
                                      g["bd_found"], g["bd"],
                                      g["xfail_other_flagged"],
                                      g["xfail_other"],
                                      len(g["not_analyzed"])))
            for p, keys in g["pass_flagged"]:
                print("- //pass with findings: %s: %s" % (
                    p, ", ".join("%d %s" % (k[2], k[3]) for k in keys)))
            for p in g["bd_missed"]:
                print("- barrier-divergence //xfail missed: %s%s" % (
                    p, " (not analyzed)" if any(
                        q == p for q, _ in g["not_analyzed"]) else ""))
            if g["pass_flagged"] or g["bd_missed"]:
                print()
        if m["lost"]:
            print("Lost TRUE findings (triaged TRUE, not reported now):")
            for key, reason in m["lost"]:
                print("- %s:%d %s (%s)" % (key[1], key[2], key[3], reason))
            print()

    print("%s Findings without a verdict\n" % h)
    any_u = False
    for m in measured:
        for key in m["untriaged"]:
            any_u = True
            e = m["hazards"][key]
            print("- %s\t%s\t%s:%d\t%s\t%s" % (
                key[0], m["corpus"]["commit"], key[1], key[2], key[3],
                e["message"][:160]))
    if not any_u:
        print("(none)")
    print()
    print("%s Files that did not analyze\n" % h)
    any_f = False
    for m in measured:
        for p, first in m["failures"]:
            any_f = True
            print("- %s %s: %s" % (m["corpus"]["name"], p, first[:200]))
    if not any_f:
        print("(none)")
    print()


# --------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", default="/work/.mirror",
                    help="folder of the git mirrors (owner+name/repo)")
    ap.add_argument("--corpora", default="/work/corpora",
                    help="cache folder for the extracted corpora and results")
    ap.add_argument("--cuda-tidy", default=os.path.join(ROOT, "build", "bin",
                                                        "cuda-tidy"))
    ap.add_argument("--triage", default=os.path.join(HERE, "triage"),
                    help="a triage file, or a folder of them (default: "
                    "triage/, one <corpus>.tsv per corpus)")
    ap.add_argument("--potential", action="store_true",
                    help="also turn on the opt-in potential tier")
    ap.add_argument("--checks", metavar="GLOBS",
                    help="cuda-tidy's --checks for every file (default: its "
                    "default check set), e.g. -*,cuda-shared-memory-race to "
                    "measure an opt-in rule alone")
    ap.add_argument("--extra-tidy-arg", metavar="ARG", action="append",
                    default=[], help="one more cuda-tidy argument before the "
                    "file (repeatable), e.g. --config=...")
    ap.add_argument("--corpus", action="append", default=[],
                    help="only this corpus (repeatable): " +
                    ", ".join(c["name"] for c in CORPORA))
    ap.add_argument("--files", type=int, default=0,
                    help="only the first N files of each corpus")
    ap.add_argument("--ggml-instances", action="store_true",
                    help="also analyze ggml's template-instances/*.cu")
    ap.add_argument("-j", type=int, default=2, help="files at once")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--results", help="also write the raw per-file results "
                    "(JSON) to this file")
    ap.add_argument("--from-results", metavar="FILE",
                    help="report on the raw results of an earlier run "
                    "(--results) instead of running cuda-tidy")
    args = ap.parse_args(argv)

    names = [c["name"] for c in CORPORA]
    for n in args.corpus:
        if n not in names:
            ap.error("unknown corpus %r (one of %s)" % (n, ", ".join(names)))
    chosen = [c for c in CORPORA if not args.corpus or c["name"] in args.corpus]
    present = [c for c in chosen
               if os.path.isdir(git_dir(args.mirrors, c))]
    if not present:
        print("real-code: no corpus mirrors under %s; nothing measured"
              % args.mirrors)
        return 0
    for c in chosen:
        if c not in present:
            say("real-code: no mirror of %s under %s; skipped"
                % (c["repo"], args.mirrors))

    os.makedirs(args.corpora, exist_ok=True)
    cache_dir = os.path.join(args.corpora, ".cuda-tidy-cache")
    earlier = None
    if args.from_results:
        with open(args.from_results) as f:
            earlier = json.load(f)
        meta = earlier.get("_meta", {})
        version = meta.get("version", "unknown version")
        digest = meta.get("sha256", "unknown")
        args.potential = meta.get("potential", args.potential)
        extra = meta.get("tidy_args", [])
        enabled = meta.get("enabled_checks")
    else:
        tidy, digest = private_binary(args.cuda_tidy, args.corpora)
        sanity_check(tidy, cache_dir)
        version = subprocess.run([tidy, "--version"], stdout=subprocess.PIPE,
                                 universal_newlines=True).stdout.strip()
        extra = tidy_args(args.checks, args.extra_tidy_arg)
        enabled = enabled_checks(tidy, extra)
    say("real-code: %s (sha256 %s), %s tier%s" % (
        version, digest, "potential" if args.potential else "default",
        (", " + " ".join(extra)) if extra else ""))

    triage = read_triage(args.triage)
    measured = []
    raw = {"_meta": {"version": version, "sha256": digest,
                     "potential": args.potential,
                     "tidy_args": extra, "enabled_checks": enabled,
                     "date": time.strftime("%Y-%m-%d")}}
    for c in present:
        root = corpus_root(args.corpora, c)
        say("real-code: extracting %s @ %s" % (c["repo"], c["commit"][:12]))
        extract(git_dir(args.mirrors, c), c["commit"], root,
                c.get("extensions", ()))
        if c.get("prepare"):
            c["prepare"](root)
        paths = tree_paths(root)
        files = c["files"](paths, {"ggml_instances": args.ggml_instances,
                                   "root": root, "mirrors": args.mirrors})
        if args.files:
            files = files[:args.files]
        t0 = time.time()
        if earlier is not None:
            if c["name"] not in earlier:
                continue
            results = earlier[c["name"]]
            files = [r["path"] for r in results]
        else:
            say("real-code: %s: %d files" % (c["name"], len(files)))
            results = run_corpus(tidy, c, root, files, cache_dir,
                                 args.potential, args.j, extra)
        hazards, advisories, failures = collect(c["name"], c["repo"], root,
                                                results)
        m = {"corpus": c, "files": len(files), "hazards": hazards,
             "advisories": advisories, "failures": failures,
             "seconds": time.time() - t0}
        if c.get("barrier_divergence") is not None:
            m["gpuverify"] = gpuverify_summary(root, files, results, hazards,
                                               c["repo"],
                                               c["barrier_divergence"])
        measured.append(m)
        raw[c["name"]] = results
        if args.results:
            with open(args.results, "w") as f:
                json.dump(raw, f, indent=1)
        say("real-code: %s: %.0f s" % (c["name"], m["seconds"]))
    if args.results:
        with open(args.results, "w") as f:
            json.dump(raw, f, indent=1)
    print("cuda-tidy real-code precision, %s, %s tier%s, %s\n" % (
        time.strftime("%Y-%m-%d"), "potential" if args.potential else
        "default", (" (" + " ".join(extra) + ")") if extra else "", version))
    report(measured, triage, args.markdown,
           enabled=None if enabled is None else set(enabled))
    return 0


if __name__ == "__main__":
    sys.exit(main())
