#!/usr/bin/env python3
"""Unit test of bench/real-code/realcode.py's keying and comparison logic on
synthetic findings and a synthetic triage file (no third-party code), and of
its no-corpora mode."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "real-code"))
import realcode  # noqa: E402

REPO, COMMIT = "example/demo", "0" * 40
ROOTDIR = "/corpora/demo"


def finding(path, line, check, message="hazard", error=False):
    return {"check": check, "file": path, "line": line, "column": 1,
            "message": message, "compilerError": error, "notes": [],
            "level": "error" if error else "warning"}


RESULTS = [
    {"path": "a.cu", "rc": 0, "stderr": "", "findings": [
        finding("a.cu", 10, "cuda-divergent-barrier"),
        finding("a.cu", 20, "cuda-full-warp-mask"),
        finding("/corpora/demo/inc/k.cuh", 5, "cuda-divergent-barrier"),
        finding("a.cu", 30, "cuda-full-warp-mask",
                "'__shfl_sync' is called with a full warp mask, which "
                "assumes the whole warp is converged here"),
        finding("/usr/local/cuda/include/x.h", 1, "cuda-full-warp-mask"),
    ]},
    # The same header finding from a second translation unit: one finding.
    {"path": "b.cu", "rc": 0, "stderr": "", "findings": [
        finding("inc/k.cuh", 5, "cuda-divergent-barrier"),
        finding("b.cu", 7, "cuda-divergent-group-creation"),
    ]},
    {"path": "c.cu", "rc": 3, "stderr": "Error while processing c.cu.\n",
     "findings": [finding("c.cu", 1, "clang-diagnostic-error",
                          "'x.h' file not found", error=True),
                  finding("c.cu", 4, "cuda-divergent-barrier")]},
    {"path": "d.cu", "rc": -1, "stderr": "timed out after 900s",
     "findings": []},
]

TRIAGE = "\n".join([
    "# comment",
    "repo\tcommit\tpath:line\tcheck\tverdict\treason",
    "%s\t%s\ta.cu:10\tcuda-divergent-barrier\tTRUE\tbranch on tid" % (
        REPO, COMMIT),
    "%s\t%s\ta.cu:20\tcuda-full-warp-mask\tFALSE\tone-warp block" % (
        REPO, COMMIT),
    "%s\t%s\tinc/k.cuh:5\tcuda-divergent-barrier\tPOTENTIAL\texit" % (
        REPO, COMMIT),
    "%s\t%s\ta.cu:99\tcuda-divergent-barrier\tTRUE\tgone now" % (
        REPO, COMMIT),
    "%s\t%s\ta.cu:98\tcuda-full-warp-mask\tFALSE\tgone, not lost" % (
        REPO, COMMIT),
    # A verdict for another snapshot does not count.
    "%s\t%s\tb.cu:7\tcuda-divergent-group-creation\tTRUE\told" % (
        REPO, "1" * 40),
    "other/repo\t%s\ta.cu:5\tcuda-divergent-barrier\tTRUE\telsewhere" % (
        COMMIT),
]) + "\n"


class Comparison(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.triage_path = os.path.join(self.tmp.name, "triage.tsv")
        with open(self.triage_path, "w") as f:
            f.write(TRIAGE)

    def tearDown(self):
        self.tmp.cleanup()

    def test_collect_keys_and_dedups(self):
        hz, adv, fail = realcode.collect("demo", REPO, ROOTDIR, RESULTS)
        self.assertEqual(sorted(hz), [
            (REPO, "a.cu", 10, "cuda-divergent-barrier"),
            (REPO, "a.cu", 20, "cuda-full-warp-mask"),
            (REPO, "b.cu", 7, "cuda-divergent-group-creation"),
            (REPO, "c.cu", 4, "cuda-divergent-barrier"),
            (REPO, "inc/k.cuh", 5, "cuda-divergent-barrier"),
        ])
        self.assertEqual(hz[(REPO, "inc/k.cuh", 5, "cuda-divergent-barrier")]
                         ["units"], ["a.cu", "b.cu"])
        self.assertEqual(list(adv), [(REPO, "a.cu", 30,
                                      "cuda-full-warp-mask")])
        self.assertEqual(fail, [("c.cu", "c.cu:1: 'x.h' file not found"),
                                ("d.cu", "timed out after 900s")])

    def test_compare_counts_precision_and_lost(self):
        hz, _, _ = realcode.collect("demo", REPO, ROOTDIR, RESULTS)
        triage = realcode.read_triage(self.triage_path)
        rows, untriaged, lost = realcode.compare(REPO, COMMIT, hz, triage)
        b = rows["cuda-divergent-barrier"]
        self.assertEqual((b["findings"], b["TRUE"], b["FALSE"],
                          b["POTENTIAL"], b["untriaged"], b["lost"]),
                         (3, 1, 0, 1, 1, 1))
        self.assertEqual(b["precision"], 1.0)
        # Strict: a POTENTIAL verdict counts against (issue 36).
        self.assertEqual(b["strict"], 0.5)
        self.assertEqual(b["recall"], 0.5)
        w = rows["cuda-full-warp-mask"]
        self.assertEqual((w["findings"], w["TRUE"], w["FALSE"], w["lost"]),
                         (1, 0, 1, 0))
        self.assertEqual(w["precision"], 0.0)
        self.assertIsNone(w["recall"])
        g = rows["cuda-divergent-group-creation"]
        self.assertEqual((g["findings"], g["untriaged"]), (1, 1))
        self.assertIsNone(g["precision"])
        self.assertEqual(sorted(untriaged), [
            (REPO, "b.cu", 7, "cuda-divergent-group-creation"),
            (REPO, "c.cu", 4, "cuda-divergent-barrier")])
        self.assertEqual([k for k, _ in lost],
                         [(REPO, "a.cu", 99, "cuda-divergent-barrier")])
        t = realcode.total(rows.values())
        self.assertEqual((t["findings"], t["TRUE"], t["FALSE"]), (5, 1, 1))
        self.assertEqual(t["precision"], 0.5)
        self.assertAlmostEqual(t["strict"], 1 / 3)

    def test_lost_counts_only_checks_that_ran(self):
        # A run of one opt-in rule alone (--checks=-*,cuda-shared-memory-race)
        # loses none of the other checks' TRUE verdicts, and a default run
        # (enabled None) none of an opt-in check's.
        hz = {(REPO, "s.cu", 3, "cuda-shared-memory-race"): {
            "message": "data race", "units": ["s.cu"]}}
        triage = realcode.read_triage(self.triage_path)
        triage[(REPO, "s.cu", 3, "cuda-shared-memory-race")] = (
            COMMIT, "TRUE", "neighbour read")
        triage[(REPO, "s.cu", 9, "cuda-shared-memory-race")] = (
            COMMIT, "TRUE", "gone")
        rows, untriaged, lost = realcode.compare(
            REPO, COMMIT, hz, triage, {"cuda-shared-memory-race"})
        self.assertEqual(untriaged, [])
        self.assertEqual([k for k, _ in lost],
                         [(REPO, "s.cu", 9, "cuda-shared-memory-race")])
        r = rows["cuda-shared-memory-race"]
        self.assertEqual((r["findings"], r["TRUE"], r["lost"]), (1, 1, 1))
        _, _, lost = realcode.compare(REPO, COMMIT, {}, triage)
        self.assertEqual([k for k, _ in lost],
                         [(REPO, "a.cu", 10, "cuda-divergent-barrier"),
                          (REPO, "a.cu", 99, "cuda-divergent-barrier")])

    def test_tidy_args(self):
        self.assertEqual(realcode.tidy_args(None, []), [])
        self.assertEqual(realcode.tidy_args("-*,cuda-shared-memory-race",
                                            ["--config={}"]),
                         ["--checks=-*,cuda-shared-memory-race",
                          "--config={}"])

    def test_bad_triage_is_refused(self):
        with open(self.triage_path, "a") as f:
            f.write("%s\t%s\ta.cu:1\tcuda-x\tMAYBE\twhy\n" % (REPO, COMMIT))
        with self.assertRaises(SystemExit):
            realcode.read_triage(self.triage_path)

    def test_gpuverify_label(self):
        self.assertEqual(realcode.gpuverify_label("//pass\n//--blockDim=32"),
                         "pass")
        self.assertEqual(realcode.gpuverify_label("//PASS\n"), "pass")
        self.assertEqual(realcode.gpuverify_label(
            "//xfail:NOT_ALL_VERIFIED\n"), "xfail:not_all_verified")

    def test_committed_triage_parses(self):
        triage = realcode.read_triage(os.path.join(ROOT, "bench",
                                                   "real-code", "triage"))
        pins = {c["repo"]: c["commit"] for c in realcode.CORPORA}
        for (repo, path, line, check), (commit, _, reason) in triage.items():
            self.assertEqual(pins.get(repo), commit, (repo, path, line))
            self.assertTrue(reason.strip(), (repo, path, line))

    def test_no_mirrors_one_line_exit_0(self):
        r = subprocess.run(
            ["sh", os.path.join(ROOT, "bench", "real-code", "run.sh"),
             "--mirrors", os.path.join(self.tmp.name, "none"),
             "--corpora", os.path.join(self.tmp.name, "corpora")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(r.stdout.splitlines()), 1, r.stdout)
        self.assertIn("no corpus mirrors", r.stdout)


class TriageFolderTest(unittest.TestCase):
    def test_every_tsv_of_a_folder_is_read_and_duplicates_fail(self):
        with tempfile.TemporaryDirectory() as d:
            head = "repo\tcommit\tpath:line\tcheck\tverdict\treason\n"
            row = "%s\t%s\ta.cu:%d\tcuda-divergent-barrier\tTRUE\tr\n"
            with open(os.path.join(d, "one.tsv"), "w") as f:
                f.write(head + row % (REPO, COMMIT, 1))
            with open(os.path.join(d, "two.tsv"), "w") as f:
                f.write(head + row % (REPO, COMMIT, 2))
            with open(os.path.join(d, "notes.md"), "w") as f:
                f.write("not a triage file\n")
            self.assertEqual(sorted(k[2] for k in realcode.read_triage(d)),
                             [1, 2])
            with open(os.path.join(d, "three.tsv"), "w") as f:
                f.write(head + row % (REPO, COMMIT, 2))
            with self.assertRaises(SystemExit):
                realcode.read_triage(d)


if __name__ == "__main__":
    unittest.main()
