#!/usr/bin/env python3
"""Checks the review formats (issue 22) on real runs of cuda-tidy.

One run per format over files with hostile names (quotes, '<', '&', a
newline, ESC, invalid UTF-8) that each hold a finding with a fix-it, plus a
file that does not compile:

- rdjson: valid UTF-8 and JSON, reviewdog's DiagnosticResult fields with
  their types and enums, a suggestion from each fix-it; and, when a copy of
  reviewdog's published schema is at the path given (it is not committed:
  third-party), validated against it with python3-jsonschema;
- codequality: GitLab's required fields, and each fingerprint equal to the
  JSON format's (the baseline's) for the same finding;
- junit: well-formed XML with one test case per input, failures and errors
  counted, every name escaped (no control byte, valid UTF-8);
- html: every page valid UTF-8 with no raw control byte and the markup
  characters of names escaped; in headless Chromium (--dump-dom) the index
  has one row per finding and its filters were filled by the script, and
  each finding page shows every note and the warning as a numbered step
  under the line the JSON report gives it.
Exit 77 (skipped) is never used: without Chromium only its part is skipped,
with a message.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


class Invalid(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Invalid(what)


def utf8(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise Invalid("%s is not valid UTF-8: %s" % (path, e))


def no_controls(text, where):
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t\r") or 0x7f <= ord(c) <= 0x9f]
    expect(not bad, "%s holds raw control characters %r" % (where, bad[:5]))


def run(cuda_tidy, work, args, names):
    proc = subprocess.run([cuda_tidy] + args + names + [b"broken.cu", b"--"], cwd=work,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    expect(proc.returncode == 3, "%s: expected exit 3 (broken.cu does not compile), got %d\n%s"
           % (args, proc.returncode, proc.stderr.decode("utf-8", "replace")))
    return proc.stdout


def check_rdjson(text, schema_path, n_files):
    doc = json.loads(text)
    no_controls(json.dumps(doc, ensure_ascii=False).replace("\\n", ""), "rdjson")
    expect(doc.get("source", {}).get("name") == "cuda-tidy", "rdjson source.name")
    diags = doc.get("diagnostics")
    expect(isinstance(diags, list), "rdjson diagnostics missing")
    severities = {"UNKNOWN_SEVERITY", "ERROR", "WARNING", "INFO"}
    suggestions = 0
    for i, d in enumerate(diags):
        w = "diagnostics[%d]" % i
        expect(isinstance(d.get("message"), str) and d["message"], w + ".message")
        expect(d.get("severity") in severities, w + ".severity")
        expect(isinstance(d.get("code", {}).get("value"), str), w + ".code.value")
        if "location" in d:
            loc = d["location"]
            expect(isinstance(loc.get("path"), str) and loc["path"], w + ".location.path")
            start = loc.get("range", {}).get("start", {})
            expect(isinstance(start.get("line"), int) and start["line"] >= 1, w + " range.start.line")
        for s in d.get("suggestions", []):
            suggestions += 1
            expect(isinstance(s.get("text"), str), w + " suggestion text")
            for end in ("start", "end"):
                p = s.get("range", {}).get(end, {})
                expect(isinstance(p.get("line"), int) and p["line"] >= 1, w + " suggestion " + end)
    expect(suggestions >= n_files, "rdjson: %d suggestions for %d fix-its" % (suggestions, n_files))
    checks = {d["code"]["value"] for d in diags}
    expect({"cuda-group-by-value", "clang-diagnostic-error"} <= checks, "rdjson checks %s" % checks)
    if schema_path and os.path.exists(schema_path):
        import jsonschema
        with open(schema_path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.validate(doc, schema)
        print("rdjson: valid against reviewdog's schema at %s" % schema_path)
    else:
        print("rdjson: SKIPPED reviewdog's schema (no copy at %r); the field checks ran" % schema_path)
    return len(diags)


def check_codequality(text, json_findings):
    issues = json.loads(text)
    expect(isinstance(issues, list), "codequality is not a list")
    severities = {"info", "minor", "major", "critical", "blocker"}
    want = {(f["check"], f["fingerprint"]) for f in json_findings}
    got = set()
    for i, it in enumerate(issues):
        w = "issues[%d]" % i
        for key in ("description", "check_name", "fingerprint"):
            expect(isinstance(it.get(key), str) and it[key], w + "." + key)
        expect(it.get("severity") in severities, w + ".severity")
        expect(re.fullmatch(r"[0-9a-f]{32}", it["fingerprint"]), w + ".fingerprint")
        loc = it.get("location", {})
        expect(isinstance(loc.get("path"), str), w + ".location.path")
        expect(isinstance(loc.get("lines", {}).get("begin"), int) and loc["lines"]["begin"] >= 1,
               w + ".location.lines.begin")
        got.add((it["check_name"], it["fingerprint"]))
    expect(got == want, "codequality fingerprints differ from the JSON report's: %s vs %s" % (got, want))
    return len(issues)


def check_junit(text, n_inputs):
    no_controls(text, "junit")
    root = ET.fromstring(text.encode("utf-8"))
    suites = root.findall("testsuite")
    expect(len(suites) == 1, "junit: one testsuite")
    cases = suites[0].findall("testcase")
    expect(len(cases) == n_inputs, "junit: %d test cases for %d inputs" % (len(cases), n_inputs))
    failures = sum(1 for c in cases if c.find("failure") is not None)
    errors = sum(1 for c in cases if c.find("error") is not None)
    expect(errors == 1, "junit: %d errors, want 1 (broken.cu)" % errors)
    expect(failures == n_inputs - 1, "junit: %d failures, want %d" % (failures, n_inputs - 1))
    expect(suites[0].get("failures") == str(failures) and suites[0].get("errors") == "1",
           "junit: the suite's counts")
    names = {c.get("name") for c in cases}
    for want in ("<a&b>.cu", "we\"ird'q.cu", "new\\x0aline.cu", "esc\\x1b[31m.cu", "bad\\xff\\xfe.cu"):
        expect(want in names, "junit: no test case named %r in %s" % (want, sorted(names)))


class Rows(html.parser.HTMLParser):
    """Rows of the source tables and of the index from a page's DOM."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.findings = 0
        self.options = 0
        self.steps = []  # (data-line, number, text)
        self._step = None
        self._in_n = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "tr" and "finding" in cls:
            self.findings += 1
        if tag == "option":
            self.options += 1
        if tag == "tr" and "step" in cls:
            self._step = [int(a["data-line"]), "", ""]
        if tag == "span" and "n" in cls and self._step is not None:
            self._in_n = True

    def handle_endtag(self, tag):
        if tag == "span":
            self._in_n = False
        if tag == "tr" and self._step is not None:
            self.steps.append((self._step[0], self._step[1], self._step[2].strip()))
            self._step = None

    def handle_data(self, data):
        if self._step is not None:
            self._step[1 if self._in_n else 2] += data


def dump_dom(chromium, path):
    proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                           "file://" + path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    expect(proc.returncode == 0, "chromium failed on %s" % path)
    return proc.stdout.decode("utf-8")


def check_html(folder, json_findings, chromium):
    pages = sorted(os.listdir(folder))
    expect("index.html" in pages, "html: no index.html")
    expect(len([p for p in pages if p.startswith("finding-")]) == len(json_findings),
           "html: %d finding pages for %d findings" % (len(pages) - 1, len(json_findings)))
    for page in pages:
        text = utf8(os.path.join(folder, page))
        no_controls(text, page)
        expect("<a&b>" not in text, page + ": a file name's markup characters are raw")
    # The fix-it's two edits (const, &) shown as one changed line.
    fix_pages = [p for p in pages if p.startswith("finding-") and
                 "<span class='add'>+ __device__ void byValue(const cg::thread_block &amp;b)" in
                 utf8(os.path.join(folder, p))]
    with_fixes = sum(1 for f in json_findings if f["fixes"] and f["check"] == "cuda-group-by-value")
    expect(len(fix_pages) == with_fixes, "html: %d pages show the fix-it as one diff, %d findings have one" % (len(fix_pages), with_fixes))
    index = utf8(os.path.join(folder, "index.html"))
    expect("&lt;a&amp;b&gt;.cu" in index, "html: the name <a&b>.cu is not in the index, escaped")
    parsed = Rows()
    parsed.feed(index)
    expect(parsed.findings == len(json_findings), "html index: %d rows for %d findings" %
           (parsed.findings, len(json_findings)))
    if not chromium:
        print("html: SKIPPED the browser part (no chromium on PATH); the static checks ran")
        return
    dom = Rows()
    dom.feed(dump_dom(chromium, os.path.join(folder, "index.html")))
    expect(dom.findings == len(json_findings), "chromium index: %d rows" % dom.findings)
    # Each filter starts with "all"; the script adds an option per value.
    expect(dom.options > 3, "chromium index: the filters were not filled (script did not run)")
    for i, f in enumerate(json_findings):
        page = Rows()
        page.feed(dump_dom(chromium, os.path.join(folder, "finding-%d.html" % (i + 1))))
        shown = {(line, text) for line, _, text in page.steps}
        want = {(f["line"], f["message"])} | {(n["line"], n["message"]) for n in f["notes"] if n["file"] == f["file"]}
        expect(want <= shown, "finding-%d: steps %s, want %s" % (i + 1, sorted(shown), sorted(want)))
        numbers = [int(n) for _, n, _ in page.steps]
        expect(sorted(numbers) == list(range(1, len(numbers) + 1)), "finding-%d: steps numbered %s" % (i + 1, numbers))
    print("html: %d findings, every step on its line in Chromium's DOM" % len(json_findings))


def main():
    cuda_tidy, inputs_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    schema_path = sys.argv[3] if len(sys.argv) > 3 else ""
    work = tempfile.mkdtemp(prefix="cuda-tidy-review-")
    try:
        names = [b"plain.cu", b"<a&b>.cu", b"we\"ird'q.cu", b"new\nline.cu", b"esc\x1b[31m.cu", b"bad\xff\xfe.cu"]
        for name in names:
            shutil.copy(os.path.join(inputs_dir, "finding.cu"), os.path.join(os.fsencode(work), name))
        shutil.copy(os.path.join(inputs_dir, "broken.cu"), os.path.join(work, "broken.cu"))
        n_inputs = len(names) + 1
        json_findings = json.loads(run(cuda_tidy, work, ["--format=json"], names))["findings"]
        hazards = [f for f in json_findings if not f["compilerError"]]
        # broken.cu holds the same finding before its syntax error.
        expect(len(hazards) == n_inputs, "expected one finding per file, got %d" % len(hazards))

        n = check_rdjson(run(cuda_tidy, work, ["--format=rdjson"], names).decode("utf-8"), schema_path, len(names))
        print("rdjson: %d diagnostics, fields and suggestions checked" % n)
        n = check_codequality(run(cuda_tidy, work, ["--format=codequality"], names).decode("utf-8"), json_findings)
        print("codequality: %d issues, fingerprints equal the baseline's" % n)
        check_junit(run(cuda_tidy, work, ["--format=junit"], names).decode("utf-8", errors="strict"), n_inputs)
        print("junit: %d test cases, well-formed" % n_inputs)
        folder = os.path.join(work, "report")
        run(cuda_tidy, work, ["--format=html", "--output=" + folder], names)
        check_html(folder, json_findings, shutil.which("chromium"))
        # --format=html without --output is a usage error.
        proc = subprocess.run([cuda_tidy, "--format=html", "plain.cu", "--"], cwd=work,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        expect(proc.returncode == 2 and b"--output=DIR" in proc.stderr, "html without --output: exit %d" % proc.returncode)
        return 0
    except Invalid as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
