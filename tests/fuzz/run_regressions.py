#!/usr/bin/env python3
"""Runs every input the fuzzer once crashed on through cuda-tidy again.

  run_regressions.py --cuda-tidy BIN --stub-dir DIR [--fuzzer BIN] INPUTS

Each file in INPUTS (tests/fuzz/regressions; README.md aside) is a fuzzer
input. It becomes the translation unit the fuzzer built from it: the
stand-in header, the `cg` alias, then the input (CheckFuzzer.cpp), and the
standalone cuda-tidy analyzes it with the stand-in header in place of the
toolkit's. Findings and compile errors are fine (exit 0, 1 or 3); a signal,
any other exit status (a sanitizer report is 86 in the sanitizer build) or a
hang fails the test. With --fuzzer, each input also goes through the fuzzer
binary itself, which must exit 0.
"""
import argparse
import os
import subprocess
import sys
import tempfile

# The same prefix LLVMFuzzerTestOneInput puts before each input.
PREFIX = b'#include "cuda_stub.h"\nnamespace cg = cooperative_groups;\n'
ACCEPTED = (0, 1, 3)
TIMEOUT_S = 300


def describe(code):
    if code < 0:
        return "killed by signal %d" % -code
    return "exit status %d" % code


def run(cmd, cwd=None):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              cwd=cwd, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT_S
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda-tidy", required=True)
    parser.add_argument("--stub-dir", required=True)
    parser.add_argument("--fuzzer")
    parser.add_argument("inputs")
    args = parser.parse_args()
    # cuda-tidy runs in a scratch folder, so that no compile database or
    # .clang-tidy of the checkout applies; the paths must not be relative.
    args.cuda_tidy = os.path.abspath(args.cuda_tidy)
    args.stub_dir = os.path.abspath(args.stub_dir)
    if args.fuzzer:
        args.fuzzer = os.path.abspath(args.fuzzer)

    names = sorted(n for n in os.listdir(args.inputs)
                   if n != "README.md" and os.path.isfile(os.path.join(args.inputs, n)))
    failures = 0
    with tempfile.TemporaryDirectory(prefix="cuda-tidy-fuzz-") as scratch:
        for name in names:
            path = os.path.join(args.inputs, name)
            with open(path, "rb") as f:
                data = f.read()
            source = os.path.join(scratch, "input.cu")
            with open(source, "wb") as f:
                f.write(PREFIX + data)
            code, output = run([args.cuda_tidy, "--no-cache", source, "--",
                                "-nocudainc", "-ferror-limit=20",
                                "-I" + args.stub_dir], cwd=scratch)
            if code is None or code not in ACCEPTED:
                failures += 1
                print("FAIL %s: cuda-tidy %s\n%s" % (
                    name, output if code is None else describe(code),
                    "" if code is None else output[-4000:]))
            else:
                print("ok   %s: cuda-tidy %s" % (name, describe(code)))
            if args.fuzzer:
                code, output = run([args.fuzzer, path])
                if code != 0:
                    failures += 1
                    print("FAIL %s: fuzzer %s\n%s" % (
                        name, output if code is None else describe(code),
                        "" if code is None else output[-4000:]))
                else:
                    print("ok   %s: fuzzer exit status 0" % name)
    print("%d inputs, %d failures" % (len(names), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
