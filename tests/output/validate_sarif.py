#!/usr/bin/env python3
"""Validates cuda-tidy's SARIF with Microsoft's SARIF multitool.

The multitool exits 0 even when the log is invalid, so this reads its own
SARIF report and fails on every result it lists (schema errors and the
GitHub code-scanning rules, --rule-kind "Gh;Sarif"). Exit 77 (skipped) when
the validator is not installed (scripts/install-sarif-validator.sh).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

def main():
    cuda_tidy, validator, inputs_dir = sys.argv[1:4]
    if not os.access(validator, os.X_OK):
        print("SKIPPED: no SARIF validator at %s (run scripts/install-sarif-validator.sh)" % validator)
        return 77
    work = tempfile.mkdtemp(prefix="cuda-tidy-sarif-")
    try:
        # Hostile names: quotes, spaces, commas, colons, percent, unicode.
        names = ["plain.cu", "we ird,na:me%20\"q\".cu", "ünï cødé.cu"]
        for name in names:
            shutil.copy(os.path.join(inputs_dir, "finding.cu"), os.path.join(work, name))
        shutil.copy(os.path.join(inputs_dir, "broken.cu"), os.path.join(work, "broken.cu"))
        log = os.path.join(work, "out.sarif")
        proc = subprocess.run([cuda_tidy, "--format=sarif", "--output=" + log] + names + ["broken.cu", "--"],
                              cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if proc.returncode != 3:
            print("expected exit 3 (broken.cu does not compile), got %d\n%s" % (proc.returncode, proc.stdout))
            return 1
        with open(log, encoding="utf-8") as f:
            sarif = json.load(f)
        results = sarif["runs"][0]["results"]
        rule_ids = {r["ruleId"] for r in results}
        if "cuda-group-by-value" not in rule_ids or "clang-diagnostic-error" not in rule_ids:
            print("expected findings of cuda-group-by-value and a compiler error, got %s" % sorted(rule_ids))
            return 1
        uris = {urllib.parse.unquote(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results}
        for name in names:
            if name not in uris:
                print("file %r missing from the SARIF locations %s" % (name, sorted(uris)))
                return 1
        report = os.path.join(work, "validation.sarif")
        proc = subprocess.run([validator, "validate", "--rule-kind", "Gh;Sarif", "--output", report, log],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        print(proc.stdout)
        if not os.path.exists(report):
            print("the validator wrote no report (exit %d)" % proc.returncode)
            return 1
        with open(report, encoding="utf-8") as f:
            problems = json.load(f)["runs"][0].get("results", [])
        for p in problems:
            print("%s %s: %s" % (p.get("level", "warning"), p["ruleId"], p["message"]))
        if problems:
            print("%d validation problems" % len(problems))
            return 1
        print("SARIF valid: %d results, %d files, 0 validation problems" % (len(results), len(uris)))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
