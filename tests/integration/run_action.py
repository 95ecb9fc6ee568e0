#!/usr/bin/env python3
"""Runs a composite action.yml's steps the way a GitHub runner would, for
tests/integration/github_action_test.sh: each `run:` under
`bash --noprofile --norc -eo pipefail` (the runner's `shell: bash`) with
GITHUB_PATH, GITHUB_OUTPUT and GITHUB_ACTION_PATH; `${{ }}` expressions of
the forms the action uses (a context path, `a == 'b'`) filled in from
the inputs and the event given; `if:` evaluated; `uses:` steps emulated:
actions/cache restores the newest saved folder whose key starts with a
restore key and saves the path under its key when the job ends (as its post
step does), github/codeql-action/upload-sarif checks the file and records the
upload. An expression of another form stops the run, so the action cannot
outgrow what this emulator checks.

    run_action.py ACTION_YML STATE_DIR CONTEXT_JSON
CONTEXT_JSON: {"inputs": {...}, "github": {...}}; STATE_DIR keeps the caches
and writes uploads.txt. Exit status: the job's (the first failing step's).
"""

import json
import os
import re
import shutil
import subprocess
import sys

import yaml

action_path, state, ctx_file = sys.argv[1:4]
action = yaml.safe_load(open(action_path))
ctx = json.load(open(ctx_file))
inputs = {k: str(v.get("default", "")) for k, v in action.get("inputs", {}).items()}
for k, v in ctx.get("inputs", {}).items():
    if k not in inputs:
        sys.exit("run_action: the action has no input %r" % k)
    inputs[k] = v
runner_temp = os.path.join(state, "runner-temp")
shutil.rmtree(runner_temp, ignore_errors=True)
os.makedirs(runner_temp)
context = {"inputs": inputs, "github": ctx["github"],
           "runner": {"os": "Linux", "temp": runner_temp}, "steps": {}}
path_file = os.path.join(runner_temp, "github_path")
open(path_file, "w").close()


def lookup(expr):
    cur = context
    for part in expr.split("."):
        if not isinstance(cur, dict):
            return ""
        cur = cur.get(part, "")
    return "" if cur is None else cur


def evaluate(expr):
    expr = expr.strip()
    m = re.fullmatch(r"([\w.-]+)\s*==\s*'([^']*)'", expr)
    if m:
        return str(lookup(m.group(1))) == m.group(2)
    if re.fullmatch(r"[a-zA-Z_][\w.-]*", expr):
        return lookup(expr)
    sys.exit("run_action: an expression this emulator does not evaluate: %r" % expr)


def fill(text):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(evaluate(m.group(1))), str(text))


def cache_dir(key):
    return os.path.join(state, "actions-cache", key)


saves = []
job_rc = 0
for step in action["runs"]["steps"]:
    name = step.get("name", step.get("uses", "?"))
    cond = step.get("if")
    if cond is not None and not evaluate(cond.replace("${{", "").replace("}}", "")):
        print("::step-skipped::" + name)
        continue
    outputs = {}
    if "run" in step:
        if step.get("shell") != "bash":
            sys.exit("run_action: step %r: composite run steps need shell: bash" % name)
        out_file = os.path.join(runner_temp, "github_output")
        open(out_file, "w").close()
        env = dict(os.environ)
        extra_path = [p for p in open(path_file).read().splitlines() if p]
        env["PATH"] = ":".join(list(reversed(extra_path)) + [env["PATH"]])
        env.update({"GITHUB_PATH": path_file, "GITHUB_OUTPUT": out_file,
                    "GITHUB_ACTION_PATH": os.path.dirname(os.path.abspath(action_path)),
                    "RUNNER_TEMP": runner_temp})
        env.update({k: fill(v) for k, v in step.get("env", {}).items()})
        script = os.path.join(runner_temp, "step.sh")
        with open(script, "w") as f:
            f.write(fill(step["run"]))
        print("::step::" + name, flush=True)
        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], env=env)
        for line in open(out_file).read().splitlines():
            k, _, v = line.partition("=")
            outputs[k] = v
        if rc != 0:
            print("::step-failed::%s (exit %d)" % (name, rc), flush=True)
            job_rc = rc
    elif step["uses"].startswith("actions/cache@"):
        w = {k: fill(v) for k, v in step["with"].items()}
        path = os.path.expanduser(w["path"])  # ~ is the HOME given
        print("::step::%s (restore %s)" % (name, path), flush=True)
        hits = []
        for prefix in [w["key"]] + [k for k in str(w.get("restore-keys", "")).splitlines() if k]:
            root = os.path.join(state, "actions-cache")
            if os.path.isdir(root):
                hits += sorted((os.path.getmtime(os.path.join(root, k)), k)
                               for k in os.listdir(root) if k.startswith(prefix))
            if hits:
                break
        if hits:
            shutil.rmtree(path, ignore_errors=True)
            shutil.copytree(cache_dir(hits[-1][1]), path, symlinks=True)
            print("cache restored from key: " + hits[-1][1])
            outputs["cache-hit"] = str(hits[-1][1] == w["key"]).lower()
        saves.append((w["key"], path))
    elif step["uses"].startswith("github/codeql-action/upload-sarif@"):
        w = {k: fill(v) for k, v in step["with"].items()}
        sarif = json.load(open(w["sarif_file"]))
        assert sarif["version"] == "2.1.0" and sarif["runs"], "not a SARIF log"
        with open(os.path.join(state, "uploads.txt"), "a") as f:
            f.write("%s %s %d\n" % (step["uses"], w.get("category", ""),
                                    sum(len(r.get("results", [])) for r in sarif["runs"])))
        print("::step::%s (uploaded %s)" % (name, w["sarif_file"]), flush=True)
    else:
        sys.exit("run_action: no emulation for %r" % step["uses"])
    if "id" in step:
        context["steps"][step["id"]] = {"outputs": outputs}
    if job_rc:
        break

# actions/cache's post step: saves the path under its key unless that key
# exists (keys are immutable), also when the job failed.
for key, path in saves:
    if os.path.isdir(path) and not os.path.exists(cache_dir(key)):
        shutil.copytree(path, cache_dir(key), symlinks=True)
        print("cache saved with key: " + key)
sys.exit(job_rc)
