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

# The other two tiers (tiers.test's second part): a potential finding
# (cuda-full-warp-mask with ReportPotential) is a warning and a GitLab
# "minor", an error and "critical" when promoted; an advisory one (the
# opt-in cuda-prefer-tile-collectives) is a note and "info" either way.
POT, ADV = "cuda-full-warp-mask", "cuda-prefer-tile-collectives"
for run, promoted in (("more", False), ("more-gate", True)):
    f = {x["check"]: x for x in json.load(open("%s/%s.json" % (d, run)))["findings"]}
    assert f[POT]["tier"] == "potential" and f[ADV]["tier"] == "advisory", f
    assert "potential:" in f[POT]["message"], f[POT]

    r = {x["ruleId"]: x for x in json.load(open("%s/%s.sarif" % (d, run)))["runs"][0]["results"]}
    assert r[POT]["level"] == ("error" if promoted else "warning"), r[POT]
    assert r[ADV]["level"] == "note", r[ADV]
    assert r[POT]["properties"]["tier"] == "potential", r[POT]
    assert r[ADV]["properties"]["tier"] == "advisory", r[ADV]

    rd = {x["code"]["value"]: x for x in json.load(open("%s/%s.rdjson" % (d, run)))["diagnostics"]}
    assert rd[POT]["severity"] == ("ERROR" if promoted else "WARNING"), rd[POT]
    assert rd[ADV]["severity"] == "INFO", rd[ADV]

    cq = {x["check_name"]: x for x in json.load(open("%s/%s.codequality" % (d, run)))}
    assert cq[POT]["severity"] == ("critical" if promoted else "minor"), cq[POT]
    assert cq[ADV]["severity"] == "info", cq[ADV]

    cases = {c.get("name"): c for c in ET.parse("%s/%s.junit" % (d, run)).iter("testcase")}
    pot = cases["rows-of-warps.cu"].find("failure")
    adv = cases["advisory.cu"].find("failure")
    assert pot.get("message") == "1 finding: 1 potential", pot.attrib
    assert adv.get("message") == "1 finding: 1 advisory", adv.attrib
    assert "[cuda-full-warp-mask] (potential)" in pot.text, pot.text
    assert "[cuda-prefer-tile-collectives] (advisory)" in adv.text, adv.text
print("tiers: ok")
