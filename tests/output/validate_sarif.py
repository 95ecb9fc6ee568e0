#!/usr/bin/env python3
"""Validates cuda-tidy's SARIF: a strict parse, then Microsoft's multitool.

The strict parse runs in every build, the sanitizer build included: the
bytes must be valid UTF-8 and JSON, and the SARIF 2.1.0 fields GitHub and
the schema require must be there with the right types, every string free of
control characters. The multitool does not notice a log full of freed
memory (issue 15: the compiler-error rule's descriptions were dangling
strings, and the multitool still reported 0 problems), so it is the second
step, not the only one.

The multitool exits 0 even when the log is invalid, so this reads its own
SARIF report and fails on every result it lists (schema errors and the
GitHub code-scanning rules, --rule-kind "Gh;Sarif"). Without the validator
(scripts/install-sarif-validator.sh) only the strict parse runs.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

class Invalid(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Invalid(what)


def check_strings(value, where):
    """Every string in the log: no control characters (heap garbage shows
    as NUL and other C0 bytes), no U+FFFD replacement characters."""
    if isinstance(value, str):
        bad = [c for c in value if (ord(c) < 0x20 and c not in "\n\t\r") or c == "\ufffd"]
        expect(not bad, "%s holds control or replacement characters: %r" % (where, value[:80]))
    elif isinstance(value, dict):
        for k, v in value.items():
            check_strings(k, where + ".<key>")
            check_strings(v, where + "." + k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_strings(v, "%s[%d]" % (where, i))


def text_field(obj, key, where):
    expect(isinstance(obj.get(key), dict), "%s.%s missing" % (where, key))
    t = obj[key].get("text")
    expect(isinstance(t, str) and t.strip(), "%s.%s.text missing or empty" % (where, key))
    return t


def strict_parse(path):
    """The log as bytes: UTF-8, JSON, the required SARIF 2.1.0 fields."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise Invalid("not valid UTF-8: %s (bytes %r)" % (e, raw[max(0, e.start - 20):e.end + 20]))
    try:
        sarif = json.loads(text)
    except ValueError as e:
        raise Invalid("not valid JSON: %s" % e)
    check_strings(sarif, "$")
    expect(sarif.get("version") == "2.1.0", "version is not 2.1.0")
    expect(isinstance(sarif.get("$schema"), str), "$schema missing")
    runs = sarif.get("runs")
    expect(isinstance(runs, list) and len(runs) == 1, "runs must hold one run")
    run = runs[0]
    driver = run.get("tool", {}).get("driver")
    expect(isinstance(driver, dict), "runs[0].tool.driver missing")
    expect(driver.get("name") == "cuda-tidy", "tool.driver.name is not cuda-tidy")
    rules = driver.get("rules")
    expect(isinstance(rules, list) and rules, "tool.driver.rules missing")
    ids = []
    for i, rule in enumerate(rules):
        where = "rules[%d]" % i
        expect(isinstance(rule.get("id"), str) and rule["id"], where + ".id missing")
        ids.append(rule["id"])
        expect(isinstance(rule.get("name"), str) and rule["name"] != rule["id"],
               where + ".name missing or equal to its id")
        text_field(rule, "shortDescription", where)
        text_field(rule, "fullDescription", where)
        text_field(rule, "help", where)
    expect(len(set(ids)) == len(ids), "duplicate rule ids: %s" % ids)
    results = run.get("results")
    expect(isinstance(results, list), "runs[0].results missing")
    for i, r in enumerate(results):
        where = "results[%d]" % i
        expect(r.get("ruleId") in ids, where + ".ruleId names no rule")
        expect(isinstance(r.get("ruleIndex"), int) and 0 <= r["ruleIndex"] < len(rules) and
               rules[r["ruleIndex"]]["id"] == r["ruleId"], where + ".ruleIndex does not point at its rule")
        expect(r.get("level") in ("none", "note", "warning", "error"), where + ".level invalid")
        text_field(r, "message", where)
        locs = r.get("locations")
        expect(isinstance(locs, list) and locs, where + ".locations missing")
        for loc in locs:
            phys = loc.get("physicalLocation", {})
            art = phys.get("artifactLocation", {})
            expect(isinstance(art.get("uri"), str) and art["uri"], where + " location without a uri")
            region = phys.get("region", {})
            expect(isinstance(region.get("startLine"), int) and region["startLine"] >= 1,
                   where + " region.startLine missing or < 1")
        fp = r.get("partialFingerprints", {})
        expect(isinstance(fp, dict) and fp, where + ".partialFingerprints missing")
    return sarif


def main():
    cuda_tidy, validator, inputs_dir = sys.argv[1:4]
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
        try:
            sarif = strict_parse(log)
        except Invalid as e:
            print("invalid SARIF: %s" % e)
            return 1
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
        # The compiler error's rule: real text, not freed memory.
        rules = {r["id"]: r for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
        error_rule = rules["clang-diagnostic-error"]
        if error_rule["shortDescription"]["text"] != "the compiler could not parse the file":
            print("the compiler-error rule's description is %r" % error_rule["shortDescription"]["text"])
            return 1
        # A compiler error alone, the field report's reproduction, five times
        # (the garbage differed from run to run).
        with open(os.path.join(work, "undefined.cu"), "w") as f:
            f.write("__global__ void k(int *p){p[0]=undefined_name;}\n")
        for attempt in range(5):
            alone = os.path.join(work, "alone%d.sarif" % attempt)
            proc = subprocess.run([cuda_tidy, "--format=sarif", "--output=" + alone, "undefined.cu", "--"],
                                  cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
            if proc.returncode != 3:
                print("expected exit 3 for undefined.cu, got %d\n%s" % (proc.returncode, proc.stdout))
                return 1
            try:
                alone_log = strict_parse(alone)
            except Invalid as e:
                print("invalid SARIF for a compiler error alone (run %d): %s" % (attempt + 1, e))
                return 1
            got = [r["ruleId"] for r in alone_log["runs"][0]["results"]]
            if "clang-diagnostic-error" not in got:
                print("expected a clang-diagnostic-error result, got %s" % got)
                return 1
        print("strict parse: valid UTF-8, JSON and SARIF 2.1.0 fields")
        if not os.access(validator, os.X_OK):
            print("SKIPPED the multitool: no SARIF validator at %s (run scripts/install-sarif-validator.sh)" % validator)
            return 0
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
