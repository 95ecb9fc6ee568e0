#!/usr/bin/env python3
"""Tests check_static.py's own logic with fake_cuda_tidy.py (no cuda-tidy, no
GPU): it passes when every marked line is reported and nothing else is, and
fails on a missing finding, an extra finding in a compliant file, a finding in
the harness header, and a check cuda-tidy does not list.

    python3 runtime-verifier/tests/test_check_static.py
"""

import os
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_STATIC = os.path.join(HERE, "check_static.py")
FAKE = os.path.join(HERE, "fake_cuda_tidy.py")


class CheckStaticTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # check_static.py wants an executable; wrap the fake in one.
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tool = os.path.join(cls.tmp.name, "cuda-tidy")
        with open(cls.tool, "w") as f:
            f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, FAKE))
        os.chmod(cls.tool, os.stat(cls.tool).st_mode | stat.S_IXUSR)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_check(self, env=None, extra_args=()):
        e = dict(os.environ)
        for k in ("FAKE_TIDY_DROP", "FAKE_TIDY_EXTRA", "FAKE_TIDY_CHECKS",
                  "FAKE_TIDY_HEADER", "FAKE_TIDY_GROUP"):
            e.pop(k, None)
        e.update(env or {})
        p = subprocess.run([sys.executable, CHECK_STATIC, "--cuda-tidy", self.tool]
                           + list(extra_args), capture_output=True, text=True, env=e,
                           check=False)
        return p.returncode, p.stdout + p.stderr

    def test_all_markers_reported_passes(self):
        rc, out = self.run_check()
        self.assertEqual(rc, 0, out)
        self.assertIn("PASS barrier-branch: [cuda-divergent-barrier] at "
                      "cases/barrier_branch.cu:21", out)
        self.assertIn("PASS barrier-branch-ok: no finding", out)
        self.assertIn("SKIP grid-coop-one-over", out)

    def test_sites_grouped_under_one_finding_pass(self):
        # One finding per cause: barrier_split.cu's second barrier is a note
        # of the finding at the first.
        rc, out = self.run_check({"FAKE_TIDY_GROUP": "barrier_split.cu"})
        self.assertEqual(rc, 0, out)
        self.assertIn("PASS barrier-split: [cuda-divergent-barrier] at "
                      "cases/barrier_split.cu:19,22", out)

    def test_missing_finding_fails(self):
        rc, out = self.run_check({"FAKE_TIDY_DROP": "barrier_early_exit.cu:27"})
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL barrier-early-exit: cases/barrier_early_exit.cu expected "
                      "[cuda-divergent-barrier] at cases/barrier_early_exit.cu line(s) 27",
                      out)

    def test_finding_in_compliant_twin_fails(self):
        rc, out = self.run_check(
            {"FAKE_TIDY_EXTRA": "warp_mask_half_ok.cu:21:cuda-full-warp-mask"})
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL warp-mask-half-ok: expected no finding in "
                      "cases/warp_mask_half_ok.cu, got: 21:1 [cuda-full-warp-mask]", out)

    def test_unexpected_finding_in_shared_file_fails(self):
        # seeds/reductions.cu: line 40 is expected (the shuffle seed); a finding
        # elsewhere in it breaks the clean seeds beside it.
        rc, out = self.run_check(
            {"FAKE_TIDY_EXTRA": "reductions.cu:29:cuda-divergent-barrier"})
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL seed-tree-reduction: expected no finding in seeds/reductions.cu",
                      out)

    def test_finding_in_harness_fails(self):
        rc, out = self.run_check({"FAKE_TIDY_HEADER": "70:cuda-divergent-barrier"})
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL cases/barrier_branch.cu: finding in the harness header "
                      "cases/rv.cuh:70 [cuda-divergent-barrier]", out)

    def test_unregistered_check(self):
        env = {"FAKE_TIDY_CHECKS": "cuda-group-by-value"}
        rc, out = self.run_check(env)
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL barrier-branch: cuda-divergent-barrier is not among "
                      "cuda-tidy's checks", out)
        rc, out = self.run_check(env, ["--allow-missing-checks"])
        self.assertEqual(rc, 0, out)
        self.assertIn("SKIP barrier-branch: cuda-divergent-barrier is not registered", out)
        self.assertIn("PASS group-by-value: [cuda-group-by-value]", out)

    def test_missing_tool_skips(self):
        p = subprocess.run([sys.executable, CHECK_STATIC, "--cuda-tidy",
                            os.path.join(self.tmp.name, "absent")],
                           capture_output=True, text=True, check=False)
        self.assertEqual(p.returncode, 77, p.stdout)


if __name__ == "__main__":
    unittest.main()
