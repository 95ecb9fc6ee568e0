#!/usr/bin/env python3
"""Runs one lit test file through BOTH cuda-tidy front-ends and checks them.

  check_cuda_tidy.py [-check-suffix=S[,T]] <source> <check-glob> <temp>
                     [-- <tidy args> [-- <compile flags>]]

For each front-end (clang-tidy-22 --load=<plugin>, and the standalone
cuda-tidy) the source is copied with its CHECK lines blanked (line numbers
stay put), the check runs with --fix when the file has CHECK-FIXES, and:
  - CHECK-MESSAGES lines must match the warnings, and no other warning or
    error may appear; with CHECK-NOTES, notes are matched and bounded too;
    a file with neither must produce no diagnostic at all;
  - CHECK-FIXES lines must match the fixed file, and a second --fix run must
    leave it unchanged.
Both front-ends are held to the same expectations, so they cannot drift.
The tools come from the environment lit sets up (lit.cfg.py).
"""
import os
import re
import subprocess
import sys


def fail(message, output=None):
    sys.stderr.write("check_cuda_tidy.py: " + message + "\n")
    if output is not None:
        sys.stderr.write("------ output ------\n" + output + "--------------------\n")
    sys.exit(1)


def parse_args(argv):
    suffixes = []
    positional = []
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i].startswith("-check-suffix=") or argv[i].startswith("-check-suffixes="):
            suffixes = [s for s in argv[i].split("=", 1)[1].split(",") if s]
        else:
            positional.append(argv[i])
        i += 1
    if len(positional) != 3:
        fail("usage: check_cuda_tidy.py [-check-suffix=S] <source> <check> <temp> [-- tidy args [-- compile flags]]")
    rest = argv[i + 1:] if i < len(argv) else []
    if "--" in rest:
        j = rest.index("--")
        tidy_args, compile_flags = rest[:j], rest[j + 1:]
    else:
        tidy_args, compile_flags = rest, []
    return suffixes, positional, tidy_args, compile_flags


def run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return proc.returncode, proc.stdout


def file_check(input_path, source, prefix, implicit_not=None, strict=False):
    cmd = [os.environ["FILECHECK"], "-input-file=" + input_path, source,
           "-check-prefix=" + prefix, "-dump-input=fail"]
    if implicit_not:
        cmd.append("-implicit-check-not=" + implicit_not)
    if strict:
        cmd.append("-strict-whitespace")
    return run(cmd)


def main():
    suffixes, (source, check, temp), tidy_args, compile_flags = parse_args(sys.argv[1:])
    with open(source, encoding="utf-8") as f:
        text = f.read()
    cleaned = re.sub(r"//\s*CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", text)

    def prefixes(base):
        return [base + "-" + s for s in suffixes] if suffixes else [base]

    message_prefixes = [p for p in prefixes("CHECK-MESSAGES") if re.search(p + r"(-NOT)?:", text)]
    note_prefixes = [p for p in prefixes("CHECK-NOTES") if re.search(p + r"(-NOT)?:", text)]
    fix_prefixes = [p for p in prefixes("CHECK-FIXES") if re.search(p + r"(-NOT)?:", text)]
    wants_fix = bool(fix_prefixes)
    ext = os.path.splitext(source)[1] or ".cu"
    checks_arg = "-checks=-*," + check
    cuda_flags = os.environ["CUDA_TIDY_TEST_CUDA_FLAGS"].split()

    front_ends = {
        "plugin": lambda path, fix: [os.environ["CLANG_TIDY"], "--load=" + os.environ["CUDA_TIDY_PLUGIN"],
                                     checks_arg] + (["--fix"] if fix else []) + tidy_args +
                                    [path, "--"] + cuda_flags + compile_flags,
        # The standalone tool gets no CUDA flags: its zero-config defaults are
        # what is under test. The `--` keeps it from picking up the build
        # tree's compile database.
        # --no-explain: the checks' own notes are under test, as the plugin
        # prints them, not the standalone's how-to-fix line.
        "standalone": lambda path, fix: [os.environ["CUDA_TIDY"], checks_arg, "--no-explain"] +
                                        (["--fix"] if fix else []) + tidy_args +
                                        [path, "--"] + compile_flags,
    }
    selected = os.environ.get("CUDA_TIDY_FRONT_ENDS", "plugin,standalone").split(",")
    for name in selected:
        build = front_ends[name]
        path = temp + "." + name + ext
        with open(path, "w", encoding="utf-8") as f:
            f.write(cleaned)
        code, output = run(build(path, wants_fix))
        out_path = temp + "." + name + ".msg"
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(output)
        if code not in (0, 1) or "Error while processing" in output:
            fail("%s front-end exited with %d" % (name, code), output)
        where = "[%s front-end] " % name
        if note_prefixes:
            for p in note_prefixes:
                rc, o = file_check(out_path, source, p, "{{note|warning|error}}:")
                if rc:
                    fail(where + "CHECK-NOTES failed", o)
        elif message_prefixes:
            for p in message_prefixes:
                rc, o = file_check(out_path, source, p, "{{warning|error}}:")
                if rc:
                    fail(where + "CHECK-MESSAGES failed", o)
        elif re.search(r"(warning|error): ", output):
            fail(where + "expected no diagnostics", output)
        if wants_fix:
            for p in fix_prefixes:
                rc, o = file_check(path, source, p, strict=True)
                if rc:
                    fail(where + "CHECK-FIXES failed", o)
            with open(path, encoding="utf-8") as f:
                once = f.read()
            code, output = run(build(path, True))
            with open(path, encoding="utf-8") as f:
                twice = f.read()
            if once != twice:
                fail(where + "a second --fix run changed the file again", output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
