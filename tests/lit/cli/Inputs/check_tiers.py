"""The checks of tiers.test (tests/lit/cli): the tier and the severity of the by-value
(guideline) and the early-exit barrier (definite) finding in each format,
without and with --warnings-as-errors."""
import json
import sys
import xml.etree.ElementTree as ET

d = sys.argv[1]
BY, BAR = "cuda-group-by-value", "cuda-divergent-barrier"
for run, promoted in (("plain", False), ("gate", True)):
    f = {x["check"]: x for x in json.load(open("%s/%s.json" % (d, run)))["findings"]}
    assert f[BY]["tier"] == "guideline" and f[BAR]["tier"] == "definite", f
    assert f[BAR]["level"] == ("error" if promoted else "warning"), f

    sarif = json.load(open("%s/%s.sarif" % (d, run)))["runs"][0]
    r = {x["ruleId"]: x for x in sarif["results"]}
    assert r[BY]["level"] == "note", r[BY]
    assert r[BAR]["level"] == ("error" if promoted else "warning"), r[BAR]
    assert r[BY]["properties"]["tier"] == "guideline", r[BY]
    assert r[BAR]["properties"]["tier"] == "definite", r[BAR]
    rules = {x["id"]: x for x in sarif["tool"]["driver"]["rules"]}
    assert rules[BY]["defaultConfiguration"]["level"] == "note", rules[BY]
    assert rules[BAR]["defaultConfiguration"]["level"] == "warning", rules[BAR]

    rd = {x["code"]["value"]: x for x in json.load(open("%s/%s.rdjson" % (d, run)))["diagnostics"]}
    assert rd[BY]["severity"] == "INFO", rd[BY]
    assert rd[BAR]["severity"] == ("ERROR" if promoted else "WARNING"), rd[BAR]

    cq = {x["check_name"]: x for x in json.load(open("%s/%s.codequality" % (d, run)))}
    assert cq[BY]["severity"] == "info", cq[BY]
    assert cq[BAR]["severity"] == ("critical" if promoted else "major"), cq[BAR]

    cases = {c.get("name"): c for c in ET.parse("%s/%s.junit" % (d, run)).iter("testcase")}
    by = cases["byvalue.cu"].find("failure")
    bar = cases["barrier.cu"].find("failure")
    assert by.get("message") == "1 finding: 1 guideline", by.attrib
    assert bar.get("message") == "1 finding: 1 definite", bar.attrib
    assert "[cuda-group-by-value] (guideline)" in by.text, by.text
    assert "[cuda-divergent-barrier] (definite)" in bar.text, bar.text
print("tiers: ok")
